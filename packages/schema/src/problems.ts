// Validation problems in plain English, one per line with its parameter path: ajv's errors
// folded where a schema says one thing several ways (an optional value's `anyOf` of types, a
// titled enum's `oneOf` of consts) and worded for people rather than schema authors.

import { isRecord } from '@mcp-kit/core'
import type { ErrorObject } from 'ajv'

export interface ArgumentProblem {
  /** Where the problem is, e.g. `count` or `items[2].name`; empty for the arguments as a whole. */
  path: string
  message: string
  /** The JSON Schema keyword that failed (`required`, `type`, `enum`, ...). */
  keyword: string
}

const maximumEnumValuesShown = 10
const maximumPreviewLength = 60
const maximumTitleLength = 40

// Messages for missing and unknown parameters already name the parameter: prefix the object they belong to.
const namingKeywords = new Set(['required', 'additionalProperties', 'unevaluatedProperties'])

function parentPath(path: string): string {
  const cut = Math.max(path.lastIndexOf('.'), path.endsWith(']') ? path.lastIndexOf('[') : -1)
  return cut <= 0 ? '' : path.slice(0, cut)
}

/**
 * One line per problem: `path: message`. Missing and unknown parameters, whose message names
 * them, are prefixed with the object they belong to (nothing at the top level).
 */
export function formatProblems(problems: readonly ArgumentProblem[]): string {
  return problems
    .map((problem) => {
      const prefix = namingKeywords.has(problem.keyword) ? parentPath(problem.path) : problem.path
      return prefix === '' ? problem.message : `${prefix}: ${problem.message}`
    })
    .join('\n')
}

export function problemsFrom(
  errors: readonly ErrorObject[],
  args: unknown,
  schema: unknown,
): ArgumentProblem[] {
  const problems: ArgumentProblem[] = []
  const seen = new Set<string>()
  const add = (problem: ArgumentProblem): void => {
    const key = `${problem.path}\n${problem.keyword}\n${problem.message}`
    if (seen.has(key)) return
    seen.add(key)
    problems.push(problem)
  }
  const folded = new Set<ErrorObject>()
  for (const error of errors) {
    if (error.keyword !== 'anyOf' && error.keyword !== 'oneOf') continue
    const branches = errors.filter((other) => other.schemaPath.startsWith(`${error.schemaPath}/`))
    // `anyOf: [{type: integer}, {type: null}]` (an optional value) reads best as one problem.
    if (
      branches.length > 0 &&
      branches.every((branch) => branch.keyword === 'type' && branch.instancePath === error.instancePath)
    ) {
      for (const branch of branches) folded.add(branch)
      const types = branches.flatMap((branch) => typeNames(branch.params.type))
      const segments = pointerSegments(error.instancePath)
      add({
        path: formatPath(segments, args),
        keyword: error.keyword,
        message: `must be ${describeTypes(types)} (got ${preview(valueAt(args, segments))})`,
      })
      folded.add(error)
    } else if (
      branches.length > 0 &&
      branches.every((branch) => branch.keyword === 'const' && branch.instancePath === error.instancePath)
    ) {
      // A titled enum (`oneOf: [{const: 's', title: 'Small'}, …]`): its values, not each branch.
      for (const branch of branches) folded.add(branch)
      const segments = pointerSegments(error.instancePath)
      const choices = branches.map((branch) => {
        const title = schemaAt(schema, branch.schemaPath.replace(/\/const$/, ''))?.title
        const value = preview(branch.params.allowedValue)
        return typeof title === 'string' && title !== '' && title !== branch.params.allowedValue
          ? `${value} (${truncate(title, maximumTitleLength)})`
          : value
      })
      add({
        path: formatPath(segments, args),
        keyword: error.keyword,
        message: `must be one of ${listValues(choices, String)} (got ${preview(valueAt(args, segments))})`,
      })
      folded.add(error)
    }
  }
  for (const error of errors) if (!folded.has(error)) add(problemFrom(error, args))
  return problems
}

function problemFrom(error: ErrorObject, args: unknown): ArgumentProblem {
  const segments = pointerSegments(error.instancePath)
  const params = error.params as Record<string, unknown>
  const keyword = error.keyword
  const named = (name: unknown): string[] => [...segments, String(name)]
  switch (keyword) {
    case 'required':
    case 'dependentRequired':
    case 'dependencies': {
      const path = named(params.missingProperty)
      return {
        path: formatPath(path, args),
        keyword,
        message: `missing required parameter '${String(params.missingProperty)}'`,
      }
    }
    case 'additionalProperties':
    case 'unevaluatedProperties': {
      const name = keyword === 'additionalProperties' ? params.additionalProperty : params.unevaluatedProperty
      return { path: formatPath(named(name), args), keyword, message: `unknown parameter '${String(name)}'` }
    }
  }
  const path = formatPath(segments, args)
  const got = `(got ${preview(valueAt(args, segments))})`
  switch (keyword) {
    case 'type':
      return { path, keyword, message: `must be ${describeTypes(typeNames(params.type))} ${got}` }
    case 'enum': {
      const allowed = Array.isArray(params.allowedValues) ? params.allowedValues : []
      return { path, keyword, message: `must be one of ${listValues(allowed)}` }
    }
    case 'const':
      return { path, keyword, message: `must be ${preview(params.allowedValue)}` }
    case 'format':
      return { path, keyword, message: `must be a valid ${String(params.format)} ${got}` }
    case 'anyOf':
      return { path, keyword, message: 'must match at least one of the allowed schemas' }
    case 'oneOf':
      return { path, keyword, message: 'must match exactly one of the allowed schemas' }
    default:
      // ajv's own wording is already plain for the rest ("must be >= 1", "must NOT have more than 3 items").
      return { path, keyword, message: error.message ?? `fails '${keyword}'` }
  }
}

function pointerSegments(pointer: string): string[] {
  if (pointer === '') return []
  return pointer
    .slice(1)
    .split('/')
    .map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'))
}

function valueAt(value: unknown, segments: readonly string[]): unknown {
  let current = value
  for (const segment of segments) {
    if (typeof current !== 'object' || current === null || !Object.hasOwn(current, segment)) return undefined
    current = (current as Record<string, unknown>)[segment]
  }
  return current
}

/** `count`, `items[2].name`, `filters["odd key"]`: top-level names bare, nested ones joined. */
function formatPath(segments: readonly string[], args: unknown): string {
  let path = ''
  let current = args
  for (const segment of segments) {
    if (Array.isArray(current) && /^\d+$/.test(segment)) path += `[${segment}]`
    else if (path === '') path = segment
    else if (/^[\w$-]+$/.test(segment)) path += `.${segment}`
    else path += `[${JSON.stringify(segment)}]`
    current = valueAt(current, [segment])
  }
  return path
}

function typeNames(type: unknown): string[] {
  if (typeof type === 'string') return type.split(',')
  if (Array.isArray(type)) return type.map(String)
  return []
}

const typeWords: Record<string, string> = {
  array: 'an array',
  boolean: 'a boolean',
  integer: 'an integer',
  null: 'null',
  number: 'a number',
  object: 'an object',
  string: 'a string',
}

function describeTypes(types: readonly string[]): string {
  const words = [...new Set(types)].map((type) => typeWords[type] ?? type)
  if (words.length <= 1) return words[0] ?? 'of another type'
  return `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`
}

/** The subschema at an ajv `schemaPath` (`#/properties/size/oneOf/0`), when it is in `schema`. */
function schemaAt(schema: unknown, schemaPath: string): Record<string, unknown> | undefined {
  if (!schemaPath.startsWith('#')) return undefined
  let current = schema
  for (const segment of pointerSegments(schemaPath.slice(1))) {
    if (!isRecord(current) && !Array.isArray(current)) return undefined
    if (!Object.hasOwn(current, segment)) return undefined
    current = (current as Record<string, unknown>)[segment]
  }
  return isRecord(current) ? current : undefined
}

function listValues(values: readonly unknown[], show: (value: unknown) => string = preview): string {
  const shown = values.slice(0, maximumEnumValuesShown).map(show).join(', ')
  const hidden = values.length - maximumEnumValuesShown
  return hidden > 0 ? `${shown} … and ${hidden} more` : shown
}

function preview(value: unknown): string {
  if (value === undefined) return 'nothing'
  let text: string
  try {
    text = JSON.stringify(value) ?? String(value)
  } catch {
    text = String(value)
  }
  return truncate(text, maximumPreviewLength)
}

export function describeValue(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  return typeof value
}

export function truncate(text: string, length: number): string {
  return text.length > length ? `${text.slice(0, length)}…` : text
}
