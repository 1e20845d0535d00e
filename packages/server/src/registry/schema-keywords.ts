// The mistakes a hand-written schema makes most (a misspelt type, `required` that is not a list,
// a subschema that is not a schema), found at registration without compiling anything: each
// distinct (frozen) subschema is looked at once, so schemas many tools share cost nothing more.
// The full check is ajv's, when the runtime compiles the schema at the tool's first call.

const types = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'])
type Kind = 'map' | 'list' | 'schema' | 'items' | 'count' | 'number' | 'string' | 'type' | 'required' | 'enum'
const kinds = new Map<string, Kind>([
  ...['properties', 'patternProperties', 'dependentSchemas', '$defs', 'definitions'].map(
    (key) => [key, 'map'] as const,
  ),
  ...['allOf', 'anyOf', 'oneOf', 'prefixItems'].map((key) => [key, 'list'] as const),
  ...[
    'additionalProperties',
    'additionalItems',
    'not',
    'if',
    'then',
    'else',
    'contains',
    'propertyNames',
    'unevaluatedProperties',
    'unevaluatedItems',
  ].map((key) => [key, 'schema'] as const),
  ...['minLength', 'maxLength', 'minItems', 'maxItems', 'minProperties', 'maxProperties'].map(
    (key) => [key, 'count'] as const,
  ),
  ...['minimum', 'maximum', 'multipleOf'].map((key) => [key, 'number'] as const),
  ...['pattern', 'format', '$ref'].map((key) => [key, 'string'] as const),
  ['items', 'items'],
  ['type', 'type'],
  ['required', 'required'],
  ['enum', 'enum'],
])

// Subschemas already found sound; only frozen ones are remembered, since others may still change.
const sound = new WeakSet<object>()

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

// Where the walk is, as JSON pointer tokens: joined only to word a mistake.
type Trail = Array<string | number>

function pointer(trail: Trail): string {
  return trail.map((key) => `/${String(key).replaceAll('~', '~0').replaceAll('/', '~1')}`).join('') || '/'
}

function typeMistake(type: unknown, trail: Trail): string | undefined {
  const listed = Array.isArray(type) ? type : [type]
  const wrong = listed.find((name) => typeof name !== 'string' || !types.has(name))
  if (wrong === undefined && listed.length > 0) return undefined
  return `${pointer(trail)} must be one of ${[...types].join(', ')} (or a list of them), not ${JSON.stringify(wrong ?? type)}`
}

function nested(value: unknown, trail: Trail, key: string | number): string | undefined {
  trail.push(key)
  const mistake = walk(value, trail)
  trail.pop()
  return mistake
}

function keywordMistake(kind: Kind, value: unknown, trail: Trail): string | undefined {
  switch (kind) {
    case 'type':
      return typeMistake(value, trail)
    case 'required':
      return Array.isArray(value) && value.every((name) => typeof name === 'string')
        ? undefined
        : `${pointer(trail)} must be a list of property names`
    case 'enum':
      return Array.isArray(value) ? undefined : `${pointer(trail)} must be a list`
    case 'count':
      return Number.isInteger(value) && (value as number) >= 0
        ? undefined
        : `${pointer(trail)} must be a whole number >= 0`
    case 'number':
      return typeof value === 'number' ? undefined : `${pointer(trail)} must be a number`
    case 'string':
      return typeof value === 'string' ? undefined : `${pointer(trail)} must be a string`
    case 'map': {
      if (!isObject(value)) return `${pointer(trail)} must be an object of schemas`
      for (const name of Object.keys(value)) {
        const mistake = nested(value[name], trail, name)
        if (mistake !== undefined) return mistake
      }
      return undefined
    }
    case 'items':
    case 'list': {
      if (!Array.isArray(value)) {
        return kind === 'items' ? walk(value, trail) : `${pointer(trail)} must be a list of schemas`
      }
      for (let index = 0; index < value.length; index++) {
        const mistake = nested(value[index], trail, index)
        if (mistake !== undefined) return mistake
      }
      return undefined
    }
    case 'schema':
      return walk(value, trail)
  }
}

function walk(schema: unknown, trail: Trail): string | undefined {
  if (typeof schema === 'boolean') return undefined
  if (!isObject(schema)) return `${pointer(trail)} must be a schema (an object or a boolean)`
  if (sound.has(schema) || trail.length > 400) return undefined
  for (const key of Object.keys(schema)) {
    const kind = kinds.get(key)
    if (kind === undefined) continue
    trail.push(key)
    const mistake = keywordMistake(kind, schema[key], trail)
    trail.pop()
    if (mistake !== undefined) return mistake
  }
  if (Object.isFrozen(schema)) sound.add(schema)
  return undefined
}

/** The first problem of `schema` as `"<JSON pointer> <what is wrong>"`, or undefined. */
export function schemaMistake(schema: unknown): string | undefined {
  return walk(schema, [])
}
