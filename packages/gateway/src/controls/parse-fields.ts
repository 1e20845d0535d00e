// The checks each field of an operator's controls goes through (parse-controls.ts): a value of
// the wrong shape is a Problem naming its path, which the reader turns into file:line:column.

import { isRecord } from '@mcp-kit/core'
import type { PrincipalSpec } from '../policy/principal.js'

export type Path = Array<string | number>

/** A field that cannot be used, where it is. */
export class Problem extends Error {
  readonly path: Path
  constructor(path: Path, message: string) {
    super(message)
    this.path = path
  }
}

export function shown(path: Path): string {
  return path
    .map((part, index) => (typeof part === 'number' ? `[${part}]` : index === 0 ? part : `.${part}`))
    .join('')
}

export function object(value: unknown, path: Path, known: readonly string[]): Record<string, unknown> {
  if (!isRecord(value)) throw new Problem(path, 'must be an object')
  for (const key of Object.keys(value)) {
    if (!known.includes(key)) throw new Problem([...path, key], `is not a known field (${known.join(', ')})`)
  }
  return value
}

export function strings(value: unknown, path: Path): string[] | undefined {
  if (value === undefined) return undefined
  const list = typeof value === 'string' ? [value] : value
  if (!Array.isArray(list) || list.some((item) => typeof item !== 'string' || item === ''))
    throw new Problem(path, 'must be a name or a list of names (globs * and ? allowed)')
  return list as string[]
}

export function positive(value: unknown, path: Path, whole = false): number {
  if (
    typeof value !== 'number' ||
    !Number.isFinite(value) ||
    value <= 0 ||
    (whole && !Number.isInteger(value))
  )
    throw new Problem(path, whole ? 'must be a whole number > 0' : 'must be a number > 0')
  return value
}

const principalFields = ['scopes', 'sub', 'clientId', 'token', 'claims', 'anonymous'] as const

export function principal(value: unknown, path: Path): PrincipalSpec {
  const fields = object(value, path, principalFields)
  const spec: PrincipalSpec = {}
  for (const key of ['scopes', 'sub', 'clientId', 'token'] as const) {
    const list = strings(fields[key], [...path, key])
    if (list !== undefined) spec[key] = list
  }
  if (fields.claims !== undefined) {
    const claims = object(fields.claims, [...path, 'claims'], Object.keys(fields.claims ?? {}))
    spec.claims = {}
    for (const [claim, wanted] of Object.entries(claims)) {
      const list = typeof wanted === 'number' || typeof wanted === 'boolean' ? [String(wanted)] : wanted
      spec.claims[claim] = strings(list, [...path, 'claims', claim]) as string[]
    }
  }
  if (fields.anonymous !== undefined) {
    if (typeof fields.anonymous !== 'boolean')
      throw new Problem([...path, 'anonymous'], 'must be true or false')
    spec.anonymous = fields.anonymous
  }
  if (Object.keys(spec).length === 0)
    throw new Problem(path, `names nobody: give one of ${principalFields.join(', ')}`)
  return spec
}
