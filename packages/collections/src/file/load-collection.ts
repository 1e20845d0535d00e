// Reading a collection: the text (YAML or JSON) parsed with positions, checked against the JSON
// Schema and then against what the schema cannot say. Every problem is reported with the file,
// its line and column and the step it is in; the first one is the error's message.

import { readFile } from 'node:fs/promises'
import { basename, dirname, extname, resolve } from 'node:path'
import type { Document } from 'yaml'
import type { Collection, CollectionDocument } from '../collection-types.js'
import { CollectionError, type CollectionProblem, formatProblem } from '../errors.js'
import { checkSteps } from './check-steps.js'
import { type ParsedText, type PathSegment, parseText } from './parse-document.js'
import { checkSchema } from './schema-check.js'

/** Collections read from files keep their YAML document, so that writing back keeps comments and layout. */
export const documents = new WeakMap<Collection, Document>()

/** The largest collection file read (a recorded session of many calls fits easily). */
const maximumFileBytes = 64 * 1024 * 1024

function stepOf(value: unknown, index: number | undefined): CollectionProblem['step'] {
  if (index === undefined) return undefined
  const entry = (value as { steps?: Array<Record<string, unknown>> }).steps?.[index]
  const operation = ['call', 'read', 'prompt', 'list'].find((kind) => typeof entry?.[kind] === 'string')
  const name =
    typeof entry?.name === 'string'
      ? entry.name
      : operation === undefined
        ? `#${index + 1}`
        : `${operation} ${String(entry?.[operation])}`
  return { index, name }
}

function stepIndexOf(path: readonly PathSegment[]): number | undefined {
  return path[0] === 'steps' && typeof path[1] === 'number' ? path[1] : undefined
}

function fail(file: string, problems: CollectionProblem[]): never {
  problems.sort((left, right) => left.line - right.line || left.column - right.column)
  const [first] = problems
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : ''
  throw new CollectionError('invalid_collection', `${formatProblem(first as CollectionProblem)}${more}`, {
    problems,
    details: { file, line: first?.line, column: first?.column, step: first?.step },
  })
}

export interface ParseOptions {
  /** The file's path, for messages and relative paths (default: none, `<collection>`). */
  file?: string
  /** `json` writes back as JSON (default: by the file's extension, else YAML). */
  format?: 'yaml' | 'json'
  /** Where relative paths in it are taken from (default: the file's directory, else the working directory). */
  directory?: string
}

/** A collection from its text; throws CollectionError `invalid_collection` naming every problem. */
export function parseCollection(text: string, options: ParseOptions = {}): Collection {
  const file = options.file ?? '<collection>'
  const parsed: ParsedText = parseText(text)
  const problemAt = (path: readonly PathSegment[], message: string, key?: string): CollectionProblem => {
    const position = parsed.positionOf(path, key)
    return { file, ...position, step: stepOf(parsed.value, stepIndexOf(path)), message }
  }
  // The first syntax error: the ones after it are mostly what it threw the parser into.
  const [syntax] = parsed.syntaxErrors
  if (syntax !== undefined)
    fail(file, [{ file, line: syntax.line, column: syntax.column, message: syntax.message }])
  if (parsed.value === null || typeof parsed.value !== 'object' || Array.isArray(parsed.value))
    fail(file, [{ file, line: 1, column: 1, message: 'a collection is a mapping with servers and steps' }])
  const schemaProblems = checkSchema(parsed.value)
  if (schemaProblems.length > 0)
    fail(
      file,
      schemaProblems.map((problem) => {
        const inStep = stepIndexOf(problem.path) !== undefined
        const field = (inStep ? problem.path.slice(2) : problem.path)
          .map((segment) => (typeof segment === 'number' ? `[${segment}]` : `.${segment}`))
          .join('')
          .replace(/^\./, '')
        const named = problem.key !== undefined && problem.message.startsWith(`'${problem.key}'`)
        return problemAt(
          problem.path,
          `${field === '' || named ? '' : `${field}: `}${problem.message}`,
          problem.key,
        )
      }),
    )
  const document = parsed.value as CollectionDocument
  const { steps, problems } = checkSteps(document, (index) => parsed.positionOf(['steps', index]).line)
  if (problems.length > 0)
    fail(
      file,
      problems.map((problem) => problemAt(problem.path, problem.message, problem.key)),
    )
  const format = options.format ?? (extname(file).toLowerCase() === '.json' ? 'json' : 'yaml')
  const collection: Collection = {
    file: options.file ?? '',
    directory: options.directory ?? (options.file ? dirname(resolve(options.file)) : process.cwd()),
    format,
    name: document.name ?? (options.file ? basename(file, extname(file)) : 'collection'),
    document,
    steps,
    serverLines: Object.fromEntries(
      Object.keys(document.servers).map((name) => [name, parsed.positionOf(['servers', name]).line]),
    ),
  }
  documents.set(collection, parsed.document)
  return collection
}

/** A collection from a file; relative paths in it are taken from the file's directory. */
export async function loadCollection(path: string, options: { cwd?: string } = {}): Promise<Collection> {
  const file = resolve(options.cwd ?? process.cwd(), path)
  let text: string
  try {
    const buffer = await readFile(file)
    if (buffer.byteLength > maximumFileBytes)
      throw new Error(`larger than ${maximumFileBytes / 1024 / 1024} MiB`)
    text = buffer.toString('utf8')
  } catch (error) {
    throw new CollectionError('collection_io', `cannot read ${path}: ${(error as Error).message}`, {
      details: { file },
      cause: error,
    })
  }
  return parseCollection(text, { file: path, directory: dirname(file) })
}
