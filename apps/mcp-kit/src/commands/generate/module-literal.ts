// Data in a generated module: the `generated` record as a literal that is also JSON, so that
// `mcp-kit profile validate` reads it back without running the module. Every string is a JSON
// string (U+2028 and U+2029 escaped too), every key a quoted string, and a key `__proto__` is
// refused: even quoted, in an object literal it sets the prototype instead of a property.

import { CliError } from '../../base/errors.js'

/** A string literal: JSON's escapes, and the two line separators JavaScript once ended lines at. */
export function stringLiteral(text: string): string {
  return JSON.stringify(text)
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029')
}

function isScalar(value: unknown): boolean {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value)
}

/** Short arrays stay on one line: scalars, and lists of scalars (a field's `[name, type, required]`). */
function isInline(value: unknown): boolean {
  return (
    Array.isArray(value) &&
    value.every((item) => isScalar(item) || (Array.isArray(item) && item.every(isScalar)))
  )
}

function scalar(value: unknown): string {
  if (typeof value === 'string') return stringLiteral(value)
  if (typeof value === 'number' && !Number.isFinite(value))
    throw new CliError('internal', 'a generated module cannot hold a number that is not finite')
  return JSON.stringify(value)
}

/** `value` as JSON text, indented by two spaces per level; undefined members are left out. */
export function dataLiteral(value: unknown, indent = ''): string {
  if (isScalar(value)) return scalar(value)
  const inner = `${indent}  `
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]'
    if (isInline(value)) return `[${value.map((item) => dataLiteral(item)).join(', ')}]`
    return `[\n${value.map((item) => `${inner}${dataLiteral(item, inner)}`).join(',\n')}\n${indent}]`
  }
  if (typeof value !== 'object' || value === null)
    throw new CliError('internal', `a generated module cannot hold a ${typeof value}`)
  const entries = Object.entries(value).filter(([, member]) => member !== undefined)
  if (entries.length === 0) return '{}'
  const lines = entries.map(([key, member]) => {
    if (key === '__proto__')
      throw new CliError(
        'usage',
        'a generated module cannot hold a setting named __proto__ (an environment variable or header)',
      )
    return `${inner}${stringLiteral(key)}: ${dataLiteral(member, inner)}`
  })
  return `{\n${lines.join(',\n')}\n${indent}}`
}
