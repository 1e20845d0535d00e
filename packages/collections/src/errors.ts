// The one error type of @mcp-kit/collections (docs/architecture.md "Errors"): a collection file
// that cannot be read or does not say what a collection must, and a run that cannot start.

import { isKitError, KitError } from '@mcp-kit/core'

export type CollectionErrorCode =
  /** The file is not a collection: bad YAML or JSON, a field the schema refuses, a step that cannot run. */
  | 'invalid_collection'
  /** The file cannot be read or written. */
  | 'collection_io'
  /** A wrong option to a function of this package. */
  | 'invalid_options'

/** Where in a collection file a problem is. */
export interface CollectionProblem {
  file: string
  /** 1-based; 0 when the problem is the file as a whole. */
  line: number
  /** 1-based; 0 when only the line is known. */
  column: number
  /** The step's index in `steps` and its name, when the problem is inside a step. */
  step?: { index: number; name: string }
  message: string
}

export interface CollectionErrorOptions {
  details?: Record<string, unknown>
  /** Every problem found, in file order (the message names the first). */
  problems?: CollectionProblem[]
  cause?: unknown
}

/** The error this package throws: a stable `code`, a message safe to show, and `details`. */
export class CollectionError extends KitError<CollectionErrorCode> {
  override readonly name = 'CollectionError'
  readonly problems: CollectionProblem[]

  constructor(code: CollectionErrorCode, message: string, options: CollectionErrorOptions = {}) {
    super(code, message, options)
    this.problems = options.problems ?? []
  }

  /** True for a CollectionError from any copy of this package (bundlers may load two). */
  static isInstance(value: unknown): value is CollectionError {
    return isKitError(value, 'CollectionError')
  }
}

/** `file:line:column: step 3 'name': message` — one line per problem, as compilers print them. */
export function formatProblem(problem: CollectionProblem): string {
  const where =
    problem.line <= 0
      ? problem.file
      : problem.column <= 0
        ? `${problem.file}:${problem.line}`
        : `${problem.file}:${problem.line}:${problem.column}`
  const step = problem.step === undefined ? '' : `step ${problem.step.index + 1} '${problem.step.name}': `
  return `${where}: ${step}${problem.message}`
}
