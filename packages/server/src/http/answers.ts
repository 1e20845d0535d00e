// Error answers of the Streamable HTTP endpoint: a JSON-RPC error object in a JSON body, with
// the HTTP status that says what went wrong at the transport level.

import type { IncomingMessage, ServerResponse } from 'node:http'
import { rpcCodes } from '../errors.js'
import type { RequestId } from '../protocol/rpc.js'
import { closeAfterAnswer } from './guard/lingering-close.js'

const mebibyte = 1024 * 1024

/** Answers `status` with `{"jsonrpc":"2.0","error":{code,message},"id":…}` (or ends a started answer). */
export function sendError(
  response: ServerResponse,
  status: number,
  code: number,
  message: string,
  headers: readonly string[] = [],
  id: RequestId | null = null,
): void {
  if (response.headersSent) {
    response.end()
    return
  }
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id })
  response.writeHead(status, [
    'content-type',
    'application/json',
    'content-length',
    String(Buffer.byteLength(body)),
    ...headers,
  ])
  response.end(body)
}

/**
 * Refuses a request and closes its connection once the answer is out, without serving the rest of
 * its body: a client we refuse (no token, wrong Host, too large, too slow…) must not keep a
 * socket. The answer says `Connection: close`; the close lingers (guard/lingering-close.ts).
 */
export function refuse(
  request: IncomingMessage,
  response: ServerResponse,
  status: number,
  code: number,
  message: string,
  headers: readonly string[] = [],
): void {
  request.pause()
  sendError(response, status, code, message, [...headers, 'connection', 'close'])
  closeAfterAnswer(request, response)
}

/** The first value of a request header node:http may have given as an array. */
export function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value
}

/** A byte count as people write it in options: `4 MiB`, or `1024 bytes`. */
export function describeBytes(bytes: number): string {
  return bytes % mebibyte === 0 ? `${bytes / mebibyte} MiB` : `${bytes} bytes`
}

/** The 503 for a request whose session the store could not be asked about (it is away); reported. */
export function storeUnreachable(
  endpoint: { report(error: unknown): void },
  response: ServerResponse,
  headers: readonly string[],
  error: unknown,
): void {
  endpoint.report(error)
  sendError(
    response,
    503,
    rpcCodes.transportError,
    'Service Unavailable: the session store cannot be reached',
    [...headers, 'retry-after', '1'],
  )
}
