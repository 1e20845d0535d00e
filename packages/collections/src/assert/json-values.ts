// Equality, containment and JSON types of plain JSON values, as the assertions compare them.

import { isRecord } from '@mcp-kit/core'

/** Deep equality of JSON values (object key order does not matter). */
export function deepEqual(left: unknown, right: unknown): boolean {
  if (left === right) return true
  if (Array.isArray(left) && Array.isArray(right))
    return left.length === right.length && left.every((item, index) => deepEqual(item, right[index]))
  if (isRecord(left) && isRecord(right)) {
    const keys = Object.keys(left)
    if (keys.length !== Object.keys(right).length) return false
    return keys.every((key) => Object.hasOwn(right, key) && deepEqual(left[key], right[key]))
  }
  return typeof left === 'number' && typeof right === 'number' && Number.isNaN(left) && Number.isNaN(right)
}

/**
 * `actual` contains `expected`: a substring of a string, for an array an element containing each
 * expected element, for an object the expected fields (each containing its value); else equality.
 */
export function contains(actual: unknown, expected: unknown): boolean {
  if (typeof actual === 'string' && typeof expected === 'string') return actual.includes(expected)
  if (Array.isArray(actual)) {
    const wanted = Array.isArray(expected) ? expected : [expected]
    return wanted.every((item) => actual.some((candidate) => contains(candidate, item)))
  }
  if (isRecord(actual) && isRecord(expected))
    return Object.entries(expected).every(
      ([key, item]) => Object.hasOwn(actual, key) && contains(actual[key], item),
    )
  return deepEqual(actual, expected)
}

export type JsonType = 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array' | 'null'

/** The JSON type of a value (`integer` is a number without a fraction). */
export function jsonType(value: unknown): JsonType | 'undefined' {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  if (typeof value === 'number') return 'number'
  if (typeof value === 'string' || typeof value === 'boolean' || typeof value === 'object')
    return typeof value as JsonType
  return 'undefined'
}

export function hasType(value: unknown, type: JsonType): boolean {
  if (type === 'integer') return typeof value === 'number' && Number.isInteger(value)
  return jsonType(value) === type
}

/** A regular expression from `text`, or from `/source/flags`. Throws SyntaxError for a bad one. */
export function regexOf(text: string, extraFlags = ''): RegExp {
  const literal = /^\/(.*)\/([dgimsuvy]*)$/s.exec(text)
  const flags = new Set([...(literal?.[2] ?? ''), ...extraFlags])
  return new RegExp(literal ? (literal[1] as string) : text, [...flags].join(''))
}

/** A copy through JSON: what a server sent, without `undefined`s or class instances. */
export function plainJson<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T)
}
