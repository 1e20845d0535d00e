// The one error type of @mcp-kit/openapi (docs/architecture.md "Errors"): what went wrong while
// reading an OpenAPI document or setting up its tools. Failures of a tool call are not thrown:
// they are `isError` results naming the status and the API's message.

const brand = Symbol.for('mcp-kit.error')

export type OpenApiErrorCode =
  /** The document cannot be read or parsed, or it is not OpenAPI 3.x (Swagger 2.0 is refused). */
  | 'invalid_spec'
  /** An option is wrong: a base URL that is not http(s), a document without a usable server URL. */
  | 'invalid_options'

export interface OpenApiErrorOptions {
  details?: Record<string, unknown>
  cause?: unknown
}

export class OpenApiError extends Error {
  readonly [brand] = true
  override readonly name = 'OpenApiError'
  readonly code: OpenApiErrorCode
  readonly details: Record<string, unknown> | undefined

  constructor(code: OpenApiErrorCode, message: string, options: OpenApiErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.code = code
    this.details = options.details
  }

  /** True for an OpenApiError from any copy of this package (bundlers may load two). */
  static isInstance(value: unknown): value is OpenApiError {
    return (
      typeof value === 'object' &&
      value !== null &&
      (value as Record<symbol, unknown>)[brand] === true &&
      (value as Error).name === 'OpenApiError'
    )
  }
}
