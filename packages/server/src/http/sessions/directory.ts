// The 2025 sessions of one endpoint as the request path sees them: looked up by id for the
// principal that opened them (another principal's session is as good as unknown), created at
// `initialize` under the per-client cap, deleted by DELETE. Alone, a session lives in the table
// here; shared by several instances, it is also found, adopted and removed through the store
// (shared-sessions.ts).

import type { IncomingMessage } from 'node:http'
import { defaultLegacyVersion } from '@mcp-kit/core'
import type { AuthInfo } from '../../context.js'
import type { SharedSessions } from '../../store/shared-sessions.js'
import type { ConnectProtocol } from '../protocol-binding.js'
import { defaultClientKey } from './client-key.js'
import { HttpSessionTransport, type SessionHub } from './session.js'
import { type SessionSharing, shareSessions } from './shared-sessions.js'
import type { SessionEntry, SessionRefusal, SessionTable } from './table.js'

export interface SessionDirectoryOptions {
  table: SessionTable
  hub: SessionHub
  /** Puts a protocol server behind a new session's transport. */
  connect: ConnectProtocol
  /** The store the sessions are shared through, when several instances serve them. */
  shared: SharedSessions | undefined
  createSessionId: () => string
  /** Who a request's client is, for the per-client cap (HttpHandlerOptions.sessionClientKey). */
  clientKey: ((request: IncomingMessage, authInfo: AuthInfo | undefined) => string) | undefined
  report(error: unknown): void
}

export class SessionDirectory {
  /** The sessions held here: swept, kept alive and closed by the endpoint's lifecycle. */
  readonly table: SessionTable
  readonly #options: SessionDirectoryOptions
  readonly #sharing: SessionSharing | undefined

  constructor(options: SessionDirectoryOptions) {
    this.#options = options
    this.table = options.table
    const { shared, hub } = options
    this.#sharing =
      shared === undefined
        ? undefined
        : shareSessions({ shared, sessions: this.table, hub, connect: (entry) => this.#connect(entry) })
  }

  /** The key a request's client counts its sessions under. */
  clientKey(request: IncomingMessage, authInfo: AuthInfo | undefined, principal: string | undefined): string {
    const custom = this.#options.clientKey
    return custom === undefined ? defaultClientKey(request, principal) : custom(request, authInfo)
  }

  /** Why `clientKey` cannot open one more session now, or undefined when it can. */
  refusal(clientKey: string): SessionRefusal | undefined {
    return this.table.refusal(clientKey)
  }

  /**
   * The live session `id` when `principal` opened it. A promise when sessions are shared (the
   * store is asked, unless this instance's copy was checked within the last second).
   */
  lookup(
    id: string,
    principal: string | undefined,
  ): SessionEntry | undefined | Promise<SessionEntry | undefined> {
    if (this.#sharing !== undefined) return this.#sharing.session(id, principal)
    const entry = this.table.get(id)
    return entry === undefined || entry.owner !== principal ? undefined : entry
  }

  /** Opens a session for `clientKey`, owned by `owner`; it is in the table before this resolves. */
  async create(clientKey: string, owner: string | undefined): Promise<SessionEntry> {
    const { createSessionId, hub, shared } = this.#options
    const id = createSessionId()
    const transport = new HttpSessionTransport(id, defaultLegacyVersion, hub, shared)
    const entry: SessionEntry = { id, transport, clientKey, createdAt: Date.now(), owner }
    this.#sharing?.link(transport, entry)
    await this.#connect(entry)
    return entry
  }

  /** Ends a session, on every instance when shared. */
  async delete(entry: SessionEntry): Promise<void> {
    this.table.close(entry)
    await this.#options.shared?.remove(entry.id)
  }

  async #connect(entry: SessionEntry): Promise<void> {
    const { id, transport } = entry
    transport.onerror = this.#options.report
    // In the table before connecting, so initializes arriving meanwhile count against the cap.
    this.table.add(entry)
    await this.#options.connect(transport, () => this.table.forget(id, transport))
  }
}
