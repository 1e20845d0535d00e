// A listening node:http server around createHttpHandler, bound to 127.0.0.1 unless told
// otherwise, hardened against slow clients (short header and request timeouts, a connection cap
// below the open-file limit, slow connections shed to make room: guard/connection-guard.ts), with a
// graceful close: stop accepting connections, let in-flight calls finish within the grace
// period, close sessions, then drop idle keep-alive connections.

import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createOAuthResource, type OAuthResource, type OAuthResourceOptions } from '../auth/oauth-resource.js'
import type { ToolRegistry } from '../registry/registry.js'
import { sharedSessions } from '../store/shared-sessions.js'
import { sharedChangeFeed, sharedStateKey } from '../store/shared-state.js'
import type { Store } from '../store/store.js'
import { defaultBodyTimeoutMs } from './endpoint.js'
import { type ConnectionStats, guardConnections } from './guard/connection-guard.js'
import { connectionCapFor, readOpenFileLimit } from './guard/open-file-limit.js'
import { createHttpHandler, type HttpHandler, type HttpHandlerOptions } from './handler.js'

export interface HttpServerOptions extends HttpHandlerOptions {
  /**
   * Where state shared by every instance lives (memoryStore, redisStore): the requestState key,
   * change notifications for subscriptions/listen, tasks, and 2025 sessions with their SSE event
   * logs (any instance serves any session); /healthz answers 503 while it is away. The caller
   * opens and closes it.
   */
  store?: Store | undefined
  /** Address to bind (default 127.0.0.1). Binding elsewhere does not disable Host checks: add names with `allowedHosts`. */
  host?: string | undefined
  /** Port (default 0: any free port; the real one is in `url` and `port`). */
  port?: number | undefined
  /**
   * A request's headers must arrive within this long of its start, or node:http answers 408 and
   * closes the connection (node:http `headersTimeout`; default 10 000 ms).
   */
  headersTimeoutMs?: number | undefined
  /**
   * A whole request, headers and body, must arrive within this long (node:http
   * `requestTimeout`; default `headersTimeoutMs + bodyTimeoutMs + 1000`, so the body deadline
   * answers first). Open streams and running calls are not limited by it.
   */
  requestTimeoutMs?: number | undefined
  /**
   * Open connections allowed at once; more are closed at once, unread, and when the open ones
   * near the cap those waiting longest for a complete request are shed to make room (default:
   * the open-file limit less a quarter of it, at least 64 files kept free, read from
   * /proc/self/limits on Linux; no cap where that cannot be read; 0: no cap).
   */
  maxConnections?: number | undefined
  /**
   * Require OAuth access tokens from this authorization server: its keys are discovered when
   * the server starts (failing the start when they cannot be), and the protected-resource
   * metadata is served beside the endpoint. `resource` defaults to the endpoint's URL; behind a
   * proxy, give the public one.
   */
  auth?: (Omit<OAuthResourceOptions, 'resource'> & { resource?: string }) | undefined
}

export interface RunningHttpServer {
  /** The MCP endpoint, e.g. `http://127.0.0.1:3000/mcp`. */
  readonly url: string
  readonly host: string
  readonly port: number
  readonly server: Server
  readonly handler: HttpHandler
  /** The connection cap in force (0: none). */
  readonly maxConnections: number
  /** Open connections, and how many were refused at the cap or shed to make room. */
  connections(): ConnectionStats
  /** Graceful close (see HttpHandler.close); resolves once the port is released. */
  close(options?: { graceMs?: number }): Promise<void>
}

const wildcardHosts = new Set(['0.0.0.0', '::', '[::]', ''])
/** A connection waiting this long for a complete request may be shed when connections run short. */
const slowAfterMs = 1000

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
  let settleOAuth: ((resource: Promise<OAuthResource>) => void) | undefined
  const oauth =
    options.auth === undefined
      ? options.oauth
      : new Promise<OAuthResource>((resolve) => {
          settleOAuth = resolve
        })
  // With a store, every instance signs requestState with one key and hears every instance's changes.
  const store = options.store
  const feed = store === undefined ? undefined : await sharedChangeFeed(store, registry, options.onError)
  const shared =
    store === undefined
      ? {}
      : {
          stateKey: options.stateKey ?? (await sharedStateKey(store)),
          changes: options.changes ?? feed,
          tasks: { ...options.tasks, store: options.tasks?.store ?? store.taskStore() },
          sharedSessions:
            options.stateless === true
              ? undefined
              : await sharedSessions(store, {
                  idleMs: options.sessionIdleMs ?? 600_000,
                  maxLifetimeMs: options.sessionMaxLifetimeMs ?? 24 * 60 * 60 * 1000,
                  maxLoggedEvents: options.eventLogSize ?? 1000,
                  report: options.onError,
                }),
        }
  const handler = createHttpHandler(registry, {
    ...options,
    ...shared,
    ready: options.ready ?? (store === undefined ? undefined : () => store.ready()),
    allowedHosts,
    oauth,
  })
  const headersTimeout = options.headersTimeoutMs ?? 10_000
  const requestTimeout =
    options.requestTimeoutMs ?? headersTimeout + (options.bodyTimeoutMs ?? defaultBodyTimeoutMs) + 1000
  const server = createServer(
    {
      keepAliveTimeout: 5000,
      // node:http refuses a headers timeout longer than the request timeout.
      headersTimeout: requestTimeout > 0 ? Math.min(headersTimeout, requestTimeout) : headersTimeout,
      requestTimeout,
      // The timeouts are checked on this beat (node's default, 30 s, would make them meaningless).
      connectionsCheckingInterval: Math.max(100, Math.min(1000, headersTimeout / 4)),
    },
    handler.handle,
  )
  const maxConnections = options.maxConnections ?? connectionCapFor(readOpenFileLimit())
  const guard = guardConnections(server, { maxConnections, slowAfterMs })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject)
      resolve()
    })
  }).catch((error: unknown) => {
    guard.dispose()
    void handler.close({ graceMs: 0 })
    void feed?.close()
    void shared.sharedSessions?.close()
    throw error
  })
  server.on('error', (error) => options.onError?.(error))
  const address = server.address() as AddressInfo
  const path = options.path ?? '/mcp'
  const url = `http://${urlHost(wildcardHosts.has(host) ? '127.0.0.1' : host)}:${address.port}${path}`
  if (options.auth !== undefined && settleOAuth !== undefined) {
    const resource = createOAuthResource({ ...options.auth, resource: options.auth.resource ?? url })
    settleOAuth(resource)
    try {
      await resource
    } catch (error) {
      guard.dispose()
      await handler.close({ graceMs: 0 })
      await new Promise<void>((resolve) => server.close(() => resolve()))
      await feed?.close()
      await shared.sharedSessions?.close()
      throw error
    }
  }
  let closed: Promise<void> | undefined
  return {
    url,
    host,
    port: address.port,
    server,
    handler,
    maxConnections,
    connections: guard.stats,
    close(closeOptions = {}) {
      closed ??= (async () => {
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()))
        guard.dispose()
        await handler.close(closeOptions)
        server.closeIdleConnections()
        // Whatever is still open after the grace period (a stuck upload) is cut.
        const timer = setTimeout(() => server.closeAllConnections(), 1000)
        timer.unref()
        await stopped
        clearTimeout(timer)
        await feed?.close()
        await shared.sharedSessions?.close()
      })()
      return closed
    },
  }
}
