// Validates tool arguments against an inputSchema with ajv before a call, and words every
// problem in plain English with its parameter path (docs/architecture.md "Server references").
// ajv is loaded on first use, not on import: the CLI imports this package on every start-up
// and most commands never validate.

import { createRequire } from 'node:module'
import { isRecord } from '@mcp-kit/core'
import type { ValidateFunction } from 'ajv'
import { SchemaError } from './errors.js'
import { canonicalJson, ownValue } from './json-schema.js'
import { type ArgumentProblem, describeValue, problemsFrom, truncate } from './problems.js'

export type { ArgumentProblem } from './problems.js'

export type ValidationResult = { ok: true } | { ok: false; errors: ArgumentProblem[] }

export interface ValidatorCacheStats {
  /** How many schemas have been compiled since the process started. */
  compilations: number
  /** How many compiled validators the bounded cache holds now. */
  cachedValidators: number
}

type Dialect = 'draft-07' | '2019-09' | '2020-12'

// The little of ajv's class this module uses; ajv's own default-export typing does not survive
// being required from ESM.
interface AjvInstance {
  compile(schema: unknown): ValidateFunction
  removeSchema(schema: unknown): unknown
}
type AjvConstructor = new (options: Record<string, unknown>) => AjvInstance

interface CompiledValidator {
  validate: ValidateFunction
  ajv: AjvInstance
  /** The object ajv compiled and keeps in its own cache, needed to evict it there too. */
  compiledSchema: unknown
}

const require = createRequire(import.meta.url)
const ajvModules: Record<Dialect, string> = {
  'draft-07': 'ajv',
  '2019-09': 'ajv/dist/2019',
  '2020-12': 'ajv/dist/2020',
}
const ajvInstances = new Map<Dialect, AjvInstance>()

// Identity first (free for a caller that validates many calls against one tool), then equal
// content (a fresh tools/list gives new objects for the same schemas). The content cache is
// bounded because servers can list many tools and ajv keeps every compiled schema alive.
const validatorsBySchema = new WeakMap<object, CompiledValidator>()
const validatorsByText = new Map<string, CompiledValidator>()
const maximumCachedValidators = 500
let compilations = 0

const maximumReasonLength = 500

/**
 * Checks arguments against a tool's inputSchema and lists every problem. Throws SchemaError
 * `invalid_schema` when the schema itself cannot be compiled. A schema object is treated as
 * immutable once validated: its compiled validator is cached by identity.
 */
export function validateArguments(args: unknown, inputSchema: unknown): ValidationResult {
  const validate = validatorFor(inputSchema)
  let valid: unknown
  try {
    valid = validate(args)
  } catch (error) {
    // ajv compiles `{ "$ref": "#" }` and then recurses without end when validating.
    const reason = error instanceof Error ? error.message : String(error)
    throw new SchemaError('invalid_schema', `invalid input schema: validation did not finish: ${reason}`, {
      cause: error,
      details: { reason },
    })
  }
  if (valid === true) return { ok: true }
  return { ok: false, errors: problemsFrom(validate.errors ?? [], args, inputSchema) }
}

export function validatorCacheStats(): ValidatorCacheStats {
  return { compilations, cachedValidators: validatorsByText.size }
}

function validatorFor(schema: unknown): ValidateFunction {
  const identityKey = typeof schema === 'object' && schema !== null ? schema : undefined
  const known = identityKey === undefined ? undefined : validatorsBySchema.get(identityKey)
  if (known !== undefined) return known.validate
  if (!isRecord(schema) && typeof schema !== 'boolean') {
    throw new SchemaError(
      'invalid_schema',
      `invalid input schema: must be a JSON Schema object or boolean, got ${describeValue(schema)}`,
    )
  }
  let compiled: CompiledValidator
  try {
    compiled = validatorForText(schema)
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    throw new SchemaError(
      'invalid_schema',
      `invalid input schema: ${truncate(reason, maximumReasonLength)}`,
      {
        cause: error,
        details: { reason },
      },
    )
  }
  if (identityKey !== undefined) validatorsBySchema.set(identityKey, compiled)
  return compiled.validate
}

function validatorForText(schema: Record<string, unknown> | boolean): CompiledValidator {
  const text = canonicalJson(schema)
  const cached = validatorsByText.get(text)
  if (cached !== undefined) {
    // Re-inserting keeps the Map's insertion order a least-recently-used order.
    validatorsByText.delete(text)
    validatorsByText.set(text, cached)
    return cached
  }
  const ajv = ajvFor(dialectOf(schema))
  // `$schema` has chosen the dialect; ajv compiles the rest against that dialect's meta-schema.
  // Leaving it in would make ajv refuse drafts it has no meta-schema for (04, 06). `$async`
  // would make ajv return a promise, which is not how tool arguments are checked.
  let compiledSchema: unknown = schema
  if (typeof schema !== 'boolean' && (Object.hasOwn(schema, '$schema') || Object.hasOwn(schema, '$async'))) {
    const { $schema: _dialect, $async: _async, ...rest } = schema
    compiledSchema = rest
  }
  const validate = ajv.compile(compiledSchema)
  compilations += 1
  const entry = { validate, ajv, compiledSchema }
  validatorsByText.set(text, entry)
  if (validatorsByText.size > maximumCachedValidators) {
    const [oldestText, oldest] = validatorsByText.entries().next().value as [string, CompiledValidator]
    validatorsByText.delete(oldestText)
    forget(oldest)
  }
  return entry
}

// ajv keeps every compiled schema object in its own cache; drop it there too, so the bound holds.
// removeSchema also unregisters the schema's `$id`, which could be a meta-schema's id, so a schema
// with an id is left in ajv (a rare, small leak rather than a broken validator).
function forget(entry: CompiledValidator): void {
  const schema = entry.compiledSchema
  if (isRecord(schema) && !Object.hasOwn(schema, '$id') && !Object.hasOwn(schema, 'id')) {
    entry.ajv.removeSchema(schema)
  }
}

function dialectOf(schema: unknown): Dialect {
  const declared = isRecord(schema) ? ownValue(schema, '$schema') : undefined
  if (typeof declared !== 'string') return '2020-12'
  if (/draft-0[467]/.test(declared)) return 'draft-07'
  if (declared.includes('2019-09')) return '2019-09'
  return '2020-12'
}

function ajvFor(dialect: Dialect): AjvInstance {
  const existing = ajvInstances.get(dialect)
  if (existing !== undefined) return existing
  const { default: Ajv } = require(ajvModules[dialect]) as { default: AjvConstructor }
  const { default: addFormats } = require('ajv-formats') as { default: (ajv: AjvInstance) => unknown }
  const ajv = new Ajv({
    allErrors: true,
    strict: false,
    validateFormats: true,
    // Unknown formats would otherwise be reported with console.warn, on the CLI's stderr.
    logger: false,
    // Two servers may reuse one `$id`; schemas are cached here, not registered in ajv by id.
    addUsedSchema: false,
  })
  addFormats(ajv)
  ajvInstances.set(dialect, ajv)
  return ajv
}
