// The one error type of @mcp-kit/server, with the stable codes of docs/architecture.md "Errors". Errors
// that travel over the wire carry their JSON-RPC code in `details.rpcCode`.

import { isKitError, KitError, rpcCodes } from '@mcp-kit/core'

export type ServerErrorCode =
  /** A tool, resource or prompt definition was refused at registration. */
  | 'invalid_definition'
  | 'tool_not_found'
  | 'resource_not_found'
  | 'prompt_not_found'
  | 'invalid_arguments'
  | 'tool_error'
  /** The client cannot do what a handler asked (sampling or elicitation without the capability). */
  | 'unsupported'
  /** 2026-07-28: the request needs a client capability it did not declare (-32021). */
  | 'missing_capability'
  | 'cancelled'
  | 'server_error'
  /**
   * The store (Redis) could not be used at start; `details.problem`: `untrusted` (its TLS
   * certificate), `login` (user or password refused), `permissions` (an ACL refusal) or `unreachable`.
   */
  | 'store_unavailable'
  | 'internal'

export interface ServerErrorOptions {
  details?: Record<string, unknown>
  cause?: unknown
}

/** The error of a registry, a handler or the serving: a stable `code` (ServerErrorCode) and `details`. */
export class ServerError extends KitError<ServerErrorCode> {
  override readonly name = 'ServerError'

  constructor(code: ServerErrorCode, message: string, options: ServerErrorOptions = {}) {
    super(code, message, options)
  }

  /** True for a ServerError from any copy of this package (bundlers may load two). */
  static isInstance(value: unknown): value is ServerError {
    return isKitError(value, 'ServerError')
  }
}

/** JSON-RPC error codes the server answers with (MCP 2025-11-25 and 2026-07-28): @mcp-kit/core's. */
export { rpcCodes }

const rpcCodeByErrorCode: Partial<Record<ServerErrorCode, number>> = {
  tool_not_found: rpcCodes.invalidParams,
  prompt_not_found: rpcCodes.invalidParams,
  invalid_arguments: rpcCodes.invalidParams,
  resource_not_found: rpcCodes.resourceNotFound,
  missing_capability: rpcCodes.missingClientCapability,
}

/** The JSON-RPC code a ServerError travels with. */
export function rpcCodeFor(error: ServerError): number {
  const explicit = error.details?.rpcCode
  if (typeof explicit === 'number') return explicit
  return rpcCodeByErrorCode[error.code] ?? rpcCodes.internalError
}

/** A thrown value as one line of text: an Error's message, a string, or the value as JSON. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message
  if (typeof error === 'string') return error
  try {
    return JSON.stringify(error) ?? String(error)
  } catch {
    return String(error)
  }
}
