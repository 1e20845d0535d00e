// The one error type of @mcp-kit/openapi (docs/architecture.md "Errors"): what went wrong while
// reading an OpenAPI document or setting up its tools. Failures of a tool call are not thrown:
// they are `isError` results naming the status and the API's message. And how a failure to reach
// a host is said, for both.

import { isKitError, KitError } from '@mcp-kit/core'

export type OpenApiErrorCode =
  /** The document cannot be read or parsed, or it is not OpenAPI 3.x (Swagger 2.0 is refused). */
  | 'invalid_spec'
  /** An option is wrong: a base URL that is not http(s), a document without a usable server URL. */
  | 'invalid_options'

export interface OpenApiErrorOptions {
  details?: Record<string, unknown>
  cause?: unknown
}

/** The error this package throws: a stable `code` and `details`. */
export class OpenApiError extends KitError<OpenApiErrorCode> {
  override readonly name = 'OpenApiError'

  constructor(code: OpenApiErrorCode, message: string, options: OpenApiErrorOptions = {}) {
    super(code, message, options)
  }

  /** True for an OpenApiError from any copy of this package (bundlers may load two). */
  static isInstance(value: unknown): value is OpenApiError {
    return isKitError(value, 'OpenApiError')
  }
}

/** Why a request never got an answer, in words (the error's code, or its cause's). */
export function networkReason(error: unknown): string {
  const code = (error as { code?: string })?.code ?? (error as { cause?: { code?: string } })?.cause?.code
  switch (code) {
    case 'ECONNREFUSED':
      return 'connection refused'
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'the host name does not resolve'
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
      return 'the connection was closed'
    case 'UND_ERR_CONNECT_TIMEOUT':
      return 'the connection timed out'
    default:
      return (error as Error)?.message ?? String(error)
  }
}
