// server.json against the registry's JSON Schema, with ajv (draft-07, the registry's dialect; a
// 2020-12 schema is validated as such). Every failure, worded with the path it is at; the
// umbrella failures of `anyOf`/`allOf` are dropped when a more precise one explains them.

import { createRequire } from 'node:module'
import { RegistryError } from '../errors.js'

export interface SchemaProblem {
  /** JSON pointer of the value (`/packages/0/version`). */
  pointer: string
  message: string
}

interface AjvError {
  instancePath: string
  keyword: string
  message?: string
  params: Record<string, unknown>
}
type Validate = ((value: unknown) => boolean) & { errors?: AjvError[] | null }
interface AjvInstance {
  compile(schema: unknown): Validate
}
type AjvConstructor = new (options: Record<string, unknown>) => AjvInstance

const require = createRequire(import.meta.url)
const compiled = new WeakMap<object, Validate>()

function validatorFor(schema: Record<string, unknown>): Validate {
  const known = compiled.get(schema)
  if (known !== undefined) return known
  const dialect = String(schema.$schema ?? '')
  const module = dialect.includes('2020-12')
    ? 'ajv/dist/2020'
    : dialect.includes('2019-09')
      ? 'ajv/dist/2019'
      : 'ajv'
  const loaded = require(module) as { default?: AjvConstructor } & AjvConstructor
  const Ajv = loaded.default ?? loaded
  const formats = require('ajv-formats') as { default?: (ajv: AjvInstance) => void } & ((
    ajv: AjvInstance,
  ) => void)
  // strict: false — the registry's schema carries `example` and other annotations ajv does not know.
  const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: true })
  ;(formats.default ?? formats)(ajv)
  let validate: Validate
  try {
    validate = ajv.compile(schema)
  } catch (error) {
    throw new RegistryError(
      'registry_invalid',
      `the server.json schema does not compile: ${(error as Error).message}`,
      {
        cause: error,
      },
    )
  }
  compiled.set(schema, validate)
  return validate
}

function wording(error: AjvError): string {
  switch (error.keyword) {
    case 'required':
      return `'${String(error.params.missingProperty)}' is required`
    case 'additionalProperties':
      return `'${String(error.params.additionalProperty)}' is not a field here`
    case 'enum':
      return `must be one of ${(error.params.allowedValues as unknown[]).map((value) => JSON.stringify(value)).join(', ')}`
    case 'maxLength':
      return `is longer than ${String(error.params.limit)} characters`
    case 'pattern':
      return `does not match ${String(error.params.pattern)}`
    case 'not':
      return 'has a value that is not allowed here'
    default:
      return error.message ?? error.keyword
  }
}

/** The schema's complaints about `value`, most precise first, one per path and message. */
export function checkAgainstSchema(value: unknown, schema: Record<string, unknown>): SchemaProblem[] {
  const validate = validatorFor(schema)
  if (validate(value)) return []
  const errors = validate.errors ?? []
  const umbrella = new Set(['anyOf', 'allOf', 'oneOf', 'if', 'then', 'else', '$ref'])
  const precise = errors.filter((error) => !umbrella.has(error.keyword))
  const chosen = precise.length > 0 ? precise : errors
  const seen = new Set<string>()
  const problems: SchemaProblem[] = []
  for (const error of chosen) {
    const message = wording(error)
    const key = `${error.instancePath} ${message}`
    if (seen.has(key)) continue
    seen.add(key)
    problems.push({ pointer: error.instancePath, message })
  }
  return problems
}
