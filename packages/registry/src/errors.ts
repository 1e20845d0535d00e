// The one error type of @mcp-kit/registry (docs/architecture.md "Errors"): a registry that cannot
// be reached or answers with something that is not a registry's answer, an entry it does not have,
// a server.json or schema that cannot be read.

import { isKitError, KitError } from '@mcp-kit/core'

export type RegistryErrorCode =
  /** No answer (refused, timed out, DNS) and no cached copy to fall back on; or an HTTP error. */
  | 'registry_unreachable'
  /** An answer that is not the registry API's (not JSON, the wrong shape, too large). */
  | 'registry_invalid'
  /** The registry has no such server, or no such version of it. */
  | 'server_not_found'
  /** A wrong option: a registry URL that is not http(s), a bad header. */
  | 'invalid_options'

export interface RegistryErrorOptions {
  details?: Record<string, unknown>
  cause?: unknown
}

/** The error this package throws: a stable `code`, a message safe to show, and `details`. */
export class RegistryError extends KitError<RegistryErrorCode> {
  override readonly name = 'RegistryError'

  constructor(code: RegistryErrorCode, message: string, options: RegistryErrorOptions = {}) {
    super(code, message, options)
  }

  /** True for a RegistryError from any copy of this package (bundlers may load two). */
  static isInstance(value: unknown): value is RegistryError {
    return isKitError(value, 'RegistryError')
  }
}

/** Why a request got no answer, in words (the error's code, or its cause's). */
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
    default:
      if ((error as Error)?.name === 'TimeoutError') return 'no answer in time'
      return (error as Error)?.message ?? String(error)
  }
}
