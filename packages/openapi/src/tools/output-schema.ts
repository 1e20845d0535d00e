// A tool's outputSchema, from the operation's success responses: the JSON schema of the first
// 2xx answer, as it is when it describes an object, else wrapped as `{ result }` (MCP results are
// objects). None when a success may come without JSON (a 204 beside a 200), since every result
// would then have to match it.

import { sealJson } from '@mcp-kit/server/internal'
import { compactSchema } from '../schema/compact-schema.js'
import { deepFreeze, type JsonSchema, toJsonSchema } from '../schema/json-schema.js'
import type { Operation } from './operations.js'

export type OutputShape = 'object' | 'wrapped' | 'none'

/**
 * Which output schemas tools declare: `full` as the document says, `compact` without the
 * descriptions and examples below the top level, `none` at all.
 */
export type OutputSchemaMode = 'full' | 'compact' | 'none'

const jsonMedia = /^application\/(?:[\w.+-]+\+)?json\b/i

function jsonSchemaOf(response: Record<string, unknown>): unknown | undefined {
  const content = response.content
  if (typeof content !== 'object' || content === null) return undefined
  const entry = Object.entries(content).find(([type]) => jsonMedia.test(type))
  const media = entry?.[1] as { schema?: unknown } | undefined
  return media === undefined ? undefined : (media.schema ?? {})
}

/** True when every value the schema allows is an object (`allOf` with an object, `anyOf` of objects…). */
function describesObject(schema: unknown): boolean {
  if (typeof schema !== 'object' || schema === null) return false
  const { type, properties, additionalProperties, allOf, anyOf, oneOf } = schema as JsonSchema
  if (type !== undefined) return type === 'object'
  if (Array.isArray(allOf) && allOf.some(describesObject)) return true
  for (const choices of [anyOf, oneOf]) {
    if (Array.isArray(choices) && choices.length > 0 && choices.every(describesObject)) return true
  }
  return typeof properties === 'object' || typeof additionalProperties === 'object'
}

/**
 * What a tool declares of its answers (`schema`, per the mode), and the document's schema of a
 * success answer with how an answer becomes a result (`answers`, converted at the first call at
 * the latest: answers are checked against it, and results are the same, in every mode).
 */
export interface Output {
  schema: JsonSchema | undefined
  answers: () => { schema: JsonSchema | undefined; shape: OutputShape }
}

/**
 * The output of an operation's tool. Without declared schemas (`none`), nothing is converted
 * until the first call asks what an answer should be.
 */
export function outputOf(operation: Operation, mode: OutputSchemaMode = 'full'): Output {
  const source = successSchema(operation)
  if (mode === 'none') {
    let converted: ReturnType<typeof fromSuccessSchema> | undefined
    return { schema: undefined, answers: () => (converted ??= fromSuccessSchema(source)) }
  }
  const output = fromSuccessSchema(source)
  const schema =
    mode === 'compact' && output.schema !== undefined ? compactSchema(output.schema) : output.schema
  return { schema, answers: () => output }
}
/** The JSON schema of the first 2xx answer; null when there is none, or a success without JSON. */
function successSchema(operation: Operation): unknown {
  const codes = Object.keys(operation.responses)
    .filter((code) => /^2(\d\d|XX)$/i.test(code))
    .sort()
  const schemas = codes.map((code) => jsonSchemaOf(operation.responses[code] ?? {}))
  const first = schemas[0]
  return first === undefined || schemas.some((schema) => schema === undefined) ? null : first
}

function fromSuccessSchema(source: unknown): { schema: JsonSchema | undefined; shape: OutputShape } {
  if (source === null) return { schema: undefined, shape: 'none' }
  const schema = toJsonSchema(source, 'response')
  // "Any JSON": nothing to promise; an object answer is still the structured result.
  if (Object.keys(schema).length === 0) return { schema: undefined, shape: 'none' }
  if (describesObject(schema)) return { schema: sealJson({ ...schema, type: 'object' }), shape: 'object' }
  return {
    schema: deepFreeze({ type: 'object', properties: { result: schema }, required: ['result'] }),
    shape: 'wrapped',
  }
}
