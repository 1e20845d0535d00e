// A tool's inputSchema and where each argument goes. Parameters are arguments by their names
// (a name two locations share gets `_<location>` on the later one); the request body's
// properties are arguments too when the body is a plain object whose names collide with none of
// them ("flattened"), else the body is one argument, `body`. Arguments the document does not
// describe are refused, unless a flattened body declares `additionalProperties` (then they go in
// the body).

import { deepFreeze, type JsonSchema } from '../schema/json-schema.js'
import type { Operation, Parameter } from './operations.js'

export interface ArgumentPlan {
  parameters: Array<{ argument: string; parameter: Parameter }>
  /** `flat`: these arguments (and any undeclared ones, when allowed) make the body object. */
  body:
    | { kind: 'flat'; properties: string[]; rest: boolean }
    | { kind: 'whole'; argument: string }
    | undefined
}

const combinators = ['allOf', 'anyOf', 'oneOf', 'not', 'if', 'patternProperties', 'dependentSchemas']

function isPlainObject(
  schema: JsonSchema,
): schema is JsonSchema & { properties: Record<string, JsonSchema> } {
  const type = schema.type
  const objectType = type === 'object' || (type === undefined && typeof schema.properties === 'object')
  return (
    objectType &&
    typeof schema.properties === 'object' &&
    schema.properties !== null &&
    !combinators.some((key) => key in schema)
  )
}

export function inputOf(operation: Operation): { schema: JsonSchema; plan: ArgumentPlan } {
  const properties: Record<string, JsonSchema> = {}
  const required: string[] = []
  const plan: ArgumentPlan = { parameters: [], body: undefined }
  for (const parameter of operation.parameters) {
    const argument = parameter.name in properties ? `${parameter.name}_${parameter.in}` : parameter.name
    properties[argument] = parameter.schema
    if (parameter.required) required.push(argument)
    plan.parameters.push({ argument, parameter })
  }
  let additional: unknown = false
  const body = operation.body
  if (body !== undefined) {
    const schema = body.schema
    const names = isPlainObject(schema) ? Object.keys(schema.properties) : undefined
    if (names !== undefined && isPlainObject(schema) && names.every((name) => !(name in properties))) {
      Object.assign(properties, schema.properties)
      // A body the operation may leave out makes its required properties optional.
      if (body.required && Array.isArray(schema.required)) required.push(...(schema.required as string[]))
      const rest = schema.additionalProperties !== undefined && schema.additionalProperties !== false
      if (rest) additional = schema.additionalProperties
      plan.body = { kind: 'flat', properties: names, rest }
    } else {
      const argument = 'body' in properties ? 'requestBody' : 'body'
      properties[argument] = schema
      if (body.required) required.push(argument)
      plan.body = { kind: 'whole', argument }
    }
  }
  const inputSchema: JsonSchema = { type: 'object', properties, additionalProperties: additional }
  if (required.length > 0) inputSchema.required = [...new Set(required)]
  // Frozen, as the converted schemas in it are: the registry keeps it without a copy.
  return { schema: deepFreeze(inputSchema), plan }
}
