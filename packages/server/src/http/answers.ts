// Error answers of the Streamable HTTP endpoint: a JSON-RPC error object in a JSON body, with
// the HTTP status that says what went wrong at the transport level.

import type { IncomingMessage, ServerResponse } from 'node:http'
import { rpcCodes } from '../errors.js'
import type { RequestId } from '../protocol/rpc.js'

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
 * Refuses a request and closes its connection once the answer is out, without taking the rest of
 * its body: a client we refuse (no token, wrong Host, too large, too slow…) must not keep a
 * socket. The answer says `Connection: close`.
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

/** The longest a refused connection stays open after its answer. */
const lingerMs = 1000

/** Connections closing after a refusal: what the client still sends is dropped, not served. */
const lingering = new WeakSet<object>()

/** True for a connection that is closing after a refusal: a request pipelined on it is not served. */
export function isLingering(request: IncomingMessage): boolean {
  return lingering.has(request.socket)
}

/**
 * A lingering close. Closing a socket whose client is still uploading makes the kernel answer
 * the unread bytes with a reset, and the client then sees EPIPE or ECONNRESET instead of our
 * answer (about one 413 in three for a 5 MiB upload, before this). So: the answer, then FIN (the
 * client knows nothing more comes), then what the client still sends is read and dropped until it
 * has sent its whole body or hangs up, for at most `lingerMs`; then the socket is destroyed.
 */
function closeAfterAnswer(request: IncomingMessage, response: ServerResponse): void {
  const socket = request.socket
  if (lingering.has(socket)) return
  lingering.add(socket)
  const timer = setTimeout(() => socket.destroy(), lingerMs)
  timer.unref()
  socket.once('close', () => clearTimeout(timer))
  // node:http ends a Connection: close answer with socket.destroySoon(), which destroys the socket
  // as soon as the FIN is out, unread upload or not: this socket only half-closes instead.
  const destroySoon = socket.destroySoon.bind(socket)
  socket.destroySoon = () => {
    socket.end()
  }
  const linger = () => {
    // Nothing unread: close at once.
    if (request.complete) return destroySoon()
    socket.end()
    request.once('end', () => socket.destroy())
    socket.once('end', () => socket.destroy())
    request.on('data', () => {})
    request.resume()
  }
  if (response.writableFinished) linger()
  else response.once('finish', linger)
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
