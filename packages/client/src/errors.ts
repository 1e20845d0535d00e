// The one error type of @mcp-kit/client. Codes are the stable strings of docs/architecture.md "Errors";
// JSON-RPC errors from the wire keep their numeric code in `details.rpcCode`.

import { isKitError, KitError } from '@mcp-kit/core'

export type ClientErrorCode =
  | 'launch_failed'
  | 'connect_failed'
  /** The server process exited (or was killed) after the session was up. */
  | 'server_exited'
  | 'timeout'
  | 'cancelled'
  | 'protocol_error'
  | 'tool_not_found'
  /** The server has no resource at the URI read (JSON-RPC -32002, or -32602 naming the URI). */
  | 'resource_not_found'
  | 'invalid_arguments'
  | 'tool_error'
  | 'server_error'
  | 'http_error'
  /** The server needs input (an answer to its question) that could not be given. */
  | 'input_required'
  /** The server needs a login (OAuth) that could not happen here, or failed. */
  | 'auth_required'
  /** A generated module's tools changed on the server (its schema policy is `error`). */
  | 'schema_changed'
  /** A variable a generated module's profile settings use is not set. */
  | 'missing_env'
  | 'internal'

export interface ClientErrorOptions {
  details?: Record<string, unknown> | undefined
  cause?: unknown
}

/** Every failure of the client: a stable `code` (ClientErrorCode), a one-line message and `details`. */
export class ClientError extends KitError<ClientErrorCode> {
  override readonly name = 'ClientError'

  constructor(code: ClientErrorCode, message: string, options: ClientErrorOptions = {}) {
    super(code, message, options)
  }

  /** True for a ClientError from any copy of this package (bundlers may load two). */
  static isInstance(value: unknown): value is ClientError {
    return isKitError(value, 'ClientError')
  }
}
