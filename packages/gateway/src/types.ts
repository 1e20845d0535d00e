// What a gateway is made of: its upstreams (how to reach each, what of it to offer and under
// which names) and how it runs them.

import type { ConnectOptions, CredentialStore, Root, ServerSpec, Tool } from '@mcp-kit/client'
import type { Store } from '@mcp-kit/server'
import type { AuditLogOptions } from './audit/audit-log.js'
import type { LimitSpec } from './limits/limits-types.js'
import type { NameFilter } from './naming.js'
import type { PolicySpec } from './policy/policy-types.js'
import type { TracingOptions } from './telemetry/tracing.js'

export type { NameFilter } from './naming.js'

export interface UpstreamOptions {
  /** The upstream's name: in logs, traces, /healthz and (by default) its namespace. */
  name: string
  server: ServerSpec
  /** Put before each tool and prompt name (default `<name>__`; '' offers the names as they are). */
  prefix?: string
  /** Which tools to offer, by the upstream's own names. */
  tools?: NameFilter
  /** Which resources and resource templates to offer, by URI or URI template. */
  resources?: NameFilter
  /** Which prompts to offer, by the upstream's own names. */
  prompts?: NameFilter
  /** How this HTTP upstream's OAuth client is set up (a pre-registered client, client_credentials). */
  oauth?: UpstreamOAuth
  /** Connection settings for this upstream (environment, headers, timeouts…); an `oauth` here replaces the above. */
  connect?: ConnectOptions
  /**
   * The tools a profile recorded and what to do when the upstream's differ (the profile's
   * `schema_validation`): `warn` reports each change, `error` also hides the changed tools.
   */
  drift?: { policy: 'warn' | 'error' | 'ignore'; tools: readonly Tool[] }
}

/**
 * An HTTP upstream's OAuth client. `client_credentials` (the default when a `clientSecret` is
 * given): the client gets tokens for itself, for unattended gateways. `authorization_code`: a
 * user's stored login (`GatewayOptions.credentials`), refreshed with this pre-registered client.
 */
export interface UpstreamOAuth {
  clientId?: string
  clientSecret?: string
  scope?: string
  grant?: 'authorization_code' | 'client_credentials'
  /**
   * The issuer of the authorization server the client is registered with: `clientSecret` goes
   * there and nowhere else, whatever authorization server the upstream's metadata names. Without
   * it, the first authorization server the secret is sent to is the only one it is sent to.
   */
  issuer?: string
}

export type UpstreamState = 'idle' | 'starting' | 'running' | 'restarting' | 'failed' | 'stopped'

/** What the gateway reports about its upstreams (logs with -v; a test's view). */
export type GatewayEvent =
  | { type: 'started'; upstream: string; pid?: number; protocolVersion: string; ms: number }
  | { type: 'stopped'; upstream: string; reason: 'idle' | 'shutdown' }
  | { type: 'failed'; upstream: string; message: string; retryInMs?: number }
  | { type: 'refreshed'; upstream: string; tools: number; resources: number; prompts: number }
  | { type: 'skipped'; upstream: string; what: string; reason: string }
  | { type: 'drift'; upstream: string; tool: string; message: string; hidden: boolean }
  | { type: 'log'; upstream: string; level: string; data: unknown }

/** Remembered discovery results, so lazy upstreams can be offered before they start. */
export interface DiscoveryCache {
  get(key: string): Discovery | undefined
  set(key: string, discovery: Discovery): void
}

export interface Discovery {
  tools: Tool[]
  resources: Array<Record<string, unknown> & { uri: string; name: string }>
  resourceTemplates: Array<Record<string, unknown> & { uriTemplate: string; name: string }>
  prompts: Array<Record<string, unknown> & { name: string }>
  /** When it was listed (ms since the epoch). */
  listedAt: number
}

export interface GatewayOptions {
  upstreams: readonly UpstreamOptions[]
  /** Connection settings every upstream starts from. */
  connect?: ConnectOptions
  /** Start every upstream at once instead of on first use. */
  eager?: boolean
  /**
   * Stop an upstream after this long without calls (default: never). A user's own session of a
   * 2025-11-25 upstream (see `maxUserSessions`) stops after this long too (default 10 minutes).
   */
  idleStopMs?: number
  /**
   * Sessions a 2025-11-25 upstream may have at once, one per caller in calls (default 32; for
   * stdio, one process each): such upstreams keep state per session, so callers never share one.
   * A caller is a principal with its client's session: each 2025 client session is one, and a
   * principal's 2026 calls (which have no session) together are one. The longest idle makes
   * room; with all in calls, a new caller's call is refused.
   */
  maxUserSessions?: number
  /** Delay before the first restart after a crash, doubled each time up to `maxRestartDelayMs`. */
  restartDelayMs?: number
  maxRestartDelayMs?: number
  /**
   * Roots to give upstreams that ask (`roots/list`). Without them the gateway declares no roots
   * capability, and servers use their own configuration (server-filesystem: its arguments).
   */
  roots?: readonly Root[]
  /**
   * Where users' logins are (`mcp-kit auth login`): an HTTP upstream that asks for OAuth uses the
   * login stored for its URL, refreshed as it expires, and re-read at each start, so a new login
   * is picked up by the next retry. A gateway never starts a login (no browser): without a usable
   * one the upstream fails, saying so. Without this, only `oauth` client_credentials upstreams
   * get tokens.
   */
  credentials?: CredentialStore
  /** What to tell an operator to run to log in to an upstream (e.g. `mcp-kit auth login mcp+URL`). */
  loginHint?: (upstream: UpstreamOptions) => string
  /** Where discovery results are remembered between runs (lazy start needs them). */
  cache?: DiscoveryCache
  onEvent?: (event: GatewayEvent) => void
  /**
   * Who may list and use which tools, resources and prompts (rules over principals; the README's
   * "Policy"). A denied item is hidden from that caller's lists and answers as a missing one.
   * Without it: everything the server's authentication lets through, as before.
   */
  policy?: PolicySpec | undefined
  /** Rate limits (token buckets) and concurrency caps per upstream (the README's "Limits"). */
  limits?: readonly LimitSpec[] | undefined
  /** Where rate-limit buckets live: a shared store (Redis) makes limits hold across instances. */
  store?: Store | undefined
  /** One NDJSON record per call (the README's "Audit log"); `arguments`/`results` add them, secrets redacted. */
  audit?: (AuditLogOptions & { arguments?: boolean; results?: boolean }) | undefined
  /**
   * Prometheus metrics (needs `prom-client`): `Gateway.metrics()` renders them. `sessions`
   * reports the server's sessions as a gauge.
   */
  metrics?: boolean | { sessions?: () => number } | undefined
  /** OpenTelemetry traces and metrics over OTLP/HTTP (needs the `@opentelemetry` packages). */
  tracing?: TracingOptions | undefined
}
