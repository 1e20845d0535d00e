// OpenAPI Schema Objects as the JSON Schema (2020-12) that MCP tools carry. OpenAPI 3.1 schemas
// are JSON Schema already; 3.0 ones need `nullable` and the boolean `exclusiveMinimum`/
// `exclusiveMaximum` rewritten, and OpenAPI-only keywords (`discriminator`, `xml`…) are dropped. A request's schema loses
// `readOnly` properties (the server sets them), a response's loses `writeOnly` ones. A `$ref` left
// by the dereferencer is a recursive schema: it becomes "anything" (named in its description).

import { cleanText } from './clean-text.js'

export type JsonSchema = Record<string, unknown>
export type Direction = 'request' | 'response'

const openApiOnly = new Set(['discriminator', 'xml', 'externalDocs', 'nullable', 'example'])
const schemaMaps = ['properties', 'patternProperties', 'dependentSchemas', '$defs', 'definitions']
const schemaLists = ['allOf', 'anyOf', 'oneOf', 'prefixItems']
const schemaValues = [
  'additionalProperties',
  'items',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
  'unevaluatedProperties',
  'unevaluatedItems',
]
// Deeper than any real document nests; what lies below is offered as "anything".
const maximumDepth = 48

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** Converts one schema, for what is sent (`request`) or what comes back (`response`). */
export function toJsonSchema(schema: unknown, direction: Direction): JsonSchema {
  return convert(schema, direction, 0) as JsonSchema
}

function convert(schema: unknown, direction: Direction, depth: number): unknown {
  if (typeof schema === 'boolean') return schema
  if (!isRecord(schema) || depth > maximumDepth) return {}
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref.split('/').at(-1) ?? schema.$ref
    return { description: `a ${cleanText(name)} (recursive; not checked here)` }
  }
  const result: JsonSchema = {}
  for (const [key, value] of Object.entries(schema)) {
    if (key.startsWith('x-') || openApiOnly.has(key)) continue
    if (schemaMaps.includes(key) && isRecord(value)) {
      const map: JsonSchema = {}
      for (const [name, item] of Object.entries(value)) {
        if (key === 'properties' && hiddenIn(item, direction)) continue
        map[name] = convert(item, direction, depth + 1)
      }
      result[key] = map
    } else if (schemaLists.includes(key) && Array.isArray(value)) {
      result[key] = value.map((item) => convert(item, direction, depth + 1))
    } else if (schemaValues.includes(key) && (isRecord(value) || typeof value === 'boolean')) {
      result[key] = convert(value, direction, depth + 1)
    } else if (key === 'items' && Array.isArray(value)) {
      result[key] = value.map((item) => convert(item, direction, depth + 1))
    } else if ((key === 'description' || key === 'title') && typeof value === 'string') {
      result[key] = cleanText(value)
    } else {
      result[key] = value
    }
  }
  if ('example' in schema && !('examples' in schema) && schema.example !== undefined) {
    result.examples = [schema.example]
  }
  if (Array.isArray(result.required) && isRecord(result.properties)) {
    const properties = result.properties
    result.required = result.required.filter((name) => typeof name === 'string' && name in properties)
    if ((result.required as string[]).length === 0) delete result.required
  }
  if (direction === 'response' && result.additionalProperties === false) {
    // Answers often carry more than their document says; that is no reason to fail a call.
    delete result.additionalProperties
  }
  rewrite30(schema, result)
  return result
}

function hiddenIn(property: unknown, direction: Direction): boolean {
  if (!isRecord(property)) return false
  return direction === 'request' ? property.readOnly === true : property.writeOnly === true
}

/** OpenAPI 3.0's `nullable` and boolean exclusive bounds, as JSON Schema says them. */
function rewrite30(source: Record<string, unknown>, result: JsonSchema): void {
  if (source.nullable === true) {
    if (typeof result.type === 'string') result.type = [result.type, 'null']
    if (Array.isArray(result.enum) && !result.enum.includes(null)) result.enum = [...result.enum, null]
  }
  for (const [flag, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (typeof source[flag] !== 'boolean') continue
    if (source[flag] === true && typeof source[bound] === 'number') {
      result[flag] = source[bound]
      delete result[bound]
    } else {
      delete result[flag]
    }
  }
}
