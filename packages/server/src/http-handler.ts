// The Streamable HTTP endpoint (MCP 2026-07-28 per request, 2025 revisions in sessions) as a node:http request handler, with the
// secure defaults of DESIGN.md "HTTP server defaults". This module routes and owns the
// lifecycle (keep-alives, stats, graceful close); each concern lives beside it:
//   http-admission.ts         Host/Origin checks, CORS preflight, bearer token (403, 204, 401)
//   http-post.ts              POST: media types, body, JSON-RPC validity, to a session or stateless
//   body-reader.ts            reading a body within its size limit and deadline (413, 408)
//   http-session-requests.ts  GET (open or resume an SSE stream) and DELETE (end a session)
//   session-table.ts          sessions: create, look up, expire (idle, lifetime), cap (all, per client)
//   client-key.ts             who a client is, for the per-client cap
//   stateless-exchange.ts     stateless mode: one protocol server per POST
//   http-modern.ts            a 2026-07-28 request: served on its own, answer as JSON or SSE
//   http-session.ts           the transport of one session: its exchanges, answered as JSON or SSE
//   http-session-streams.ts   its SSE streams: framing, the event log for replay, the standalone stream
//   http-shared-sessions.ts   sessions shared by several instances on a store: adopt, refresh, relay
//   http-shared-streams.ts    their SSE streams: the standalone stream and resumes from the store
//   protocol-binding.ts       the seam: what answers the messages (a protocol server)
//   http-answers.ts           JSON-RPC error answers; refusals close their connection

import { randomUUID } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { OAuthResource } from './auth/oauth-resource.js'
import { defaultClientKey } from './client-key.js'
import { negotiate } from './content-negotiation.js'
import type { AuthInfo } from './context.js'
import { rpcCodes } from './errors.js'
import { type Admission, allowedMethods, createAdmission } from './http-admission.js'
import { refuse, sendError } from './http-answers.js'
import type { HttpEndpoint } from './http-endpoint.js'
import { type ModernExchange, serveModern } from './http-modern.js'
import { handlePost } from './http-post.js'
import { HttpSessionTransport, type SessionHub } from './http-session.js'
import { handleDelete, handleGet } from './http-session-requests.js'
import { keepAliveComment } from './http-session-streams.js'
import { shareSessions } from './http-shared-sessions.js'
import { createServerCore, type ProtocolServerOptions } from './protocol/server.js'
import { defaultLegacyVersion } from './protocol/versions.js'
import { createProtocolBinding } from './protocol-binding.js'
import type { ToolRegistry } from './registry.js'
import type { GuardOptions } from './request-guard.js'
import { createRuntime, type Runtime, type RuntimeOptions } from './runtime.js'
import { errorMessage } from './runtime-calls.js'
import { createSessionTable, type SessionEntry } from './session-table.js'
import { createStatelessExchanges } from './stateless-exchange.js'
import type { SharedSessions } from './store/shared-sessions.js'

export interface HttpHandlerOptions
  extends Omit<ProtocolServerOptions, 'onError'>,
    RuntimeOptions,
    GuardOptions {
  /** The MCP endpoint's path (default `/mcp`). `/healthz` answers 200 besides. */
  path?: string
  /** Extra fields for the `/healthz` answer (a gateway reports its upstreams). */
  health?: () => Record<string, unknown>
  /** False while the server cannot serve (its store is away): /healthz answers 503. */
  ready?: () => boolean
  /** No sessions: every POST is served by a fresh protocol server; GET and DELETE answer 405. */
  stateless?: boolean
  /** Live sessions allowed at once; initialize beyond it gets 503 with Retry-After (default 1000). */
  maxSessions?: number
  /**
   * Live sessions one client may hold, so one client cannot take every slot; its initialize
   * beyond it gets 503 with Retry-After (default a quarter of `maxSessions`, at least 1).
   */
  maxSessionsPerClient?: number
  /**
   * Who a request's client is, for `maxSessionsPerClient` (default: the identity the auth layer
   * gives a client when it tells clients apart, else the remote address, IPv6 per /64; a
   * shared `token` tells no client apart). Behind a reverse proxy, key on what it forwards.
   */
  sessionClientKey?: (request: IncomingMessage, authInfo: AuthInfo | undefined) => string
  /**
   * A session without requests for this long is closed, its streams ended (default 600 000 ms).
   * A request in flight keeps it; an open GET stream does not.
   */
  sessionIdleMs?: number
  /** A session is closed this long after initialize, busy or not (default 24 h; 0: no limit). */
  sessionMaxLifetimeMs?: number
  /** Largest request body in bytes; larger gets 413 and the connection is closed (default 4 MiB). */
  bodyLimitBytes?: number
  /**
   * A POST body must have arrived in full this long after its headers, or it gets 408 and the
   * connection is closed (default 10 000 ms; 0: no deadline). 4 MiB in 10 s needs 420 KB/s.
   */
  bodyTimeoutMs?: number
  /** Interval of SSE keep-alive comments; calls running longer switch to SSE to get them (default 15 000 ms). */
  keepAliveMs?: number
  /** The SSE `retry:` hint: how long a client waits before reconnecting (default 1000 ms). */
  retryMs?: number
  /** SSE events a session keeps for Last-Event-ID replay (default 1000, and at most 8 MiB). */
  eventLogSize?: number
  /** Serve this runtime instead of a new one over the registry. */
  runtime?: Runtime
  /** Diagnostics for the operator (never sent to clients). */
  onError?: (error: Error) => void
  /**
   * Require OAuth access tokens from this authorization server (auth/oauth-resource.ts), served
   * with protected-resource metadata; tools' `scopes` are checked on each call (403 with a
   * step-up challenge). Replaces `token`. A promise is waited for by the first requests.
   */
  oauth?: OAuthResource | Promise<OAuthResource>
  /** Session id generator (default crypto.randomUUID). */
  createSessionId?: () => string
  /**
   * 2025 sessions shared with other instances through a store (startHttpServer makes them from
   * its `store`): any instance serves any session, resumes its streams, routes its answers.
   */
  sharedSessions?: SharedSessions
}

export interface HttpHandlerStats {
  sessions: number
  /** Requests being answered now. */
  inFlight: number
  /** Open SSE responses. */
  streams: number
}

export interface HttpHandler {
  /** The node:http request listener: `createServer(handler.handle)`. */
  readonly handle: (request: IncomingMessage, response: ServerResponse) => void
  readonly runtime: Runtime
  stats(): HttpHandlerStats
  /**
   * Graceful close: new work gets 503, in-flight requests get up to `graceMs` (default 10 000)
   * to finish, then every session is closed and every stream ended.
   */
  close(options?: { graceMs?: number }): Promise<void>
}

const mebibyte = 1024 * 1024
export const defaultBodyTimeoutMs = 10_000

/** Creates the request handler; `registry` is served by one runtime shared by all sessions. */
export function createHttpHandler(registry: ToolRegistry, options: HttpHandlerOptions = {}): HttpHandler {
  const runtime = options.runtime ?? createRuntime(registry, options)
  const path = options.path ?? '/mcp'
  const stateless = options.stateless === true
  const keepAliveMs = options.keepAliveMs ?? 15_000
  const createSessionId = options.createSessionId ?? randomUUID
  const oauth = options.oauth === undefined ? undefined : Promise.resolve(options.oauth)
  let oauthResource: OAuthResource | undefined
  oauth?.then(
    (resource) => {
      oauthResource = resource
    },
    () => {},
  )
  const admit = createAdmission({ ...options, oauth })
  const onError = options.onError
  const core = createServerCore(runtime, {
    name: options.name,
    version: options.version,
    instructions: options.instructions,
    stateKey: options.stateKey,
    changes: options.changes,
    tasks: options.tasks,
    questionTimeoutMs: options.questionTimeoutMs,
    onError,
  })
  const connectProtocol = createProtocolBinding(core)
  const modernExchanges = new Set<ModernExchange>()
  let inFlight = 0
  let closing = false
  let closed: Promise<void> | undefined
  let drained: (() => void) | undefined

  function report(error: unknown): void {
    onError?.(error instanceof Error ? error : new Error(errorMessage(error)))
  }

  const hub: SessionHub = {
    retryMs: options.retryMs ?? 1000,
    maximumLoggedEvents: options.eventLogSize ?? 1000,
    maximumLoggedBytes: 8 * mebibyte,
    liveStreams: new Set(),
    exchangeEnded() {
      inFlight -= 1
      if (inFlight === 0) drained?.()
    },
    now: Date.now,
  }
  const maxSessions = options.maxSessions ?? 1000
  const sessions = createSessionTable({
    maxSessions,
    maxSessionsPerClient: options.maxSessionsPerClient ?? Math.max(1, Math.floor(maxSessions / 4)),
    idleMs: options.sessionIdleMs ?? 600_000,
    maxLifetimeMs: options.sessionMaxLifetimeMs ?? 24 * 60 * 60 * 1000,
    report,
    now: Date.now,
  })
  const sessionClientKey = options.sessionClientKey
  const statelessExchanges = createStatelessExchanges(hub, connectProtocol, report)
  const shared = stateless ? undefined : options.sharedSessions

  async function connectSession(entry: SessionEntry): Promise<void> {
    const { id, transport } = entry
    transport.onerror = report
    // In the table before connecting, so initializes arriving meanwhile count against the cap.
    sessions.add(entry)
    await connectProtocol(transport, () => sessions.forget(id, transport))
  }

  const sharing =
    shared === undefined ? undefined : shareSessions({ shared, sessions, hub, connect: connectSession })

  const endpoint: HttpEndpoint = {
    stateless,
    get closing() {
      return closing
    },
    bodyLimits: {
      maximumBytes: options.bodyLimitBytes ?? 4 * mebibyte,
      timeoutMs: options.bodyTimeoutMs ?? defaultBodyTimeoutMs,
    },
    sessions,
    hub,
    statelessExchanges,
    clientKey(request, admission) {
      return sessionClientKey === undefined
        ? defaultClientKey(request, admission.clientIdentity)
        : sessionClientKey(request, admission.authInfo)
    },
    session(id, admission) {
      if (sharing !== undefined) return sharing.session(id, admission.clientIdentity)
      const entry = sessions.get(id)
      // Another user's session id is as good as unknown: 404, nothing said about it.
      return entry === undefined || entry.owner !== admission.clientIdentity ? undefined : entry
    },
    async openSession(clientKey, owner) {
      const id = createSessionId()
      const transport = new HttpSessionTransport(id, defaultLegacyVersion, hub, shared)
      const entry: SessionEntry = { id, transport, clientKey, createdAt: Date.now(), owner }
      sharing?.link(transport, entry)
      await connectSession(entry)
      return entry
    },
    async endSession(entry) {
      sessions.close(entry)
      await shared?.remove(entry.id)
    },
    serveModern(message, request, response, admission) {
      serveModern(message, {
        core,
        request,
        response,
        negotiation: negotiate(request.headers.accept),
        headers: admission.headers,
        authInfo: admission.authInfo,
        exchanges: modernExchanges,
        onEnd: () => hub.exchangeEnded(),
      })
    },
    scopeRefusal(message, admission) {
      if (oauthResource === undefined || message.method !== 'tools/call') return undefined
      const name = (message.params as { name?: unknown } | undefined)?.name
      const needed = typeof name === 'string' ? registry.tools.get(name)?.scopes : undefined
      return needed === undefined ? undefined : oauthResource.checkScopes(admission.authInfo, needed)
    },
    exchangeStarted() {
      inFlight += 1
    },
    report,
  }

  const keepAliveTimer = setInterval(() => {
    const olderThan = Date.now() - keepAliveMs
    for (const session of sessions.values()) session.transport.upgradeSlowExchanges(olderThan)
    for (const stream of hub.liveStreams) if (!stream.destroyed) stream.write(keepAliveComment)
    for (const exchange of modernExchanges) {
      if (exchange.startedAt <= olderThan) exchange.upgrade()
      const stream = exchange.stream
      if (stream !== undefined && !stream.destroyed) stream.write(keepAliveComment)
    }
  }, keepAliveMs)
  keepAliveTimer.unref()

  /** RFC 9728 protected-resource metadata, public to any origin; false when not its path. */
  function serveMetadata(request: IncomingMessage, response: ServerResponse, pathname: string): boolean {
    if (!oauthResource?.metadataPaths.includes(pathname)) return false
    request.resume()
    const body = JSON.stringify(oauthResource.metadata)
    response.writeHead(200, [
      'content-type',
      'application/json',
      'content-length',
      String(Buffer.byteLength(body)),
      'access-control-allow-origin',
      '*',
      'cache-control',
      'max-age=300',
    ])
    response.end(request.method === 'HEAD' ? undefined : body)
    return true
  }

  function route(request: IncomingMessage, response: ServerResponse): void {
    const url = request.url ?? '/'
    const queryAt = url.indexOf('?')
    const pathname = queryAt === -1 ? url : url.slice(0, queryAt)
    if (pathname !== path) {
      if (oauth !== undefined && (request.method === 'GET' || request.method === 'HEAD')) {
        if (serveMetadata(request, response, pathname)) return
      }
      if (pathname === '/healthz' && (request.method === 'GET' || request.method === 'HEAD')) {
        const ready = options.ready?.() ?? true
        const body = JSON.stringify({ status: ready ? 'ok' : 'unavailable', ...options.health?.() })
        response.writeHead(ready ? 200 : 503, [
          'content-type',
          'application/json',
          'content-length',
          String(body.length),
        ])
        response.end(request.method === 'HEAD' ? undefined : body)
        return
      }
      refuse(request, response, 404, rpcCodes.transportError, `Not Found: the MCP endpoint is ${path}`)
      return
    }
    const admitted = admit(request, response)
    if (admitted === undefined) return
    if (admitted instanceof Promise) {
      admitted.then(
        (admission) => {
          if (admission !== undefined) dispatch(request, response, admission)
        },
        (error: unknown) => {
          report(error)
          sendError(response, 503, rpcCodes.transportError, 'Service Unavailable: cannot check tokens now', [
            'retry-after',
            '5',
          ])
        },
      )
      return
    }
    dispatch(request, response, admitted)
  }

  function dispatch(request: IncomingMessage, response: ServerResponse, admission: Admission): void {
    switch (request.method) {
      case 'POST':
        handlePost(endpoint, request, response, admission)
        return
      case 'GET':
        request.resume()
        handleGet(endpoint, request, response, admission)
        return
      case 'DELETE':
        request.resume()
        handleDelete(endpoint, request, response, admission)
        return
      default:
        refuse(request, response, 405, rpcCodes.transportError, 'Method Not Allowed', [
          ...admission.headers,
          'allow',
          stateless ? 'POST, OPTIONS' : allowedMethods,
        ])
        return
    }
  }

  return {
    runtime,
    handle(request, response) {
      try {
        route(request, response)
      } catch (error) {
        // Hostile or unexpected input must never take the process down or leak a stack.
        report(error)
        try {
          sendError(response, 500, rpcCodes.internalError, 'Internal error')
        } catch {
          response.destroy()
        }
      }
    },
    stats() {
      return { sessions: sessions.size, inFlight, streams: hub.liveStreams.size }
    },
    close(closeOptions = {}) {
      if (closed !== undefined) return closed
      closing = true
      clearInterval(keepAliveTimer)
      sessions.dispose()
      const graceMs = closeOptions.graceMs ?? 10_000
      // Open 2026-07-28 subscriptions end gracefully now (a final result), not at the grace's end.
      const tasksEnded = core.modern.close(graceMs)
      const requestsEnded = new Promise<void>((resolve) => {
        let timer: NodeJS.Timeout | undefined
        const finish = () => {
          if (timer !== undefined) clearTimeout(timer)
          drained = undefined
          sessions.closeAll()
          statelessExchanges.closeAll()
          for (const exchange of [...modernExchanges]) exchange.close()
          for (const stream of hub.liveStreams) stream.end()
          hub.liveStreams.clear()
          resolve()
        }
        if (inFlight <= 0) {
          finish()
          return
        }
        drained = finish
        timer = setTimeout(finish, graceMs)
        timer.unref()
      })
      closed = Promise.all([requestsEnded, tasksEnded]).then(() => {})
      return closed
    },
  }
}
