// The session table's side of 2025 sessions shared by several instances (store/shared-sessions.ts):
// a request asks the store for its session (renewing it, taking the state another instance
// stored) unless this instance's copy was checked within the last second and nothing said it
// changed since; a session this instance has no copy of is adopted (a transport and protocol
// server made from its record); and what other instances pass on — a session changed or ended,
// an answer to a question asked here, a cancellation — reaches the local copy. A busy session
// thus costs the store one read a second per instance, not one per request.

import { defaultLegacyVersion } from '@mcp-kit/core'
import type { SessionRecord, SharedSessions } from '../../store/shared-sessions.js'
import { HttpSessionTransport, type SessionHub } from './session.js'
import type { SessionEntry, SessionTable } from './table.js'

export interface SessionSharing {
  /** Links a new session's transport to the store (its state is stored, its answers routed). */
  link(transport: HttpSessionTransport, entry: SessionEntry, initial?: SessionRecord): void
  /**
   * The session `id` for a request by `identity`: this instance's copy (at once when it was
   * checked lately), refreshed, or a new copy.
   */
  session(
    id: string,
    identity: string | undefined,
  ): SessionEntry | undefined | Promise<SessionEntry | undefined>
}

/** How long a copy checked against the store serves requests without asking again. */
const recheckMs = 1000

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
      expectAnswer: (questionId) => shared.expectAnswer(entry.id, questionId),
      broadcastCancel: (params) => shared.broadcastCancel(entry.id, params),
    }
  }

  function adopt(id: string, record: SessionRecord): Promise<SessionEntry> {
    let pending = adopting.get(id)
    if (pending === undefined) {
      const transport = new HttpSessionTransport(
        id,
        record.protocolVersion ?? defaultLegacyVersion,
        hub,
        shared,
      )
      const entry: SessionEntry = {
        id,
        transport,
        clientKey: record.clientKey,
        createdAt: record.createdAt,
        owner: record.owner,
        adopted: true,
      }
      link(transport, entry, record)
      // A copy is made room for like a new session (an idle copy goes); if none can go, the
      // session is served anyway: it exists, only its copy here is new.
      sessions.makeRoom()
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
  shared.onChanged((id) => {
    const local = sessions.get(id)
    if (local !== undefined) local.transport.storeCheckedAt = undefined
  })

  async function check(id: string, identity: string | undefined): Promise<SessionEntry | undefined> {
    const started = hub.now()
    const record = await shared.load(id)
    const local = sessions.get(id)
    if (record === undefined) {
      if (local !== undefined) sessions.close(local)
      return undefined
    }
    // Another user's session id is as good as unknown.
    if ((record.owner ?? undefined) !== identity) return undefined
    const entry = local ?? (await adopt(id, record))
    if (local !== undefined) local.transport.sessionLink?.refresh?.(record)
    entry.transport.storeCheckedAt = started
    return entry
  }
  shared.onAnswer((id, message) => sessions.get(id)?.transport.sessionLink?.deliver?.(message))
  // Answers routed here while the store was away were sent as messages nobody heard: they wait
  // under keys, one per question still open here.
  shared.onReconnect(() => {
    for (const entry of sessions.values()) {
      const link = entry.transport.sessionLink
      for (const questionId of link?.pendingQuestions?.() ?? []) {
        shared
          .takeAnswer(entry.id, questionId)
          .then((answer) => answer !== undefined && link?.deliver?.(answer))
          .catch(() => {})
      }
    }
  })
  shared.onCancel((id, params) =>
    sessions
      .get(id)
      ?.transport.sessionLink?.deliver?.({ jsonrpc: '2.0', method: 'notifications/cancelled', params }),
  )

  return {
    link,
    session(id, identity) {
      const local = sessions.get(id)
      const checked = local?.transport.storeCheckedAt
      if (local !== undefined && checked !== undefined && hub.now() - checked < recheckMs)
        return local.owner === identity ? local : undefined
      return check(id, identity)
    },
  }
}
