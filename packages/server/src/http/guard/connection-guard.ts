// Keeps slow or idle connections from starving a node:http server. Past `maxConnections` new
// connections are closed at once, unread (node's own server.maxConnections). Below the cap a
// little room is kept free for new clients: when the open connections reach it, the ones that
// have been waiting longest for a complete request (slow headers, a trickling body, an idle
// keep-alive) are shed, oldest first. Connections being answered (a running call, an SSE
// stream) are never shed here; the session limits and timeouts handle those.

import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'

export interface ConnectionGuardOptions {
  /** Open connections allowed at once (0: no cap). */
  maxConnections: number
  /** A connection waiting this long for a complete request may be shed to make room. */
  slowAfterMs: number
  now?: () => number
}

export interface ConnectionStats {
  /** Connections open now. */
  open: number
  /** Connections closed unread because the cap was reached. */
  refused: number
  /** Slow or idle connections closed to make room for new ones. */
  shed: number
}

export interface ConnectionGuard {
  stats(): ConnectionStats
  /** Stops the timer; connections are left to the server's own close. */
  dispose(): void
}

interface Tracked {
  /** The request being received or answered, if any. */
  request: IncomingMessage | undefined
  /** Since when the connection has been waiting for its current request (or idle). */
  waitingSince: number
}

export function guardConnections(server: Server, options: ConnectionGuardOptions): ConnectionGuard {
  const now = options.now ?? Date.now
  const cap = options.maxConnections
  // Room kept free below the cap, so a new client is accepted while slow ones are being shed.
  const spare = Math.max(1, Math.floor(cap * 0.05))
  const connections = new Map<Socket, Tracked>()
  let refused = 0
  let shed = 0

  if (cap > 0) server.maxConnections = cap
  server.on('drop', () => {
    refused += 1
    relieve()
  })
  server.on('connection', (socket: Socket) => {
    connections.set(socket, { request: undefined, waitingSince: now() })
    socket.once('close', () => connections.delete(socket))
    relieve()
  })
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const tracked = connections.get(request.socket)
    if (tracked === undefined) return
    tracked.request = request
    response.once('close', () => {
      if (tracked.request !== request) return
      tracked.request = undefined
      tracked.waitingSince = now()
    })
  })

  function relieve(): void {
    if (cap === 0 || connections.size < cap - spare) return
    const slowSince = now() - options.slowAfterMs
    const candidates: Array<[Socket, number]> = []
    for (const [socket, tracked] of connections) {
      const waiting = tracked.request === undefined || !tracked.request.complete
      if (waiting && tracked.waitingSince <= slowSince) candidates.push([socket, tracked.waitingSince])
    }
    candidates.sort((left, right) => left[1] - right[1])
    let open = connections.size
    for (const [socket] of candidates) {
      if (open < cap - spare) break
      socket.destroy()
      connections.delete(socket)
      open -= 1
      shed += 1
    }
  }

  // Connections turn slow while nobody connects; make room before the next client arrives.
  const timer = setInterval(relieve, Math.max(100, Math.min(options.slowAfterMs / 2, 1000)))
  timer.unref()

  return {
    stats: () => ({ open: connections.size, refused, shed }),
    dispose: () => clearInterval(timer),
  }
}
