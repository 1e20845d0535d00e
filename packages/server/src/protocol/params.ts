// Checks of request params, one per method, so a malformed request gets -32602 with a one-line
// reason instead of a library's multi-line dump or an internal error. Nesting is bounded first:
// a body of a million nested arrays is refused here instead of overflowing a recursive walk
// (ajv, JSON.stringify in a trace) later.

import { isRecord } from '@mcp-kit/core'
import type { LoggingLevel } from '../context.js'
import { invalidParams } from './rpc.js'

export const maximumNesting = 128

function kind(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  return typeof value
}

/** Refuses values nested deeper than `maximumNesting` (iterative: cannot overflow the stack itself). */
export function checkNesting(value: unknown): void {
  if (typeof value !== 'object' || value === null) return
  const stack: Array<{ value: object; depth: number }> = [{ value, depth: 1 }]
  while (stack.length > 0) {
    const { value: current, depth } = stack.pop() as { value: object; depth: number }
    if (depth > maximumNesting) throw invalidParams(`values may nest at most ${maximumNesting} levels deep`)
    const children = Array.isArray(current) ? current : Object.values(current)
    for (const child of children) {
      if (typeof child === 'object' && child !== null) stack.push({ value: child, depth: depth + 1 })
    }
  }
}

export function paramsObject(params: unknown): Record<string, unknown> {
  if (params === undefined) return {}
  if (!isRecord(params)) throw invalidParams(`params must be an object (got ${kind(params)})`)
  const meta = params._meta
  if (meta !== undefined) {
    if (!isRecord(meta)) throw invalidParams(`'_meta' must be an object (got ${kind(meta)})`)
    const token = meta.progressToken
    if (
      token !== undefined &&
      typeof token !== 'string' &&
      !(typeof token === 'number' && Number.isInteger(token))
    ) {
      throw invalidParams(`'_meta.progressToken' must be a string or an integer (got ${kind(token)})`)
    }
  }
  return params
}

export function requiredString(params: Record<string, unknown>, field: string): string {
  const value = params[field]
  if (typeof value !== 'string') {
    throw invalidParams(
      value === undefined ? `'${field}' is required` : `'${field}' must be a string (got ${kind(value)})`,
    )
  }
  return value
}

export function optionalObject(
  params: Record<string, unknown>,
  field: string,
): Record<string, unknown> | undefined {
  const value = params[field]
  if (value === undefined) return undefined
  if (!isRecord(value)) throw invalidParams(`'${field}' must be an object (got ${kind(value)})`)
  return value
}

export function optionalCursor(params: Record<string, unknown>): string | undefined {
  const cursor = params.cursor
  if (cursor !== undefined && typeof cursor !== 'string')
    throw invalidParams(`'cursor' must be a string (got ${kind(cursor)})`)
  return cursor
}

export interface CallToolParams {
  name: string
  arguments: Record<string, unknown>
}

export function callToolParams(params: Record<string, unknown>): CallToolParams {
  return { name: requiredString(params, 'name'), arguments: optionalObject(params, 'arguments') ?? {} }
}

export interface GetPromptParams {
  name: string
  arguments: Record<string, string>
}

export function getPromptParams(params: Record<string, unknown>): GetPromptParams {
  const name = requiredString(params, 'name')
  const args = optionalObject(params, 'arguments') ?? {}
  for (const [key, value] of Object.entries(args)) {
    if (typeof value !== 'string')
      throw invalidParams(`'arguments.${key}' must be a string (got ${kind(value)})`)
  }
  return { name, arguments: args as Record<string, string> }
}

export type CompletionReference = { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string }

export interface CompleteParams {
  ref: CompletionReference
  argument: { name: string; value: string }
  contextArguments: Record<string, string>
}

export function completeParams(params: Record<string, unknown>): CompleteParams {
  const ref = optionalObject(params, 'ref')
  if (ref === undefined) throw invalidParams("'ref' is required")
  let reference: CompletionReference
  if (ref.type === 'ref/prompt') reference = { type: 'ref/prompt', name: requiredString(ref, 'name') }
  else if (ref.type === 'ref/resource') reference = { type: 'ref/resource', uri: requiredString(ref, 'uri') }
  else throw invalidParams("'ref.type' must be 'ref/prompt' or 'ref/resource'")
  const argument = optionalObject(params, 'argument')
  if (argument === undefined) throw invalidParams("'argument' is required")
  const contextArguments = optionalObject(optionalObject(params, 'context') ?? {}, 'arguments') ?? {}
  for (const [key, value] of Object.entries(contextArguments)) {
    if (typeof value !== 'string')
      throw invalidParams(`'context.arguments.${key}' must be a string (got ${kind(value)})`)
  }
  return {
    ref: reference,
    argument: { name: requiredString(argument, 'name'), value: requiredString(argument, 'value') },
    contextArguments: contextArguments as Record<string, string>,
  }
}

export const loggingLevels: readonly LoggingLevel[] = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
]
const levelSet = new Set<string>(loggingLevels)

export function isLoggingLevel(value: unknown): value is LoggingLevel {
  return typeof value === 'string' && levelSet.has(value)
}

export function loggingLevel(value: unknown, field: string): LoggingLevel {
  if (!isLoggingLevel(value)) {
    throw invalidParams(`'${field}' must be one of ${loggingLevels.join(', ')}`)
  }
  return value
}

/** Severity order of logging levels (debug lowest). */
export const severity: Record<LoggingLevel, number> = {
  debug: 0,
  info: 1,
  notice: 2,
  warning: 3,
  error: 4,
  critical: 5,
  alert: 6,
  emergency: 7,
}
