// How an error thrown while answering a request becomes a JSON-RPC error: what the client may
// see (a code and a one-line message), never a stack or a library's dump. The two eras differ
// in one code: a missing resource is -32002 under 2025-11-25 and -32602 under 2026-07-28.

import type { Era } from '@mcp-kit/core'
import { errorMessage, rpcCodeFor, rpcCodes, ServerError } from '../errors.js'
import { RpcFailure } from './rpc.js'

/** The RpcFailure to answer with; errors nobody anticipated are reported and hidden. */
export function failureOf(error: unknown, era: Era, report?: (error: Error) => void): RpcFailure {
  if (error instanceof RpcFailure) return error
  if (ServerError.isInstance(error)) {
    if (error.code === 'missing_capability') {
      return new RpcFailure(
        rpcCodes.missingClientCapability,
        `Missing required client capability: ${error.message}`,
        {
          data: { requiredCapabilities: error.details?.requiredCapabilities ?? {} },
          httpStatus: 400,
        },
      )
    }
    if (error.code === 'resource_not_found' && era === 'modern') {
      return new RpcFailure(rpcCodes.invalidParams, error.message, { data: error.details })
    }
    if (error.code === 'internal') {
      report?.(error)
      return new RpcFailure(rpcCodes.internalError, 'Internal error')
    }
    return new RpcFailure(rpcCodeFor(error), error.message, {
      data: error.code === 'resource_not_found' ? error.details : undefined,
    })
  }
  report?.(error instanceof Error ? error : new Error(errorMessage(error)))
  return new RpcFailure(rpcCodes.internalError, 'Internal error')
}
