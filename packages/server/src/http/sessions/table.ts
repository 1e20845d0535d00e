// The live sessions of a Streamable HTTP endpoint: created at initialize, looked up by
// Mcp-Session-Id, closed when idle (no requests for the idle time; an open stream is not a
// request) or too old, and capped twice: in all and per client, so one client cannot take every
// slot. A session is its transport: closing the transport ends its streams and closes the
// protocol server behind it. When sessions live in a shared store (several instances), this
// instance also holds copies of sessions others opened: at the cap, the copy idle longest (no
// request running, no stream held) is dropped to make room, and taken again from the store when
// next used. Sessions opened here count as always.

import type { HttpSessionTransport } from './session.js'

export interface SessionEntry {
  readonly id: string
  readonly transport: HttpSessionTransport
  /** Who opened it (see HttpHandlerOptions.sessionClientKey). */
  readonly clientKey: string
  readonly createdAt: number
  /**
   * The principal that opened it (OAuth: auth/principal.ts); only that principal may use it.
   * Undefined without per-user authentication.
   */
  readonly owner?: string
  /** A copy of a session another instance opened, taken from the shared store (it may be dropped). */
  readonly adopted?: boolean
}

export interface SessionTableOptions {
  maxSessions: number
  maxSessionsPerClient: number
  /** Close a session this long after its last request ended. */
  idleMs: number
  /** Close a session this long after it was created, busy or not (0: never). */
  maxLifetimeMs: number
  /** Sessions live in a shared store: an idle entry may be dropped to make room (see above). */
  dropIdleWhenFull?: boolean
  /** Diagnostics for the operator. */
  report(error: unknown): void
  now(): number
}

/** Why a new session cannot be opened now, and when trying again may succeed. */
export interface SessionRefusal {
  limit: 'server' | 'client'
  message: string
  retryAfterSeconds: number
}

export interface SessionTable {
  readonly size: number
  /** The live session with this id. */
  get(id: string): SessionEntry | undefined
  /** Undefined when `clientKey` may open one more session (expired ones are swept first). */
  refusal(clientKey: string): SessionRefusal | undefined
  add(entry: SessionEntry): void
  /** Shared sessions: drops the copies idle longest until the table is below its cap (if it can). */
  makeRoom(): void
  /** Forgets a session whose protocol server closed (if `transport` is still the one under `id`). */
  forget(id: string, transport: HttpSessionTransport): void
  /** Closes a session: its open requests get an error answer and its streams end. */
  close(entry: SessionEntry): void
  /** Closes every session idle for the idle time or older than the lifetime. */
  sweep(): void
  closeAll(): void
  values(): IterableIterator<SessionEntry>
  /** Stops the sweep timer. */
  dispose(): void
}

/** Retry-After when no session is due to expire (all busy with requests, no lifetime). */
const busyRetrySeconds = 5

export function createSessionTable(options: SessionTableOptions): SessionTable {
  const sessions = new Map<string, SessionEntry>()
  const perClient = new Map<string, number>()
  const { idleMs, maxLifetimeMs } = options
  const shortestLimit = maxLifetimeMs > 0 ? Math.min(idleMs, maxLifetimeMs) : idleMs
  const sweepTimer = setInterval(sweep, Math.min(Math.max(shortestLimit / 2, 50), 60_000))
  sweepTimer.unref()

  function remove(entry: SessionEntry): void {
    if (sessions.get(entry.id) !== entry) return
    sessions.delete(entry.id)
    const count = (perClient.get(entry.clientKey) ?? 1) - 1
    if (count === 0) perClient.delete(entry.clientKey)
    else perClient.set(entry.clientKey, count)
  }

  function close(entry: SessionEntry): void {
    remove(entry)
    entry.transport.close().catch(options.report)
  }

  /** When the session will be closed unless a request comes first (Infinity: not while busy). */
  function expiresAt(entry: SessionEntry): number {
    const transport = entry.transport
    const idleAt = transport.exchanges.size === 0 ? transport.lastActivity + idleMs : Number.POSITIVE_INFINITY
    return maxLifetimeMs > 0 ? Math.min(idleAt, entry.createdAt + maxLifetimeMs) : idleAt
  }

  function sweep(): void {
    const now = options.now()
    for (const entry of [...sessions.values()]) if (expiresAt(entry) <= now) close(entry)
  }

  function retryAfterSeconds(clientKey: string | undefined): number {
    let soonest = Number.POSITIVE_INFINITY
    for (const entry of sessions.values()) {
      if (clientKey === undefined || entry.clientKey === clientKey)
        soonest = Math.min(soonest, expiresAt(entry))
    }
    if (soonest === Number.POSITIVE_INFINITY) return busyRetrySeconds
    return Math.max(1, Math.ceil((soonest - options.now()) / 1000))
  }

  /** The copy idle longest that nothing uses now (no request, no stream held here). */
  function idlest(): SessionEntry | undefined {
    let found: SessionEntry | undefined
    for (const entry of sessions.values()) {
      const transport = entry.transport
      if (entry.adopted !== true || transport.exchanges.size > 0 || transport.holdsStandalone) continue
      if (found === undefined || transport.lastActivity < found.transport.lastActivity) found = entry
    }
    return found
  }

  function makeRoom(): void {
    if (options.dropIdleWhenFull !== true) return
    while (sessions.size >= options.maxSessions) {
      const entry = idlest()
      if (entry === undefined) return
      close(entry)
    }
  }

  return {
    get size() {
      return sessions.size
    },
    get(id) {
      const entry = sessions.get(id)
      return entry === undefined || entry.transport.closed ? undefined : entry
    },
    refusal(clientKey) {
      const clientFull = () => (perClient.get(clientKey) ?? 0) >= options.maxSessionsPerClient
      const full = () => sessions.size >= options.maxSessions || clientFull()
      if (full()) sweep()
      // Copies are dropped for room on the server, not for a client over its own cap.
      if (full() && !clientFull()) makeRoom()
      if (!full()) return undefined
      if (clientFull()) {
        return {
          limit: 'client',
          message: `Service Unavailable: too many sessions for this client (limit ${options.maxSessionsPerClient} per client); end one with DELETE or retry later`,
          retryAfterSeconds: retryAfterSeconds(clientKey),
        }
      }
      return {
        limit: 'server',
        message: `Service Unavailable: too many sessions on this server (limit ${options.maxSessions}); retry later`,
        retryAfterSeconds: retryAfterSeconds(undefined),
      }
    },
    add(entry) {
      sessions.set(entry.id, entry)
      perClient.set(entry.clientKey, (perClient.get(entry.clientKey) ?? 0) + 1)
    },
    makeRoom,
    forget(id, transport) {
      const entry = sessions.get(id)
      if (entry?.transport === transport) remove(entry)
    },
    close,
    sweep,
    closeAll() {
      for (const entry of [...sessions.values()]) close(entry)
    },
    values: () => sessions.values(),
    dispose() {
      clearInterval(sweepTimer)
    },
  }
}
