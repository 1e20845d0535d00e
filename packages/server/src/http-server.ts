// A listening node:http server around createHttpHandler, bound to 127.0.0.1 unless told
// otherwise, with a graceful close: stop accepting connections, let in-flight calls finish
// within the grace period, close sessions, then drop idle keep-alive connections.

import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createHttpHandler, type HttpHandler, type HttpHandlerOptions } from './http-handler.js'
import type { ToolRegistry } from './registry.js'

export interface HttpServerOptions extends HttpHandlerOptions {
  /** Address to bind (default 127.0.0.1). Binding elsewhere does not disable Host checks: add names with `allowedHosts`. */
  host?: string
  /** Port (default 0: any free port; the real one is in `url` and `port`). */
  port?: number
}

export interface RunningHttpServer {
  /** The MCP endpoint, e.g. `http://127.0.0.1:3000/mcp`. */
  readonly url: string
  readonly host: string
  readonly port: number
  readonly server: Server
  readonly handler: HttpHandler
  /** Graceful close (see HttpHandler.close); resolves once the port is released. */
  close(options?: { graceMs?: number }): Promise<void>
}

const wildcardHosts = new Set(['0.0.0.0', '::', '[::]', ''])

function urlHost(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host
}

/** Starts serving `registry` over Streamable HTTP; resolves once listening. */
export async function startHttpServer(
  registry: ToolRegistry,
  options: HttpServerOptions = {},
): Promise<RunningHttpServer> {
  const host = options.host ?? '127.0.0.1'
  const allowedHosts =
    options.allowedHosts === '*' || wildcardHosts.has(host)
      ? options.allowedHosts
      : [...(options.allowedHosts ?? []), host]
  const handler = createHttpHandler(registry, { ...options, allowedHosts })
  const server = createServer({ keepAliveTimeout: 5000 }, handler.handle)
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  server.on('error', (error) => options.onError?.(error))
  const address = server.address() as AddressInfo
  const path = options.path ?? '/mcp'
  let closed: Promise<void> | undefined
  return {
    url: `http://${urlHost(wildcardHosts.has(host) ? '127.0.0.1' : host)}:${address.port}${path}`,
    host,
    port: address.port,
    server,
    handler,
    close(closeOptions = {}) {
      closed ??= (async () => {
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()))
        await handler.close(closeOptions)
        server.closeIdleConnections()
        // Whatever is still open after the grace period (a stuck upload) is cut.
        const timer = setTimeout(() => server.closeAllConnections(), 1000)
        timer.unref()
        await stopped
        clearTimeout(timer)
      })()
      return closed
    },
  }
}
