// The one error type of @mcp-kit/server, with the stable codes of DESIGN.md "Errors".

const brand = Symbol.for('mcp-kit.error')

export type ServerErrorCode =
  | 'invalid_definition'
  | 'tool_not_found'
  | 'invalid_arguments'
  | 'tool_error'
  | 'internal'

export interface ServerErrorOptions {
  details?: Record<string, unknown>
  cause?: unknown
}

export class ServerError extends Error {
  readonly [brand] = true
  override readonly name = 'ServerError'
  readonly code: ServerErrorCode
  readonly details: Record<string, unknown> | undefined

  constructor(code: ServerErrorCode, message: string, options: ServerErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.code = code
    this.details = options.details
  }

  /** True for a ServerError from any copy of this package (bundlers may load two). */
  static isInstance(value: unknown): value is ServerError {
    return (
      typeof value === 'object' &&
      value !== null &&
      (value as Record<symbol, unknown>)[brand] === true &&
      (value as Error).name === 'ServerError'
    )
  }
}
