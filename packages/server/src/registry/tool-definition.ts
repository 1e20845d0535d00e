// What registering a tool checks and keeps: its name, texts, scopes and task settings; its schemas
// as frozen JSON Schema (a validator's obtained from it: standard-schema.ts), compiled by the
// runtime at the tool's first call; and the handler, behind the validator when the inputSchema is one.

import { checkName, checkText, emptyInputSchema, plainSchema, prepareSchema, refuse } from './checks.js'
import type { JsonSchema } from './schema-types.js'
import { isStandardSchema, validatedHandler, validatorJsonSchema } from './standard-schema.js'
import type { ToolDefinition } from './tool-types.js'
import type { ToolRegistryOptions } from './types.js'

const scopePattern = /^[\x21\x23-\x5b\x5d-\x7e]+$/

/** Checks a tool definition and returns what the registry keeps (frozen), or refuses it. */
export function prepareTool(
  definition: unknown,
  convert: ToolRegistryOptions['toJsonSchema'],
): Readonly<ToolDefinition> {
  const candidate = definition as ToolDefinition
  checkName('tool', candidate?.name)
  const owner = `tool '${candidate.name}'`
  if (typeof candidate.handler !== 'function') refuse(`${owner} needs a handler function`)
  checkText(owner, 'title', candidate.title)
  checkText(owner, 'description', candidate.description)
  if (
    candidate.scopes !== undefined &&
    (!Array.isArray(candidate.scopes) ||
      candidate.scopes.some((scope) => typeof scope !== 'string' || !scopePattern.test(scope)))
  ) {
    refuse(`${owner}: scopes must be a list of OAuth scope names`)
  }
  if (
    candidate.taskSupport !== undefined &&
    !['forbidden', 'optional', 'required'].includes(candidate.taskSupport)
  ) {
    refuse(`${owner}: taskSupport must be 'forbidden', 'optional' or 'required'`)
  }
  const start = candidate.taskStart
  if (
    start !== undefined &&
    start !== 'call' &&
    start !== 'handler' &&
    !(typeof start === 'number' && Number.isFinite(start) && start >= 0)
  ) {
    refuse(`${owner}: taskStart must be 'call', 'handler' or a number of milliseconds >= 0`)
  }
  const passthrough = candidate.passthrough === true
  const schema = (field: 'inputSchema' | 'outputSchema', value: unknown): JsonSchema => {
    const json = isStandardSchema(value)
      ? validatorJsonSchema(owner, field, value, field === 'inputSchema' ? 'input' : 'output', convert)
      : value
    return (passthrough ? plainSchema : prepareSchema)(owner, field, json)
  }
  const input: unknown = candidate.inputSchema
  const inputSchema = input === undefined ? emptyInputSchema : schema('inputSchema', input)
  const outputSchema =
    candidate.outputSchema === undefined ? undefined : schema('outputSchema', candidate.outputSchema)
  const handler =
    isStandardSchema(input) && !passthrough
      ? validatedHandler(owner, input, candidate.handler)
      : candidate.handler
  return Object.freeze({ ...candidate, inputSchema, outputSchema, handler })
}
