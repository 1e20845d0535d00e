// Turns URL query strings into the argument types a tool's inputSchema asks for (docs/architecture.md
// "Server references"). Schemas come from servers we do not control, so this never throws:
// whatever cannot be converted is passed on as given and validation reports it.

import { isRecord } from '@mcp-kit/core'
import { ownValue, setOwnValue, type TypeCandidate, typeCandidates } from './json-schema.js'

export interface CoerceOptions {
  /** Return the strings unchanged. */
  raw?: boolean | undefined
}

// Stricter readings first: "null" is null before it is a string, "1" a boolean before an integer.
// A string candidate accepts anything, so it comes last.
const candidateOrder = ['null', 'boolean', 'integer', 'number', 'object', 'array', 'string']

// Bounds recursion through item schemas of recursive array schemas (`items: { $ref: '#' }`).
const maximumDepth = 32

const integerPattern = /^[-+]?\d+$/
const numberPattern = /^[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?$/
const noMatch: unique symbol = Symbol('no match')

/**
 * Coerces each string (or repeated-key string array) to the type its parameter's schema asks
 * for. Unknown parameters, untyped schemas and values that do not convert are returned as given.
 */
export function coerceArguments(
  strings: Record<string, string | string[]>,
  inputSchema: unknown,
  options: CoerceOptions = {},
): Record<string, unknown> {
  const result: Record<string, unknown> = {}
  if (!isRecord(strings)) return result
  const declared = isRecord(inputSchema) ? ownValue(inputSchema, 'properties') : undefined
  const properties = isRecord(declared) ? declared : {}
  for (const name of Object.keys(strings)) {
    const value: unknown = strings[name]
    const coerced =
      options.raw === true || !Object.hasOwn(properties, name)
        ? value
        : coerceValue(value, properties[name], inputSchema, 0)
    setOwnValue(result, name, coerced)
  }
  return result
}

function coerceValue(value: unknown, schema: unknown, root: unknown, depth: number): unknown {
  if (depth > maximumDepth) return value
  const candidates = typeCandidates(schema, root)
    .filter((candidate) => candidateOrder.includes(candidate.type))
    .sort((left, right) => candidateOrder.indexOf(left.type) - candidateOrder.indexOf(right.type))
  const arrayCandidate = candidates.find((candidate) => candidate.type === 'array')

  // A repeated query key only makes sense for an array parameter.
  if (Array.isArray(value)) {
    if (arrayCandidate === undefined) return value
    return value.map((element, index) =>
      coerceValue(element, itemSchema(arrayCandidate.schema, index), root, depth + 1),
    )
  }
  if (typeof value !== 'string') return value

  for (const candidate of candidates) {
    const converted = convert(value, candidate.type)
    if (converted !== noMatch) return converted
  }
  // A lone value for an array parameter is a one-element array, unless the parameter may also
  // be a string: then the string reading is the less surprising one.
  if (arrayCandidate !== undefined && !candidates.some((candidate) => candidate.type === 'string')) {
    return [coerceValue(value, itemSchema(arrayCandidate.schema, 0), root, depth + 1)]
  }
  return value
}

function convert(value: string, type: string): unknown {
  switch (type) {
    case 'null':
      return value === 'null' ? null : noMatch
    case 'boolean': {
      const lower = value.toLowerCase()
      if (lower === 'true' || value === '1') return true
      if (lower === 'false' || value === '0') return false
      return noMatch
    }
    case 'integer': {
      if (!integerPattern.test(value)) return noMatch
      const number = Number(value)
      return Number.isSafeInteger(number) ? number : noMatch
    }
    case 'number': {
      if (!numberPattern.test(value)) return noMatch
      const number = Number(value)
      return Number.isFinite(number) ? number : noMatch
    }
    case 'object': {
      const parsed = parseJson(value, '{')
      return isRecord(parsed) ? parsed : noMatch
    }
    case 'array': {
      const parsed = parseJson(value, '[')
      return Array.isArray(parsed) ? parsed : noMatch
    }
    case 'string':
      return value
    default:
      return noMatch
  }
}

function parseJson(value: string, opening: string): unknown {
  if (!value.trimStart().startsWith(opening)) return noMatch
  try {
    return JSON.parse(value)
  } catch {
    return noMatch
  }
}

/** The schema for an array's element at `index`: `prefixItems`, draft-07 tuple `items`, or `items`. */
function itemSchema(arraySchema: TypeCandidate['schema'], index: number): unknown {
  const prefixItems = ownValue(arraySchema, 'prefixItems')
  if (Array.isArray(prefixItems) && index < prefixItems.length) return prefixItems[index]
  const items = ownValue(arraySchema, 'items')
  if (Array.isArray(items))
    return index < items.length ? items[index] : ownValue(arraySchema, 'additionalItems')
  return items
}
