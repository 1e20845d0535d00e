// A collection against the package's JSON Schema (collection.schema.json, draft 2020-12) with
// ajv, loaded on first use. ajv reports a failure several ways at once (each branch of a `oneOf`,
// the umbrella that joins them); this keeps the ones a person can act on, worded with the field.

import { createRequire } from 'node:module'

export interface SchemaProblem {
  /** Path segments of the value (`['steps', 2, 'expect']`). */
  path: Array<string | number>
  /** A field the problem is about (an unknown or a missing one), reported at its key when it exists. */
  key?: string
  message: string
}

interface AjvError {
  instancePath: string
  schemaPath: string
  keyword: string
  message?: string
  params: Record<string, unknown>
}
type Validate = ((value: unknown) => boolean) & { errors?: AjvError[] | null }

const require = createRequire(import.meta.url)
let validator: Validate | undefined

/** The collection file's JSON Schema, as the package ships it. */
export function collectionSchema(): Record<string, unknown> {
  return require('../../collection.schema.json') as Record<string, unknown>
}

function validate(): Validate {
  if (validator !== undefined) return validator
  const loaded = require('ajv/dist/2020') as { default?: new (options: object) => unknown }
  const Ajv = (loaded.default ?? loaded) as new (options: object) => { compile(schema: unknown): Validate }
  const formats = require('ajv-formats') as { default?: (ajv: unknown) => void } & ((ajv: unknown) => void)
  const ajv = new Ajv({ allErrors: true, strict: false, logger: false })
  ;(formats.default ?? formats)(ajv)
  validator = ajv.compile(collectionSchema())
  return validator
}

function segments(pointer: string): Array<string | number> {
  if (pointer === '') return []
  return pointer
    .slice(1)
    .split('/')
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((segment) => (/^(?:0|[1-9][0-9]*)$/.test(segment) ? Number(segment) : segment))
}

const stepKinds = ['call', 'read', 'prompt', 'list']

function wording(error: AjvError, value: unknown): Omit<SchemaProblem, 'path'> {
  if (/\/(timeout|maxLatency)$/.test(error.instancePath)) {
    return { message: 'is not a duration: give seconds (5, 0.5) or a number with a unit (250ms, 5s, 2m, 1h)' }
  }
  switch (error.keyword) {
    case 'required':
      return {
        key: String(error.params.missingProperty),
        message: `'${String(error.params.missingProperty)}' is required`,
      }
    case 'additionalProperties': {
      const key = String(error.params.additionalProperty)
      return { key, message: `'${key}' is not a field here${suggestion(key, error)}` }
    }
    case 'enum':
      return {
        message: `must be one of ${(error.params.allowedValues as unknown[]).map((item) => JSON.stringify(item)).join(', ')}`,
      }
    case 'pattern':
      return error.schemaPath.includes('serverName') || error.schemaPath.includes('variableName')
        ? {
            message: `${JSON.stringify(value)} is not a usable name (letters, digits, _ and, for servers, . and -)`,
          }
        : { message: `does not match ${String(error.params.pattern)}` }
    case 'propertyNames':
      return {
        message: `${JSON.stringify(String(error.params.propertyName))} is not a usable name (a letter or _ first, then letters, digits and _${error.instancePath === '/servers' ? '; for servers also . and -' : ''})`,
      }
    case 'minItems':
      return { message: 'must not be empty' }
    case 'minProperties':
      return { message: 'must not be empty' }
    default:
      return { message: error.message ?? error.keyword }
  }
}

/** Which definition of the schema describes the object at an instance path. */
const definitionsByPath: Array<[RegExp, string]> = [
  [/^\/steps\/\d+$/, 'step'],
  [/^\/steps\/\d+\/expect$/, 'expect'],
  [/^\/steps\/\d+\/expect\/json\/\d+$/, 'jsonAssertion'],
]

function knownFields(instancePath: string): string[] {
  if (instancePath === '') return Object.keys((collectionSchema().properties ?? {}) as object)
  const definition = definitionsByPath.find(([pattern]) => pattern.test(instancePath))?.[1]
  const definitions = collectionSchema().$defs as Record<string, { properties?: object }>
  return definition === undefined ? [] : Object.keys(definitions[definition]?.properties ?? {})
}

/** `; did you mean 'equals'?` for a near miss of a known field. */
function suggestion(key: string, error: AjvError): string {
  const known = knownFields(error.instancePath)
  const lower = key.toLowerCase()
  const close = known.find(
    (name) =>
      name.toLowerCase() === lower || distance(name.toLowerCase(), lower) <= Math.max(1, name.length / 4),
  )
  return close === undefined ? '' : `; did you mean '${close}'?`
}

function distance(left: string, right: string): number {
  let previous = Array.from({ length: right.length + 1 }, (_, index) => index)
  for (let row = 1; row <= left.length; row++) {
    const current = [row]
    for (let column = 1; column <= right.length; column++) {
      const cost = left[row - 1] === right[column - 1] ? 0 : 1
      current[column] = Math.min(
        (previous[column] as number) + 1,
        (current[column - 1] as number) + 1,
        (previous[column - 1] as number) + cost,
      )
    }
    previous = current
  }
  return previous[right.length] as number
}

function valueAt(value: unknown, path: ReadonlyArray<string | number>): unknown {
  let current = value
  for (const segment of path) current = (current as Record<string | number, unknown> | undefined)?.[segment]
  return current
}

/** The schema's complaints about `value`, the actionable ones, one per place and message. */
export function checkSchema(value: unknown): SchemaProblem[] {
  const check = validate()
  if (check(value)) return []
  const errors = check.errors ?? []
  const problems: SchemaProblem[] = []
  const seen = new Set<string>()
  const add = (problem: SchemaProblem) => {
    const key = `${problem.path.join('/')} ${problem.key ?? ''} ${problem.message}`
    if (seen.has(key)) return
    seen.add(key)
    problems.push(problem)
  }
  // A step that does no one thing: said once, in words, rather than as four missing fields.
  const stepKindErrors = new Set<AjvError>()
  for (const error of errors) {
    if (!/^\/steps\/\d+$/.test(error.instancePath) || !/^#\/oneOf(\/|$)/.test(error.schemaPath)) continue
    stepKindErrors.add(error)
    if (error.keyword !== 'oneOf') continue
    const step = valueAt(value, segments(error.instancePath)) as Record<string, unknown>
    const found = stepKinds.filter((kind) => step !== null && typeof step === 'object' && kind in step)
    add({
      path: segments(error.instancePath),
      message:
        found.length === 0
          ? 'a step does one thing: give it one of call, read, prompt or list'
          : `a step does one thing, this one says ${found.join(' and ')}: split it into steps`,
    })
  }
  const umbrella = new Set(['anyOf', 'allOf', 'oneOf', 'if', 'then', 'else', '$ref'])
  const precise = errors.filter((error) => !umbrella.has(error.keyword) && !stepKindErrors.has(error))
  for (const error of precise) {
    // One branch of a oneOf says "must be string" while another says what is really wrong.
    if (
      error.keyword === 'type' &&
      precise.some(
        (other) =>
          other !== error &&
          other.keyword !== 'type' &&
          (other.instancePath === error.instancePath ||
            other.instancePath.startsWith(`${error.instancePath}/`)),
      )
    )
      continue
    const path = segments(error.instancePath)
    add({ path, ...wording(error, valueAt(value, path)) })
  }
  if (problems.length === 0) {
    for (const error of errors.filter((item) => item.keyword === 'oneOf'))
      add({ path: segments(error.instancePath), message: 'is neither of the forms this field takes' })
  }
  return problems
}
