// A raw TCP connection to a test server, for what fetch hides: requests written byte by byte,
// bodies that never end, what the server sent before it closed, and whether it reset.

import { connect, type Socket } from 'node:net'

const sockets = new Set<Socket>()

/** After each test (setup.ts): destroys the connections it opened. */
export function destroyConnections(): void {
  for (const socket of sockets) socket.destroy()
  sockets.clear()
}

export interface RawConnection {
  socket: Socket
  /** Everything the server sent so far. */
  received(): string
  /** Resolves when the server closed the connection. */
  closed: Promise<void>
  isClosed(): boolean
  /** The socket's errors (`ECONNRESET`, `EPIPE`: the server reset the connection). */
  errors: string[]
}

/**
 * A raw TCP connection to the server of `url`, tracked for cleanup. `allowHalfOpen`: the server's
 * FIN does not end this side (as with fetch, which goes on sending a body after the answer).
 */
export function rawConnection(
  url: string,
  options: { allowHalfOpen?: boolean } = {},
): Promise<RawConnection> {
  const target = new URL(url)
  return new Promise((resolve, reject) => {
    const socket = connect({ port: Number(target.port), host: target.hostname, ...options })
    sockets.add(socket)
    let text = ''
    let isClosed = false
    const errors: string[] = []
    socket.setEncoding('latin1')
    socket.on('data', (chunk: string) => {
      text += chunk
    })
    socket.on('error', (error: NodeJS.ErrnoException) => errors.push(error.code ?? error.message))
    const closed = new Promise<void>((resolveClosed) =>
      socket.once('close', () => {
        isClosed = true
        resolveClosed()
      }),
    )
    socket.once('connect', () =>
      resolve({ socket, received: () => text, closed, isClosed: () => isClosed, errors }),
    )
    socket.once('error', reject)
  })
}

export function requestHead(url: string, headers: Record<string, string | number>, method = 'POST'): string {
  const target = new URL(url)
  const lines = Object.entries({ host: target.host, ...headers }).map(([name, value]) => `${name}: ${value}`)
  return `${method} ${target.pathname} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`
}
