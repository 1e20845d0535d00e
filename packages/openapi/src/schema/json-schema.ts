// OpenAPI Schema Objects as the JSON Schema (2020-12) that MCP tools carry. OpenAPI 3.1 schemas
// are JSON Schema already; 3.0 ones need `nullable` and the boolean `exclusiveMinimum`/
// `exclusiveMaximum` rewritten, and OpenAPI-only keywords (`discriminator`, `xml`…) are dropped. A request's schema loses
// `readOnly` properties (the server sets them), a response's loses `writeOnly` ones. A `$ref` left
// by the dereferencer is a recursive schema: it becomes "anything" (named in its description).
// Results are deeply frozen and shared between the tools whose schemas use the same source schema.

import { isRecord } from '@mcp-kit/core'
import { sealJson } from '@mcp-kit/server/internal'
import { cleanText } from './clean-text.js'

export type JsonSchema = Record<string, unknown>
export type Direction = 'request' | 'response'

const openApiOnly = new Set(['discriminator', 'xml', 'externalDocs', 'nullable', 'example'])
export const schemaMaps = ['properties', 'patternProperties', 'dependentSchemas', '$defs', 'definitions']
export const schemaLists = ['allOf', 'anyOf', 'oneOf', 'prefixItems']
export const schemaValues = [
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
// The same lists as sets, for the conversion's per-keyword lookups.
const mapKeys = new Set(schemaMaps)
const listKeys = new Set([...schemaLists, 'items'])
const valueKeys = new Set(schemaValues)
const exclusiveBounds = [
  ['exclusiveMinimum', 'minimum'],
  ['exclusiveMaximum', 'maximum'],
] as const
// Deeper than any real document nests; what lies below is offered as "anything".
const maximumDepth = 48

/** One converted schema and how many levels it nests (for the depth bound when it is reused). */
interface Converted {
  value: unknown
  height: number
  /** Cut at the depth bound: true for this use only, so not remembered. */
  cut: boolean
}

// Every schema object of a dereferenced document converted once per direction: a component that
// many operations use (`$ref`) is one frozen object in every tool that has it, not a copy each.
const memos: Record<Direction, WeakMap<object, Converted>> = {
  request: new WeakMap(),
  response: new WeakMap(),
}
const anything: Converted = { value: sealJson({}), height: 0, cut: false }
const cutHere: Converted = { value: anything.value, height: 0, cut: true }

/**
 * Converts one schema, for what is sent (`request`) or what comes back (`response`). The result
 * is deeply frozen and shared: the same source schema gives the same object.
 */
export function toJsonSchema(schema: unknown, direction: Direction): JsonSchema {
  return convert(schema, direction, 0).value as JsonSchema
}

/**
 * Freezes a value built here and everything in it, sealed bottom-up (what is frozen already was
 * sealed when it was made) so that the registry need not walk it again.
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value
  for (const item of Object.values(value)) deepFreeze(item)
  return sealJson(value)
}

/** A frozen copy of a plain value from the document (an `enum`, a `default`, an example). */
export function frozenCopy(value: unknown, depth = 0): unknown {
  if (typeof value !== 'object' || value === null) return value
  if (depth > maximumDepth) return null
  if (Array.isArray(value)) return sealJson(value.map((item) => frozenCopy(item, depth + 1)))
  const copy: Record<string, unknown> = {}
  for (const [key, item] of Object.entries(value)) copy[key] = frozenCopy(item, depth + 1)
  return sealJson(copy)
}

function convert(schema: unknown, direction: Direction, depth: number): Converted {
  if (typeof schema === 'boolean') return { value: schema, height: 0, cut: false }
  if (!isRecord(schema)) return anything
  if (depth > maximumDepth) return cutHere
  const memo = memos[direction].get(schema)
  if (memo !== undefined && depth + memo.height <= maximumDepth) return memo
  let height = 0
  let cut = false
  const child = (value: unknown): unknown => {
    const converted = convert(value, direction, depth + 1)
    height = Math.max(height, converted.height + 1)
    cut ||= converted.cut
    return converted.value
  }
  const result: JsonSchema = {}
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref.split('/').at(-1) ?? schema.$ref
    result.description = `a ${cleanText(name)} (recursive; not checked here)`
    return remember(schema, direction, { value: sealJson(result), height: 0, cut: false })
  }
  for (const key in schema) {
    if (!Object.hasOwn(schema, key) || key.startsWith('x-') || openApiOnly.has(key)) continue
    const value = schema[key]
    if (mapKeys.has(key) && isRecord(value)) {
      const map: JsonSchema = {}
      for (const name in value) {
        if (!Object.hasOwn(value, name)) continue
        const item = value[name]
        if (key === 'properties' && hiddenIn(item, direction)) continue
        map[name] = child(item)
      }
      result[key] = sealJson(map)
    } else if (listKeys.has(key) && Array.isArray(value)) {
      result[key] = sealJson(value.map(child))
    } else if (valueKeys.has(key) && (isRecord(value) || typeof value === 'boolean')) {
      result[key] = child(value)
    } else if ((key === 'description' || key === 'title') && typeof value === 'string') {
      result[key] = cleanText(value)
    } else {
      result[key] = frozenCopy(value)
    }
  }
  if ('example' in schema && !('examples' in schema) && schema.example !== undefined) {
    result.examples = sealJson([frozenCopy(schema.example)])
  }
  if (Array.isArray(result.required) && isRecord(result.properties)) {
    const properties = result.properties
    const required = result.required.filter((name) => typeof name === 'string' && name in properties)
    if (required.length === 0) delete result.required
    else result.required = sealJson(required)
  }
  if (direction === 'response' && result.additionalProperties === false) {
    // Answers often carry more than their document says; that is no reason to fail a call.
    delete result.additionalProperties
  }
  rewrite30(schema, result)
  return remember(schema, direction, { value: sealJson(result), height, cut })
}

function remember(schema: object, direction: Direction, converted: Converted): Converted {
  if (!converted.cut) memos[direction].set(schema, converted)
  return converted
}

function hiddenIn(property: unknown, direction: Direction): boolean {
  if (!isRecord(property)) return false
  return direction === 'request' ? property.readOnly === true : property.writeOnly === true
}

/** OpenAPI 3.0's `nullable` and boolean exclusive bounds, as JSON Schema says them. */
function rewrite30(source: Record<string, unknown>, result: JsonSchema): void {
  if (source.nullable === true) {
    if (typeof result.type === 'string') result.type = sealJson([result.type, 'null'])
    if (Array.isArray(result.enum) && !result.enum.includes(null))
      result.enum = sealJson([...result.enum, null])
  }
  for (const [flag, bound] of exclusiveBounds) {
    if (typeof source[flag] !== 'boolean') continue
    if (source[flag] === true && typeof source[bound] === 'number') {
      result[flag] = source[bound]
      delete result[bound]
    } else {
      delete result[flag]
    }
  }
}
