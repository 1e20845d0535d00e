// Standard Schema validators (zod, valibot, arktype: anything with `~standard`) as a tool's
// schemas. Clients see, and ajv checks, the JSON Schema the validator gives (Standard JSON Schema,
// `~standard.jsonSchema`; else a `toJSONSchema` method, as zod's classic schemas have; else the
// registry's `toJsonSchema` option); then the validator itself runs, so refinements JSON Schema
// cannot say are enforced and the handler gets the validator's output (defaults, transforms).

import type { StandardSchemaV1 } from '@standard-schema/spec'
import type { HandlerContext } from '../context.js'
import { ServerError } from '../errors.js'
import { refuse } from './checks.js'
import type { JsonSchema, StandardSchema } from './schema-types.js'
import type { ToolOutput } from './tool-types.js'

type Converter = (validator: StandardSchema, io: 'input' | 'output') => JsonSchema

const target = 'draft-2020-12'

/** True for a Standard Schema validator (arktype's are functions). */
export function isStandardSchema(value: unknown): value is StandardSchema {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return false
  const standard = (value as { '~standard'?: unknown })['~standard']
  return typeof standard === 'object' && standard !== null
}

function vendorOf(validator: StandardSchema): string {
  const vendor = validator['~standard'].vendor
  return typeof vendor === 'string' && vendor !== '' ? vendor : 'Standard Schema'
}

/**
 * The JSON Schema of a validator: of what it accepts (`input`, for an inputSchema) or of what it
 * gives (`output`, for an outputSchema). Refuses the registration when none can be had.
 */
export function validatorJsonSchema(
  owner: string,
  field: string,
  validator: StandardSchema,
  io: 'input' | 'output',
  convert: Converter | undefined,
): unknown {
  const vendor = vendorOf(validator)
  const standard = validator['~standard'] as { jsonSchema?: Partial<Record<typeof io, unknown>> }
  const fromStandard = standard.jsonSchema?.[io]
  const method = (validator as { toJSONSchema?: unknown }).toJSONSchema
  try {
    if (typeof fromStandard === 'function') return fromStandard({ target })
    if (typeof method === 'function') return method.call(validator, { target, io })
    if (convert !== undefined) return convert(validator, io)
  } catch (error) {
    refuse(
      `${owner}: ${field}: ${vendor} cannot give its JSON Schema: ${(error as Error)?.message ?? String(error)}`,
      error,
    )
  }
  return refuse(
    `${owner}: ${field} is a ${vendor} validator without a JSON Schema, which clients need: use a version ` +
      `that implements Standard JSON Schema (~standard.jsonSchema; zod 4.2 or later), or give ` +
      'createToolRegistry a toJsonSchema option',
  )
}

function issuePath(issue: StandardSchemaV1.Issue): string {
  const path = (issue.path ?? []).map((segment) =>
    String(typeof segment === 'object' && segment !== null ? segment.key : segment),
  )
  return path.length === 0 ? issue.message : `${path.join('.')}: ${issue.message}`
}

type Handler = (args: Record<string, unknown>, context: HandlerContext) => ToolOutput | Promise<ToolOutput>

/**
 * The handler behind a validator: arguments that passed the JSON Schema are run through the
 * validator, and its output is what the handler gets; issues are invalid arguments, named.
 */
export function validatedHandler(owner: string, validator: StandardSchema, handler: Handler): Handler {
  const validate = (validator['~standard'] as Partial<StandardSchemaV1.Props>).validate
  if (typeof validate !== 'function') return handler
  return async (args, context) => {
    const result = await validate(args)
    if (result.issues !== undefined) {
      const problems = result.issues.map(issuePath)
      throw new ServerError('invalid_arguments', `Invalid arguments for ${owner}:\n${problems.join('\n')}`, {
        details: { problems },
      })
    }
    return handler(result.value as Record<string, unknown>, context)
  }
}
