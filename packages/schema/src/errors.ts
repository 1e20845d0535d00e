// The one error type of @mcp-kit/schema. Codes are stable strings shared with the rest of
// mcp-kit (see docs/architecture.md "Errors"); the CLI maps them to exit codes.

import { isKitError, KitError } from '@mcp-kit/core'

export type SchemaErrorCode = 'invalid_schema' | 'invalid_arguments'

export interface SchemaErrorOptions {
  details?: Record<string, unknown> | undefined
  cause?: unknown
}

/** The error this package throws: a stable `code` (`invalid_schema`, `invalid_arguments`) and `details`. */
export class SchemaError extends KitError<SchemaErrorCode> {
  override readonly name = 'SchemaError'

  constructor(code: SchemaErrorCode, message: string, options: SchemaErrorOptions = {}) {
    super(code, message, options)
  }

  /** True for a SchemaError from any copy of this package (bundlers may load two). */
  static isInstance(value: unknown): value is SchemaError {
    return isKitError(value, 'SchemaError')
  }
}
