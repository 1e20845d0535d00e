// The Streamable HTTP endpoint (MCP 2026-07-28 per request, 2025 revisions in sessions) as a
// node:http request handler with the secure defaults of docs/architecture.md "HTTP server
// defaults": it puts the parts of this folder together and hands each request to the router.

import { randomUUID } from 'node:crypto'
import type { OAuthResource } from '../auth/oauth-resource.js'
import { errorMessage, rpcCodes } from '../errors.js'
import { defaultLegacyVersion } from '../protocol/versions.js'
import type { ToolRegistry } from '../registry/registry.js'
import { createRuntime } from '../runtime/runtime.js'
import { createServerCore } from '../server/core.js'
import { isLingering, sendError } from './answers.js'
import { negotiate } from './content-negotiation.js'
import type { HttpEndpoint } from './endpoint.js'
import { createAdmission } from './guard/admission.js'
import type { HttpHandler, HttpHandlerOptions } from './handler-types.js'
import { startLifecycle } from './lifecycle.js'
import { type ModernExchange, serveModern } from './modern.js'
import { createProtocolBinding } from './protocol-binding.js'
import { createRouter } from './routes.js'
import { defaultClientKey } from './sessions/client-key.js'
import { HttpSessionTransport, type SessionHub } from './sessions/session.js'
import { shareSessions } from './sessions/shared-sessions.js'
import { createSessionTable, type SessionEntry } from './sessions/table.js'
import { createStatelessExchanges } from './stateless-exchange.js'

export type * from './handler-types.js'

const mebibyte = 1024 * 1024
export const defaultBodyTimeoutMs = 10_000

/** Creates the request handler; `registry` is served by one runtime shared by all sessions. */
export function createHttpHandler(registry: ToolRegistry, options: HttpHandlerOptions = {}): HttpHandler {
  const runtime = options.runtime ?? createRuntime(registry, options)
  const path = options.path ?? '/mcp'
  const stateless = options.stateless === true
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

  function report(error: unknown): void {
    onError?.(error instanceof Error ? error : new Error(errorMessage(error)))
  }

  const hub: SessionHub = {
    retryMs: options.retryMs ?? 1000,
    maximumLoggedEvents: options.eventLogSize ?? 1000,
    maximumLoggedBytes: 8 * mebibyte,
    liveStreams: new Set(),
    exchangeEnded() {
      lifecycle.exchangeEnded()
    },
    now: Date.now,
  }
  const maxSessions = options.maxSessions ?? 1000
  const sessions = createSessionTable({
    maxSessions,
    maxSessionsPerClient: options.maxSessionsPerClient ?? Math.max(1, Math.floor(maxSessions / 4)),
    idleMs: options.sessionIdleMs ?? 600_000,
    dropIdleWhenFull: !stateless && options.sharedSessions !== undefined,
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

  const lifecycle = startLifecycle({
    keepAliveMs: options.keepAliveMs ?? 15_000,
    sessions,
    statelessExchanges,
    modernExchanges,
    liveStreams: hub.liveStreams,
    modern: core.modern,
  })

  const endpoint: HttpEndpoint = {
    stateless,
    get closing() {
      return lifecycle.closing
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
      lifecycle.exchangeStarted()
    },
    report,
  }

  const route = createRouter({
    path,
    endpoint,
    admit,
    oauth,
    oauthResource: () => oauthResource,
    probes: options,
    routes: options.routes,
  })

  return {
    runtime,
    handle(request, response) {
      // A request pipelined behind a refused one: its connection is closing, nothing is served.
      if (isLingering(request)) {
        request.resume()
        return
      }
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
      return { sessions: sessions.size, inFlight: lifecycle.inFlight, streams: hub.liveStreams.size }
    },
    close(closeOptions = {}) {
      return lifecycle.close(closeOptions.graceMs ?? 10_000)
    },
  }
}
