// One Streamable HTTP endpoint, made once by createHttpHandler (handler.ts) from its options
// with the secure defaults of docs/architecture.md "HTTP server defaults": what every request's
// exchange (exchange.ts) is served with — the body limits, the 2025 session directory, the
// protocol core that answers 2026 requests, the lifecycle that counts requests in flight and
// closes. It routes nothing itself; routes.ts and the stages after it read what they need here.

import { randomUUID } from 'node:crypto'
import type { OAuthResource, Refusal } from '../auth/oauth-resource.js'
import type { AuthInfo } from '../context.js'
import { errorMessage } from '../errors.js'
import type { RpcRequest } from '../protocol/rpc.js'
import type { ToolRegistry } from '../registry/registry.js'
import { createRuntime, type Runtime } from '../runtime/runtime.js'
import { createServerCore, type ServerCore } from '../server/core.js'
import type { BodyLimits } from './guard/body-reader.js'
import type { HttpHandlerOptions, HttpHandlerStats } from './handler-types.js'
import { Lifecycle } from './lifecycle.js'
import { type ConnectProtocol, createProtocolBinding } from './protocol-binding.js'
import { SessionDirectory } from './sessions/directory.js'
import type { SessionHub } from './sessions/session.js'
import { createSessionTable } from './sessions/table.js'

const mebibyte = 1024 * 1024
export const defaultBodyTimeoutMs = 10_000

export class HttpEndpoint {
  readonly runtime: Runtime
  /** No sessions: every POST is served on its own. */
  readonly stateless: boolean
  readonly bodyLimits: BodyLimits
  /** Answers 2026-07-28 requests (server/modern.ts) and puts protocol servers behind 2025 transports. */
  readonly core: ServerCore
  readonly connect: ConnectProtocol
  readonly lifecycle: Lifecycle
  /** What a 2025 transport needs from the endpoint: SSE settings, the end of each exchange, the clock. */
  readonly hub: SessionHub
  readonly sessions: SessionDirectory
  /** The OAuth resource once it is ready (the handler sets it): tools' scopes are checked from then on. */
  oauthResource: OAuthResource | undefined
  readonly #registry: ToolRegistry
  readonly #onError: ((error: Error) => void) | undefined

  constructor(registry: ToolRegistry, options: HttpHandlerOptions) {
    this.#registry = registry
    this.#onError = options.onError
    this.runtime = options.runtime ?? createRuntime(registry, options)
    this.stateless = options.stateless === true
    this.bodyLimits = {
      maximumBytes: options.bodyLimitBytes ?? 4 * mebibyte,
      timeoutMs: options.bodyTimeoutMs ?? defaultBodyTimeoutMs,
    }
    this.core = createServerCore(this.runtime, {
      name: options.name,
      version: options.version,
      instructions: options.instructions,
      stateKey: options.stateKey,
      changes: options.changes,
      tasks: options.tasks,
      questionTimeoutMs: options.questionTimeoutMs,
      onError: options.onError,
    })
    this.connect = createProtocolBinding(this.core)
    const report = this.report
    const maxSessions = options.maxSessions ?? 1000
    const shared = this.stateless ? undefined : options.sharedSessions
    const table = createSessionTable({
      maxSessions,
      maxSessionsPerClient: options.maxSessionsPerClient ?? Math.max(1, Math.floor(maxSessions / 4)),
      idleMs: options.sessionIdleMs ?? 600_000,
      dropIdleWhenFull: shared !== undefined,
      maxLifetimeMs: options.sessionMaxLifetimeMs ?? 24 * 60 * 60 * 1000,
      report,
      now: Date.now,
    })
    const lifecycle = new Lifecycle({
      keepAliveMs: options.keepAliveMs ?? 15_000,
      sessions: table,
      modern: this.core.modern,
      report,
    })
    this.lifecycle = lifecycle
    this.hub = {
      retryMs: options.retryMs ?? 1000,
      maximumLoggedEvents: options.eventLogSize ?? 1000,
      maximumLoggedBytes: 8 * mebibyte,
      liveStreams: lifecycle.liveStreams,
      exchangeEnded: () => lifecycle.exchangeEnded(),
      now: Date.now,
    }
    this.sessions = new SessionDirectory({
      table,
      hub: this.hub,
      connect: this.connect,
      shared,
      createSessionId: options.createSessionId ?? randomUUID,
      clientKey: options.sessionClientKey,
      report,
    })
  }

  /** Diagnostics for the operator (never sent to clients); bound, so it can be handed on as it is. */
  readonly report = (error: unknown): void => {
    this.#onError?.(error instanceof Error ? error : new Error(errorMessage(error)))
  }

  /** The 403 for a call the caller's OAuth token lacks the scopes for (tools' `scopes`). */
  scopeRefusal(message: RpcRequest, authInfo: AuthInfo | undefined): Refusal | undefined {
    const oauthResource = this.oauthResource
    if (oauthResource === undefined || message.method !== 'tools/call') return undefined
    const name = (message.params as { name?: unknown } | undefined)?.name
    const needed = typeof name === 'string' ? this.#registry.tools.get(name)?.scopes : undefined
    return needed === undefined ? undefined : oauthResource.checkScopes(authInfo, needed)
  }

  stats(): HttpHandlerStats {
    const { lifecycle } = this
    return {
      sessions: this.sessions.table.size,
      inFlight: lifecycle.inFlight,
      streams: lifecycle.liveStreams.size,
    }
  }
}
