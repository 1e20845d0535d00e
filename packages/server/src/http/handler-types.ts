// The types of the Streamable HTTP handler (handler.ts): its options, with the secure
// defaults of docs/architecture.md "HTTP server defaults", and the handler it returns.

import type { IncomingMessage, ServerResponse } from 'node:http'
import type { OAuthResource } from '../auth/oauth-resource.js'
import type { AuthInfo } from '../context.js'
import type { Runtime, RuntimeOptions } from '../runtime/runtime.js'
import type { ProtocolServerOptions } from '../server/core.js'
import type { SharedSessions } from '../store/shared-sessions.js'
import type { GuardOptions } from './guard/request-guard.js'

export interface HttpHandlerOptions
  extends Omit<ProtocolServerOptions, 'onError'>,
    RuntimeOptions,
    GuardOptions {
  /** The MCP endpoint's path (default `/mcp`). `/healthz` answers 200 besides. */
  path?: string | undefined
  /** Extra fields for the `/healthz` answer (a gateway reports its upstreams). */
  health?: (() => Record<string, unknown>) | undefined
  /** False while the server cannot serve (its store is away): /healthz answers 503. */
  ready?: (() => boolean) | undefined
  /** No sessions: every POST is served by a fresh protocol server; GET and DELETE answer 405. */
  stateless?: boolean | undefined
  /** Live sessions allowed at once; initialize beyond it gets 503 with Retry-After (default 1000). */
  maxSessions?: number | undefined
  /**
   * Live sessions one client may hold, so one client cannot take every slot; its initialize
   * beyond it gets 503 with Retry-After (default a quarter of `maxSessions`, at least 1).
   */
  maxSessionsPerClient?: number | undefined
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
  sessionIdleMs?: number | undefined
  /** A session is closed this long after initialize, busy or not (default 24 h; 0: no limit). */
  sessionMaxLifetimeMs?: number | undefined
  /** Largest request body in bytes; larger gets 413 and the connection is closed (default 4 MiB). */
  bodyLimitBytes?: number | undefined
  /**
   * A POST body must have arrived in full this long after its headers, or it gets 408 and the
   * connection is closed (default 10 000 ms; 0: no deadline). 4 MiB in 10 s needs 420 KB/s.
   */
  bodyTimeoutMs?: number | undefined
  /** Interval of SSE keep-alive comments; calls running longer switch to SSE to get them (default 15 000 ms). */
  keepAliveMs?: number | undefined
  /** The SSE `retry:` hint: how long a client waits before reconnecting (default 1000 ms). */
  retryMs?: number | undefined
  /** SSE events a session keeps for Last-Event-ID replay (default 1000, and at most 8 MiB). */
  eventLogSize?: number | undefined
  /** Serve this runtime instead of a new one over the registry. */
  runtime?: Runtime | undefined
  /** Diagnostics for the operator (never sent to clients). */
  onError?: ((error: Error) => void) | undefined
  /**
   * Require OAuth access tokens from this authorization server (auth/oauth-resource.ts), served
   * with protected-resource metadata; tools' `scopes` are checked on each call (403 with a
   * step-up challenge). Replaces `token`. A promise is waited for by the first requests.
   */
  oauth?: OAuthResource | Promise<OAuthResource> | undefined
  /**
   * Named bearer tokens (API keys): `verifyToken` gets each request's bearer token and returns who
   * it is (an AuthInfo, whose `clientId`, `scopes` and `extra` policies can match), or undefined
   * for an unknown token (401). Each name is a principal of its own (`principalOf`), so sessions,
   * tasks and a gateway's upstream sessions are kept apart per token. Replaces `token`; OAuth
   * (`oauth`) replaces it. Called on every request: keep it a lookup.
   */
  verifyToken?: ((token: string) => AuthInfo | undefined) | undefined
  /**
   * Extra routes beside the MCP endpoint, by path (GET and HEAD), e.g. a gateway's `/metrics`
   * and `/admin/status`. With `auth: true` a request passes the endpoint's Host, Origin and
   * credential checks first and the handler gets its AuthInfo; otherwise it is public.
   */
  routes?: ReadonlyMap<string, ExtraRoute> | undefined
  /**
   * Readiness for `/readyz`: 200 while it says ready, else 503, with its fields in the body
   * (default: `ready`). `/healthz` stays the liveness answer.
   */
  readiness?: (() => { ready: boolean } & Record<string, unknown>) | undefined
  /** Session id generator (default crypto.randomUUID). */
  createSessionId?: (() => string) | undefined
  /**
   * 2025 sessions shared with other instances through a store (startHttpServer makes them from
   * its `store`): any instance serves any session, resumes its streams, routes its answers.
   */
  sharedSessions?: SharedSessions | undefined
}

/** A route beside the MCP endpoint (HttpHandlerOptions.routes). */
export interface ExtraRoute {
  /** Pass the endpoint's credential checks first (401/403 as the endpoint answers them). */
  auth: boolean
  handle(request: IncomingMessage, response: ServerResponse, authInfo: AuthInfo | undefined): void
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
