// The checks a registration passes: names, texts, cache hints and schemas (copied, frozen and
// compiled once), each failing with ServerError 'invalid_definition' naming the definition.

import { SchemaError, validateArguments } from '@mcp-kit/schema'
import { ServerError } from '../errors.js'
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

export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value)
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key])
  }
  return value
}

/**
 * Copies and freezes a tool schema and compiles it once (the compiled validator is cached by the
 * frozen copy's identity, so later mutation of the caller's object cannot desynchronize them).
 */
export function prepareSchema(owner: string, field: string, schema: unknown): JsonSchema {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    refuse(`${owner}: ${field} must be a JSON Schema object`)
  }
  if ((schema as JsonSchema).type !== 'object') {
    refuse(`${owner}: ${field} must have "type": "object" (MCP requires object arguments and results)`)
  }
  let copy: JsonSchema
  try {
    copy = deepFreeze(structuredClone(schema as JsonSchema))
  } catch (error) {
    refuse(`${owner}: ${field} must be plain JSON (${(error as Error).message})`, error)
  }
  try {
    validateArguments({}, copy)
  } catch (error) {
    if (SchemaError.isInstance(error)) refuse(`${owner}: invalid ${field}: ${error.message}`, error)
    throw error
  }
  return copy
}

/** A schema passed on as it is (a gateway's upstream checks it): a frozen copy of plain JSON. */
export function plainSchema(owner: string, field: string, schema: unknown): JsonSchema {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    refuse(`${owner}: ${field} must be a JSON Schema object`)
  }
  try {
    return deepFreeze(structuredClone(schema as JsonSchema))
  } catch (error) {
    refuse(`${owner}: ${field} must be plain JSON (${(error as Error).message})`, error)
  }
}

export const emptyInputSchema: JsonSchema = deepFreeze({ type: 'object', properties: {} })
