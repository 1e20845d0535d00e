// Shared JSON Schema helpers for hashing, diffing and coercion: reading schemas that come from
// untrusted servers (own properties only, local $ref resolution with cycle and depth guards),
// deriving a parameter's type, and a canonical JSON text for key-order-insensitive comparison.

import { isRecord } from '@mcp-kit/core'

/** A parameter's type as far as it can be told: `type` as given, a sorted union, or null. */
export type TypeSignature = string | string[] | null

/** One JSON type a schema admits, with the (sub)schema that declares it (for `items` etc.). */
export interface TypeCandidate {
  type: string
  schema: Record<string, unknown>
}

// Recursive schemas ($ref to an ancestor, anyOf nesting) must not recurse without bound; real
// schemas nest far less than this.
const maximumDepth = 64

/** Reads a key only if the object owns it, so `constructor` or `__proto__` never reach Object.prototype. */
export function ownValue(record: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(record, key) ? record[key] : undefined
}

/** Sets a key as an own data property; plain assignment to `__proto__` would change the prototype. */
export function setOwnValue(record: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true })
}

/** Resolves `#` and `#/json/pointer` against the root schema; anything else (remote, anchors) is undefined. */
export function resolveLocalReference(root: unknown, reference: string): unknown {
  if (reference === '#') return root
  if (!reference.startsWith('#/')) return undefined
  let target: unknown = root
  for (const encoded of reference.slice(2).split('/')) {
    let token: string
    try {
      token = decodeURIComponent(encoded)
    } catch {
      return undefined
    }
    token = token.replaceAll('~1', '/').replaceAll('~0', '~')
    if (Array.isArray(target)) {
      if (!/^(?:0|[1-9]\d*)$/.test(token)) return undefined
      target = target[Number(token)]
    } else if (isRecord(target) && Object.hasOwn(target, token)) {
      target = target[token]
    } else {
      return undefined
    }
  }
  return target
}

/** The type names a schema's own `type` keyword gives; empty when absent or unusable. */
function declaredTypes(schema: Record<string, unknown>): string[] {
  const type = ownValue(schema, 'type')
  if (typeof type === 'string') return [type]
  if (Array.isArray(type)) return type.filter((entry): entry is string => typeof entry === 'string')
  return []
}

function unionMembers(schema: Record<string, unknown>): unknown[] {
  const anyOf = ownValue(schema, 'anyOf')
  const oneOf = ownValue(schema, 'oneOf')
  return [...(Array.isArray(anyOf) ? anyOf : []), ...(Array.isArray(oneOf) ? oneOf : [])]
}

function localReference(schema: Record<string, unknown>): string | undefined {
  const reference = ownValue(schema, '$ref')
  return typeof reference === 'string' ? reference : undefined
}

function sortedUnique(values: string[]): string[] {
  return [...new Set(values)].sort(compareText)
}

/** Code-point order, so sorting never depends on the locale. */
export function compareText(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0
}

/**
 * The type signature of a (property) schema: `type` as given (arrays sorted); otherwise the
 * sorted union of `anyOf`/`oneOf` members; otherwise a local `$ref`'s target; otherwise null.
 */
export function typeSignature(schema: unknown, root: unknown): TypeSignature {
  return signatureOf(schema, root, new Set(), 0)
}

function signatureOf(schema: unknown, root: unknown, visited: Set<object>, depth: number): TypeSignature {
  if (!isRecord(schema) || depth > maximumDepth || visited.has(schema)) return null
  visited.add(schema)
  const type = ownValue(schema, 'type')
  if (typeof type === 'string') return type
  const types = declaredTypes(schema)
  if (types.length > 0) return sortedUnique(types)
  const members = unionMembers(schema)
  if (members.length > 0) {
    const names: string[] = []
    for (const member of members) {
      const signature = signatureOf(member, root, visited, depth + 1)
      if (typeof signature === 'string') names.push(signature)
      else if (signature !== null) names.push(...signature)
    }
    return names.length > 0 ? sortedUnique(names) : null
  }
  const reference = localReference(schema)
  if (reference !== undefined) {
    return signatureOf(resolveLocalReference(root, reference), root, visited, depth + 1)
  }
  return null
}

/**
 * Every JSON type a schema admits, found the same way as typeSignature, each with the subschema
 * that declared it so callers can read its `items`. Each subschema is visited once, which bounds
 * the walk even for self-referencing unions.
 */
export function typeCandidates(schema: unknown, root: unknown): TypeCandidate[] {
  const candidates: TypeCandidate[] = []
  collectCandidates(schema, root, new Set(), 0, candidates)
  return candidates
}

function collectCandidates(
  schema: unknown,
  root: unknown,
  visited: Set<object>,
  depth: number,
  candidates: TypeCandidate[],
): void {
  if (!isRecord(schema) || depth > maximumDepth || visited.has(schema)) return
  visited.add(schema)
  const types = declaredTypes(schema)
  if (types.length > 0) {
    for (const type of types) candidates.push({ type, schema })
    return
  }
  const members = unionMembers(schema)
  if (members.length > 0) {
    for (const member of members) collectCandidates(member, root, visited, depth + 1, candidates)
    return
  }
  const reference = localReference(schema)
  if (reference !== undefined) {
    collectCandidates(resolveLocalReference(root, reference), root, visited, depth + 1, candidates)
  }
}

/**
 * JSON text with object keys sorted at every level, for comparisons and cache keys that must not
 * depend on key order. Follows JSON.stringify for undefined, functions and non-finite numbers;
 * a cycle (possible in objects built in code) becomes the string "[Circular]" instead of throwing.
 */
export function canonicalJson(value: unknown): string {
  return canonicalText(value, new Set()) ?? 'null'
}

function canonicalText(value: unknown, ancestors: Set<object>): string | undefined {
  if (value === null) return 'null'
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return JSON.stringify(value)
    case 'number':
      return Number.isFinite(value) ? JSON.stringify(value) : 'null'
    case 'bigint':
      return value.toString()
    case 'object':
      break
    default:
      return undefined
  }
  if (ancestors.has(value)) return '"[Circular]"'
  ancestors.add(value)
  let text: string
  if (Array.isArray(value)) {
    text = `[${value.map((element) => canonicalText(element, ancestors) ?? 'null').join(',')}]`
  } else {
    const record = value as Record<string, unknown>
    const entries: string[] = []
    for (const key of Object.keys(record).sort(compareText)) {
      const entry = canonicalText(record[key], ancestors)
      if (entry !== undefined) entries.push(`${JSON.stringify(key)}:${entry}`)
    }
    text = `{${entries.join(',')}}`
  }
  ancestors.delete(value)
  return text
}
