// How a server's answer to one of our requests is read: which request it answers, and what it
// settles that request with. Tolerant in what it accepts (docs/architecture.md "Protocol eras").

import { isRecord, rpcCodes } from '@mcp-kit/core'
import { ClientError } from '../errors.js'
import { RpcError } from './rpc-error.js'

/** The id of the request a response answers; undefined when it cannot be one of ours. */
export function responseId(response: Record<string, unknown>): number | undefined {
  // We only send numeric ids; a sloppy server that echoes one as a string ("7") still answers it.
  const id =
    typeof response.id === 'string' && /^[0-9]{1,15}$/.test(response.id) ? Number(response.id) : response.id
  return typeof id === 'number' ? id : undefined
}

/** What a response to `method` settles its request with: the result, or the error to reject it with. */
export function responseOutcome(
  response: Record<string, unknown>,
  method: string,
): { result: unknown } | { error: Error } {
  if (isRecord(response.error)) {
    const error = response.error
    return {
      error: new RpcError(
        typeof error.code === 'number' ? error.code : rpcCodes.internalError,
        typeof error.message === 'string' ? error.message : 'unknown error',
        error.data,
      ),
    }
  }
  if (response.error !== undefined && response.error !== null) {
    // An error that is not an object (`"error": "no such method"`): still an error answer.
    return {
      error: new RpcError(
        rpcCodes.internalError,
        typeof response.error === 'string' ? response.error : 'unknown error',
      ),
    }
  }
  if ('result' in response) return { result: response.result }
  return {
    error: new ClientError(
      'protocol_error',
      `the server answered ${method} with neither a result nor an error`,
    ),
  }
}
