// The one error type of @mcp-kit/schema. Codes are stable strings shared with the rest of
// mcp-kit (see docs/architecture.md "Errors"); the CLI maps them to exit codes.

const brand = Symbol.for('mcp-kit.error')

export type SchemaErrorCode = 'invalid_schema' | 'invalid_arguments'

export interface SchemaErrorOptions {
  details?: Record<string, unknown> | undefined
  cause?: unknown
}

/** The error this package throws: a stable `code` (`invalid_schema`, `invalid_arguments`) and `details`. */
export class SchemaError extends Error {
  readonly [brand] = true
  override readonly name = 'SchemaError'
  readonly code: SchemaErrorCode
  readonly details: Record<string, unknown> | undefined

  constructor(code: SchemaErrorCode, message: string, options: SchemaErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.code = code
    this.details = options.details
  }

  /** True for a SchemaError from any copy of this package (bundlers may load two). */
  static isInstance(value: unknown): value is SchemaError {
    return (
      typeof value === 'object' &&
      value !== null &&
      (value as Record<symbol, unknown>)[brand] === true &&
      (value as Error).name === 'SchemaError'
    )
  }
}
