// The mistakes a hand-written schema makes most (a misspelt type, `required` that is not a list,
// a subschema that is not a schema), found at registration without compiling anything: each
// distinct (frozen) subschema is looked at once, so schemas many tools share cost nothing more.
// The full check is ajv's, when the runtime compiles the schema at the tool's first call.

import { isRecord } from '@mcp-kit/core'

const types = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'])
type Kind = 'map' | 'list' | 'schema' | 'items' | 'count' | 'number' | 'string' | 'type' | 'required' | 'enum'
const kinds: Record<string, Kind | undefined> = Object.assign(Object.create(null), {
  properties: 'map',
  patternProperties: 'map',
  dependentSchemas: 'map',
  $defs: 'map',
  definitions: 'map',
  allOf: 'list',
  anyOf: 'list',
  oneOf: 'list',
  prefixItems: 'list',
  additionalProperties: 'schema',
  additionalItems: 'schema',
  not: 'schema',
  if: 'schema',
  // biome-ignore lint/suspicious/noThenProperty: a JSON Schema keyword in a lookup table, never awaited
  then: 'schema',
  else: 'schema',
  contains: 'schema',
  propertyNames: 'schema',
  unevaluatedProperties: 'schema',
  unevaluatedItems: 'schema',
  minLength: 'count',
  maxLength: 'count',
  minItems: 'count',
  maxItems: 'count',
  minProperties: 'count',
  maxProperties: 'count',
  minimum: 'number',
  maximum: 'number',
  multipleOf: 'number',
  pattern: 'string',
  format: 'string',
  $ref: 'string',
  items: 'items',
  type: 'type',
  required: 'required',
  enum: 'enum',
})

// Subschemas already found sound; only frozen ones are remembered, since others may still change.
const sound = new WeakSet<object>()

/** A mistake found deep in a schema: its JSON pointer is put together on the way back up. */
interface Mistake {
  path: Array<string | number>
  problem: string
}

function mistake(problem: string): Mistake {
  return { path: [], problem }
}

function under(key: string | number, found: Mistake | undefined): Mistake | undefined {
  found?.path.unshift(key)
  return found
}

function typeMistake(type: unknown): Mistake | undefined {
  if (typeof type === 'string' && types.has(type)) return undefined
  const listed = Array.isArray(type) ? type : [type]
  const wrong = listed.find((name) => typeof name !== 'string' || !types.has(name))
  if (wrong === undefined && listed.length > 0) return undefined
  return mistake(
    `must be one of ${[...types].join(', ')} (or a list of them), not ${JSON.stringify(wrong ?? type)}`,
  )
}

function keywordMistake(kind: Kind, value: unknown, depth: number): Mistake | undefined {
  switch (kind) {
    case 'type':
      return typeMistake(value)
    case 'required':
      return Array.isArray(value) && value.every((name) => typeof name === 'string')
        ? undefined
        : mistake('must be a list of property names')
    case 'enum':
      return Array.isArray(value) ? undefined : mistake('must be a list')
    case 'count':
      return Number.isInteger(value) && (value as number) >= 0
        ? undefined
        : mistake('must be a whole number >= 0')
    case 'number':
      return typeof value === 'number' ? undefined : mistake('must be a number')
    case 'string':
      return typeof value === 'string' ? undefined : mistake('must be a string')
    case 'map': {
      if (!isRecord(value)) return mistake('must be an object of schemas')
      for (const name in value) {
        const found = walk(value[name], depth + 1)
        if (found !== undefined) return under(name, found)
      }
      return undefined
    }
    case 'items':
    case 'list': {
      if (!Array.isArray(value)) {
        return kind === 'items' ? walk(value, depth + 1) : mistake('must be a list of schemas')
      }
      for (let index = 0; index < value.length; index++) {
        const found = walk(value[index], depth + 1)
        if (found !== undefined) return under(index, found)
      }
      return undefined
    }
    case 'schema':
      return walk(value, depth + 1)
  }
}

function walk(schema: unknown, depth: number): Mistake | undefined {
  if (typeof schema === 'boolean') return undefined
  if (!isRecord(schema)) return mistake('must be a schema (an object or a boolean)')
  if (sound.has(schema) || depth > 200) return undefined
  for (const key in schema) {
    const kind = kinds[key]
    if (kind === undefined || !Object.hasOwn(schema, key)) continue
    const found = keywordMistake(kind, schema[key], depth)
    if (found !== undefined) return under(key, found)
  }
  if (Object.isFrozen(schema)) sound.add(schema)
  return undefined
}

/** The first problem of `schema` as `"<JSON pointer> <what is wrong>"`, or undefined. */
export function schemaMistake(schema: unknown): string | undefined {
  const found = walk(schema, 0)
  if (found === undefined) return undefined
  const pointer = found.path
    .map((key) => `/${String(key).replaceAll('~', '~0').replaceAll('/', '~1')}`)
    .join('')
  return `${pointer || '/'} ${found.problem}`
}
