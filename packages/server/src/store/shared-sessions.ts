// 2025-11-25 sessions shared by every instance on one Store, so a client's requests may land on
// any instance (no affinity). What lives in the store:
//   session-record:<id>          the session record (negotiated version, client info and
//                                capabilities, log level, resource subscriptions, who opened it),
//                                expiring after the idle time, read (and so renewed) by an
//                                instance at most once a second while it serves the session
//   session-log:<id>:0           the standalone stream's event log: any instance appends to it
//                                (list changes, questions to a JSON-only client), the instance
//                                holding the client's GET stream hears appends on a channel
//   session-log:<id>:<tag>.<n>   a copy of one request's SSE stream written by the instance
//                                running the request, so the client can resume it anywhere
//   session-answer:<id>:<qid>    a question asked by an instance (empty), then the client's
//                                answer when it reached another instance: kept so the asking
//                                instance finds it should it miss the message below
//   instance:<tag>               a heartbeat: an instance whose key expired went away
// and on channels: a session ended (DELETE), a client's answer to a server-to-client request
// (routed to the instance that asked: the request id names it), a client's cancellation of a
// request running elsewhere. On a cluster, `<id>` is written `{<id>}`: a hash tag putting a
// session's keys and its standalone channel in one slot.

import { randomBytes } from 'node:crypto'
import type { RequestId, RpcMessage } from '../protocol/rpc.js'
import type { SessionState } from '../server/legacy-session.js'
import type { Store, StoredEvent } from './store.js'

export interface SessionRecord extends SessionState {
  clientKey: string
  createdAt: number
  /** The principal that opened the session (auth/principal.ts), when authentication tells clients apart. */
  owner?: string
}

export interface SharedSessionsOptions {
  /** A session's record expires this long after its last request. */
  idleMs: number
  /** A session older than this is over, wherever it is used (0: no limit). */
  maxLifetimeMs: number
  /** Entries kept per SSE event log. */
  maxLoggedEvents: number
  report?: (error: Error) => void
}

export interface SharedSessions {
  /** This instance's tag: in request-stream keys and in the ids of its questions to clients. */
  readonly instance: string
  /** Stores a session's record and tells every instance it changed. */
  save(id: string, record: SessionRecord): Promise<void>
  /** The session's record, its expiry renewed; undefined when it ended or expired. */
  load(id: string): Promise<SessionRecord | undefined>
  /** Hears that a session's record changed on another instance (a copy here is out of date). */
  onChanged(listener: (id: string) => void): void
  /** Ends a session everywhere (DELETE): the record goes and every instance closes its copy. */
  remove(id: string): Promise<void>
  onRemoved(listener: (id: string) => void): void
  /** Appends a message to the standalone stream; `once` keys an append made by one instance only. */
  appendStandalone(id: string, text: string, once?: string): Promise<string | undefined>
  /** Copies one event of a request stream (sequence `seq`) to the store; `end` marks its answer. */
  logRequestEvent(id: string, stream: string, seq: number, text: string, end: boolean): void
  /** A stream's stored events after `after` (exclusive). */
  readStream(id: string, stream: string, after: string): Promise<StoredEvent[]>
  /** The newest standalone event's id. */
  standaloneHead(id: string): Promise<string>
  /** Hears the standalone stream's appends until the returned function is called. */
  followStandalone(id: string, listener: (event: StoredEvent) => void): Promise<() => Promise<void>>
  /** Sends a client's answer to the instance whose question it answers; false when no other instance asked. */
  routeAnswer(sessionId: string, message: RpcMessage & { id: RequestId }): boolean
  onAnswer(listener: (sessionId: string, message: RpcMessage) => void): void
  /** Notes a question this instance asked: only answers to noted questions are kept for it. */
  expectAnswer(sessionId: string, questionId: RequestId): Promise<void>
  /**
   * The stored answer to a question this instance asked, taken (undefined: none came). For
   * after a reconnect: an answer published while this instance's subscription was down is lost
   * as a message, not as a key.
   */
  takeAnswer(sessionId: string, questionId: RequestId): Promise<RpcMessage | undefined>
  /** Called when the store is back after being away (messages published meanwhile were lost). */
  onReconnect(listener: () => void): () => void
  /** Tells every instance that the client cancelled a request (it runs on one of them). */
  broadcastCancel(sessionId: string, params: Record<string, unknown>): void
  onCancel(listener: (sessionId: string, params: Record<string, unknown>) => void): void
  /** True while the instance with this tag is running. */
  alive(instance: string): Promise<boolean>
  close(): Promise<void>
}

/** How long a routed answer waits in the store for an instance that missed its message. */
const answerKeepMs = 10 * 60_000
// An instance that died is known to be gone within heartbeatTtlMs (its streams then get an answer).
const heartbeatMs = 2000
const heartbeatTtlMs = 6000
const questionId = /^mcp-kit-([0-9a-f]{8})-\d+$/
/** What a session id may be (visible ASCII, as the spec says, and not absurdly long). */
const plausibleId = /^[\x21-\x7e]{1,256}$/

/** The instance tag in a server-to-client request id (`mcp-kit-<tag>-<n>`). */
export function instanceOfQuestion(id: RequestId): string | undefined {
  return typeof id === 'string' ? questionId.exec(id)?.[1] : undefined
}

export async function sharedSessions(store: Store, options: SharedSessionsOptions): Promise<SharedSessions> {
  const instance = randomBytes(4).toString('hex')
  let closed = false
  // After close, a command that was still queued (the store away) fails: that is no news.
  const report = (what: string) => (error: unknown) => {
    if (closed) return
    // The Redis client's timeout errors have no message: say what they are.
    const text = error instanceof Error ? error.message || error.constructor.name : String(error)
    options.report?.(new Error(`${what}: ${text}`))
  }
  // One namespace per kind, so no session id a client makes up (`x:sse:0`) names a key of
  // another kind; on a cluster the id is a hash tag, so a session's keys and channels share a
  // slot (the append script touches its log, its `once` key and its channel at once).
  const group = (id: string) => store.hashTag?.(id) ?? id
  const recordKey = (id: string) => `session-record:${group(id)}`
  const logKey = (id: string, stream: string) => `session-log:${group(id)}:${stream}`
  const standaloneChannel = (id: string) => `session-events:${group(id)}`
  const answerKey = (id: string, questionId: RequestId) => `session-answer:${group(id)}:${String(questionId)}`
  const removedListeners = new Set<(id: string) => void>()
  const changedListeners = new Set<(id: string) => void>()
  const answerListeners = new Set<(sessionId: string, message: RpcMessage) => void>()
  const cancelListeners = new Set<(sessionId: string, params: Record<string, unknown>) => void>()
  // Logs outlive the record a little, so a resume right after the last request still finds them.
  const logTtlMs = options.idleMs + 60_000
  const parse = (message: string): Record<string, unknown> | undefined => {
    try {
      const value = JSON.parse(message) as unknown
      return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined
    } catch {
      return undefined
    }
  }

  const unsubscribers = await Promise.all([
    store.subscribe('sessions:removed', (id) => {
      for (const listener of removedListeners) listener(id)
    }),
    store.subscribe('sessions:changed', (message) => {
      const value = parse(message)
      if (typeof value?.id !== 'string' || value.origin === instance) return
      for (const listener of changedListeners) listener(value.id)
    }),
    store.subscribe(`answers:${instance}`, (message) => {
      const value = parse(message)
      if (typeof value?.session !== 'string' || value.message === undefined) return
      const answer = value.message as RpcMessage & { id?: RequestId }
      for (const listener of answerListeners) listener(value.session, answer)
      // Heard: the copy kept for a missed message is not needed.
      if (answer.id !== undefined && answer.id !== null)
        store.delete(answerKey(value.session, answer.id)).catch(() => {})
    }),
    store.subscribe('sessions:cancel', (message) => {
      const value = parse(message)
      if (typeof value?.session !== 'string' || typeof value.params !== 'object' || value.origin === instance)
        return
      for (const listener of cancelListeners) listener(value.session, value.params as Record<string, unknown>)
    }),
  ])
  const beat = () =>
    store
      .set(`instance:${instance}`, String(Date.now()), heartbeatTtlMs, { volatile: true })
      .catch(report('heartbeat'))
  await beat()
  const heartbeat = setInterval(beat, heartbeatMs)
  heartbeat.unref()
  // After a store restart that lost everything, this instance is alive again at once.
  const stopReconnect = store.onReconnect(() => void beat())

  async function remove(id: string): Promise<void> {
    await store.delete(recordKey(id))
    await store.delete(logKey(id, '0'))
    await store.publish('sessions:removed', id)
  }

  return {
    instance,
    async save(id, record) {
      await store.set(recordKey(id), JSON.stringify(record), options.idleMs)
      await store.publish('sessions:changed', JSON.stringify({ id, origin: instance }))
    },
    onChanged(listener) {
      changedListeners.add(listener)
    },
    async load(id) {
      if (!plausibleId.test(id)) return undefined
      const text = await store.getAndTouch(recordKey(id), options.idleMs)
      if (text === undefined) return undefined
      const record = parse(text) as SessionRecord | undefined
      if (record === undefined) return undefined
      if (options.maxLifetimeMs > 0 && record.createdAt + options.maxLifetimeMs <= Date.now()) {
        await remove(id)
        return undefined
      }
      return record
    },
    remove,
    onRemoved(listener) {
      removedListeners.add(listener)
    },
    appendStandalone(id, text, once) {
      return store.appendEvent(
        logKey(id, '0'),
        { data: text },
        {
          maxLength: options.maxLoggedEvents,
          ttlMs: logTtlMs,
          channel: standaloneChannel(id),
          once: once === undefined ? undefined : `session-once:${group(id)}:${once}`,
        },
      )
    },
    logRequestEvent(id, stream, seq, text, end) {
      store
        .appendEvent(
          logKey(id, stream),
          { data: text, end },
          { id: `0-${seq}`, maxLength: options.maxLoggedEvents, ttlMs: logTtlMs },
        )
        .catch(report('cannot log an SSE event to the store'))
    },
    readStream(id, stream, after) {
      return store.readEvents(logKey(id, stream), after)
    },
    standaloneHead(id) {
      return store.lastEventId(logKey(id, '0'))
    },
    followStandalone(id, listener) {
      return store.subscribe(standaloneChannel(id), (message) => {
        const value = parse(message)
        if (typeof value?.id === 'string' && typeof value.data === 'string')
          listener({ id: value.id, data: value.data, end: value.end === true })
      })
    },
    routeAnswer(sessionId, message) {
      const target = instanceOfQuestion(message.id)
      if (target === undefined || target === instance) return false
      // Kept as well as sent, for a question the asking instance noted (a client cannot fill the
      // store with answers to questions nobody asked): it reads the key if it missed the message.
      const key = answerKey(sessionId, message.id)
      store
        .get(key)
        .then((noted) =>
          noted === undefined ? undefined : store.set(key, JSON.stringify(message), answerKeepMs),
        )
        .catch(report('cannot keep an answer'))
      store
        .publish(`answers:${target}`, JSON.stringify({ session: sessionId, message }))
        .catch(report('cannot route an answer'))
      return true
    },
    onAnswer(listener) {
      answerListeners.add(listener)
    },
    async expectAnswer(sessionId, questionId) {
      // Before the question goes out (one round trip; questions wait for people). Failing, the
      // question still goes: its answer then only travels as a message.
      await store
        .set(answerKey(sessionId, questionId), '', answerKeepMs)
        .catch(report('cannot note a question'))
    },
    async takeAnswer(sessionId, questionId) {
      if (!plausibleId.test(sessionId)) return undefined
      const key = answerKey(sessionId, questionId)
      const text = await store.get(key)
      if (text === undefined || text === '') return undefined
      await store.delete(key)
      const message = parse(text)
      return message?.id === questionId ? (message as unknown as RpcMessage) : undefined
    },
    onReconnect(listener) {
      return store.onReconnect(listener)
    },
    broadcastCancel(sessionId, params) {
      store
        .publish('sessions:cancel', JSON.stringify({ session: sessionId, params, origin: instance }))
        .catch(report('cannot pass a cancellation on'))
    },
    onCancel(listener) {
      cancelListeners.add(listener)
    },
    async alive(tag) {
      return tag === instance || (await store.get(`instance:${tag}`)) !== undefined
    },
    async close() {
      closed = true
      clearInterval(heartbeat)
      stopReconnect()
      await Promise.allSettled(unsubscribers.map((unsubscribe) => unsubscribe()))
      // Gone at once for the others; with the store away the key expires by itself (and a
      // command queued for its return must not hold the shutdown).
      const removed = store.delete(`instance:${instance}`).catch(() => {})
      if (store.ready()) await removed
    },
  }
}
