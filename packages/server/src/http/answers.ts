// Error answers of the Streamable HTTP endpoint: a JSON-RPC error object in a JSON body, with
// the HTTP status that says what went wrong at the transport level. errorBody is the one writer of
// such a body, and sendError the one that answers with it: the guards, the stages of a request
// (exchange.ts) and a 2025 session's streams (an answer the session cannot give any more) use them.

import type { IncomingMessage, ServerResponse } from 'node:http'
import type { RequestId } from '../protocol/rpc.js'
import { closeAfterAnswer } from './guard/lingering-close.js'

const mebibyte = 1024 * 1024

/** `{"jsonrpc":"2.0","error":{code,message},"id":…}`: a JSON-RPC error as the endpoint writes it. */
export function errorBody(code: number, message: string, id: RequestId | null = null): string {
  return JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id })
}

/** Answers `status` with an error body (errorBody), or ends an answer already started. */
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
  const body = errorBody(code, message, id)
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
