// The session table's side of 2025 sessions shared by several instances (store/shared-sessions.ts):
// every request asks the store for its session (renewing it, taking the state another instance
// stored), a session this instance has no copy of is adopted (a transport and protocol server
// made from its record), and what other instances pass on — a session ended, an answer to a
// question asked here, a cancellation — reaches the local copy.

import { HttpSessionTransport, type SessionHub } from './http-session.js'
import type { SessionEntry, SessionTable } from './session-table.js'
import type { SessionRecord, SharedSessions } from './store/shared-sessions.js'

export interface SessionSharing {
  /** Links a new session's transport to the store (its state is stored, its answers routed). */
  link(transport: HttpSessionTransport, entry: SessionEntry, initial?: SessionRecord): void
  /** The session `id` for a request by `identity`: this instance's copy, refreshed, or a new copy. */
  session(id: string, identity: string | undefined): Promise<SessionEntry | undefined>
}

export function shareSessions(options: {
  shared: SharedSessions
  sessions: SessionTable
  hub: SessionHub
  /** Puts an entry in the table and connects a protocol server to its transport. */
  connect: (entry: SessionEntry) => Promise<void>
}): SessionSharing {
  const { shared, sessions, hub } = options
  /** Sessions being adopted, so two requests at once make one copy. */
  const adopting = new Map<string, Promise<SessionEntry>>()

  function link(transport: HttpSessionTransport, entry: SessionEntry, initial?: SessionRecord): void {
    transport.sessionLink = {
      initial,
      questionTag: shared.instance,
      persist: (state) =>
        shared.save(entry.id, {
          ...state,
          clientKey: entry.clientKey,
          createdAt: entry.createdAt,
          owner: entry.owner,
        }),
      routeAnswer: (message) => shared.routeAnswer(entry.id, message),
      broadcastCancel: (params) => shared.broadcastCancel(entry.id, params),
    }
  }

  function adopt(id: string, record: SessionRecord): Promise<SessionEntry> {
    let pending = adopting.get(id)
    if (pending === undefined) {
      const transport = new HttpSessionTransport(id, record.protocolVersion, hub, shared)
      const entry: SessionEntry = {
        id,
        transport,
        clientKey: record.clientKey,
        createdAt: record.createdAt,
        owner: record.owner,
      }
      link(transport, entry, record)
      pending = options
        .connect(entry)
        .then(() => entry)
        .finally(() => adopting.delete(id))
      adopting.set(id, pending)
    }
    return pending
  }

  shared.onRemoved((id) => {
    const local = sessions.get(id)
    if (local !== undefined) sessions.close(local)
  })
  shared.onAnswer((id, message) => sessions.get(id)?.transport.sessionLink?.deliver?.(message))
  shared.onCancel((id, params) =>
    sessions
      .get(id)
      ?.transport.sessionLink?.deliver?.({ jsonrpc: '2.0', method: 'notifications/cancelled', params }),
  )

  return {
    link,
    async session(id, identity) {
      const record = await shared.load(id)
      const local = sessions.get(id)
      if (record === undefined) {
        if (local !== undefined) sessions.close(local)
        return undefined
      }
      // Another user's session id is as good as unknown.
      if ((record.owner ?? undefined) !== identity) return undefined
      if (local === undefined) return adopt(id, record)
      local.transport.sessionLink?.refresh?.(record)
      return local
    },
  }
}
