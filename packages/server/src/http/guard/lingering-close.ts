// The lingering close of a refused connection, as nginx's `lingering_close`: the answer, then FIN,
// then what the client still sends is read and dropped while it keeps coming, within a total time
// and a byte count; then the socket is closed. A client still uploading reads the answer (a 413)
// instead of the connection reset the kernel sends when a socket with unread bytes is closed.

import type { IncomingMessage, ServerResponse } from 'node:http'

/**
 * How long and how much a refused connection is read after its answer (a module value so that
 * tests can shorten it). nginx has `lingering_time 30s` and `lingering_timeout 5s`.
 */
export const lingeringLimits = {
  /** The longest a refused connection stays open after its refusal (nginx `lingering_time`). */
  totalMs: 30_000,
  /** Closed when nothing more arrives for this long (nginx `lingering_timeout`). */
  betweenReadsMs: 5_000,
  /** Closed once this much more has been read and dropped. */
  maximumBytes: 64 * 1024 * 1024,
}

/** Connections closing after a refusal: what the client still sends is dropped, not served. */
const lingering = new WeakSet<object>()

/** True for a connection that is closing after a refusal: a request pipelined on it is not served. */
export function isLingering(request: IncomingMessage): boolean {
  return lingering.has(request.socket)
}

/**
 * Closes the request's connection once the answer is out. With nothing unread it closes at once;
 * else it half-closes and drops what comes until the client has sent its whole body or hangs up,
 * pauses `betweenReadsMs`, passes `maximumBytes`, or `totalMs` have gone by since the refusal.
 */
export function closeAfterAnswer(request: IncomingMessage, response: ServerResponse): void {
  const socket = request.socket
  if (lingering.has(socket)) return
  lingering.add(socket)
  const { totalMs, betweenReadsMs, maximumBytes } = lingeringLimits
  let betweenReads: NodeJS.Timeout | undefined
  const close = () => {
    clearTimeout(total)
    clearTimeout(betweenReads)
    socket.destroy()
  }
  const total = setTimeout(close, totalMs)
  total.unref()
  socket.once('close', () => {
    clearTimeout(total)
    clearTimeout(betweenReads)
  })
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
    betweenReads = setTimeout(close, betweenReadsMs)
    betweenReads.unref()
    let dropped = 0
    request.once('end', close)
    socket.once('end', close)
    request.on('data', (chunk: Buffer) => {
      dropped += chunk.length
      if (dropped > maximumBytes) close()
      else betweenReads?.refresh()
    })
    request.resume()
  }
  if (response.writableFinished) linger()
  else response.once('finish', linger)
}
