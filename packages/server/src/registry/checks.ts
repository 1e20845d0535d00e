// The checks a registration passes: names, texts, cache hints and schemas (kept frozen, copied
// unless deeply frozen already, their common mistakes found), each failing with ServerError
// 'invalid_definition' naming the definition. The runtime compiles schemas at a tool's first call.

import { ServerError } from '../errors.js'
import { schemaMistake } from './schema-keywords.js'
import type { JsonSchema } from './schema-types.js'
import type { CacheHint } from './types.js'

export const namePattern = /^[A-Za-z0-9_.-]{1,128}$/
export const uriPattern = /^[A-Za-z][A-Za-z0-9+.-]*:/
export function refuse(message: string, cause?: unknown): never {
  throw new ServerError('invalid_definition', message, { cause })
}

export function checkName(kind: string, name: unknown): asserts name is string {
  if (typeof name !== 'string' || !namePattern.test(name)) {
    refuse(`invalid ${kind} name ${JSON.stringify(name)}: use 1-128 letters, digits, '_', '-' or '.'`)
  }
}

export function checkText(owner: string, field: string, value: unknown): void {
  if (value !== undefined && typeof value !== 'string') refuse(`${owner}: ${field} must be a string`)
}

export const defaultListHint: CacheHint = Object.freeze({ ttlMs: 60_000, scope: 'public' })

export function checkHint(owner: string, hint: Partial<CacheHint> | undefined): void {
  if (hint === undefined) return
  checkTtl(owner, hint.ttlMs)
  checkScope(owner, hint.scope)
}

export function checkScope(owner: string, scope: unknown): void {
  if (scope !== undefined && scope !== 'public' && scope !== 'private') {
    refuse(`${owner}: cacheScope must be 'public' or 'private'`)
  }
}

export function checkTtl(owner: string, ttlMs: unknown): void {
  if (ttlMs !== undefined && !(typeof ttlMs === 'number' && Number.isFinite(ttlMs) && ttlMs >= 0)) {
    refuse(`${owner}: ttlMs must be a number of milliseconds >= 0`)
  }
}

// Trees known to be deeply frozen plain JSON: a schema shared by many tools (an OpenAPI
// component) is walked once, and a tool whose schema is such a tree keeps it without a copy.
const frozenTrees = new WeakSet<object>()

/** Freezes every object in `value`; refuses a value that contains itself (not JSON). */
export function deepFreeze<T>(value: T, ancestors = new Set<object>()): T {
  if (typeof value !== 'object' || value === null || frozenTrees.has(value)) return value
  if (ancestors.has(value)) throw new TypeError('it contains itself')
  ancestors.add(value)
  Object.freeze(value)
  for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key], ancestors)
  ancestors.delete(value)
  frozenTrees.add(value)
  return value
}

function isJsonLeaf(value: unknown): boolean {
  return typeof value !== 'function' && typeof value !== 'symbol' && typeof value !== 'bigint'
}

/**
 * Freezes `value` and, when its own values are JSON leaves or objects sealed already, remembers it
 * as deeply frozen plain JSON. For producers that build large schemas bottom-up (an OpenAPI
 * document's): sealing each object as it is made costs nothing more, and registering the schemas
 * then walks none of them again to see that they are frozen.
 */
export function sealJson<T extends object>(value: T): T {
  Object.freeze(value)
  if (frozenTrees.has(value)) return value
  const prototype = Object.getPrototypeOf(value)
  if (prototype !== Object.prototype && prototype !== Array.prototype && prototype !== null) return value
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue
    const item = (value as Record<string, unknown>)[key]
    if (typeof item === 'object' && item !== null ? !frozenTrees.has(item) : !isJsonLeaf(item)) return value
  }
  frozenTrees.add(value)
  return value
}

/** True when every object in `value` is frozen and holds only JSON values (remembered per object). */
function isFrozenJson(value: unknown, ancestors: Set<object>): boolean {
  if (typeof value !== 'object' || value === null) return isJsonLeaf(value)
  if (frozenTrees.has(value)) return true
  if (!Object.isFrozen(value) || ancestors.has(value)) return false
  const prototype = Object.getPrototypeOf(value)
  if (prototype !== Object.prototype && prototype !== Array.prototype && prototype !== null) return false
  ancestors.add(value)
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue
    if (!isFrozenJson((value as Record<string, unknown>)[key], ancestors)) return false
  }
  ancestors.delete(value)
  frozenTrees.add(value)
  return true
}

/** A frozen schema of plain JSON: the caller's own when it is deeply frozen already, else a frozen copy. */
function frozenSchema(owner: string, field: string, schema: object): JsonSchema {
  if (isFrozenJson(schema, new Set())) return schema as JsonSchema
  try {
    return deepFreeze(structuredClone(schema as JsonSchema))
  } catch (error) {
    refuse(`${owner}: ${field} must be plain JSON (${(error as Error).message})`, error)
  }
}

/**
 * A tool schema as the registry keeps it: an object with `"type": "object"`, frozen (so the
 * validator compiled from it at the first call, cached by its identity, cannot go out of date),
 * without the mistakes schema-keywords.ts finds.
 */
export function prepareSchema(owner: string, field: string, schema: unknown): JsonSchema {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    refuse(`${owner}: ${field} must be a JSON Schema object`)
  }
  if ((schema as JsonSchema).type !== 'object') {
    refuse(`${owner}: ${field} must have "type": "object" (MCP requires object arguments and results)`)
  }
  const frozen = frozenSchema(owner, field, schema)
  const mistake = schemaMistake(frozen)
  if (mistake !== undefined) refuse(`${owner}: invalid ${field}: ${mistake}`)
  return frozen
}

/** A schema passed on as it is (a gateway's upstream checks it): frozen plain JSON. */
export function plainSchema(owner: string, field: string, schema: unknown): JsonSchema {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    refuse(`${owner}: ${field} must be a JSON Schema object`)
  }
  return frozenSchema(owner, field, schema)
}

export const emptyInputSchema: JsonSchema = deepFreeze({ type: 'object', properties: {} })
