// What must outlive one request, or be shared by every instance of a server, goes through a
// Store: the key that signs 2026 `requestState`, and change notifications fanned out to every
// instance's `subscriptions/listen` streams, 2025 sessions and their SSE event logs (so any
// instance serves any session: store/shared-sessions.ts). In memory by default (one process);
// Redis when several instances serve one endpoint (`redisStore`). Tasks live in the store's
// TaskStore.

import { memoryTaskStore, type TaskStore } from '../tasks/store.js'
import { memoryBuckets, type TokenBucket, type TokensTaken } from './token-bucket.js'

export type { TokenBucket, TokensTaken }

/** One entry of an event log: a message's text, and whether it ends its stream. */
export interface EventEntry {
  data: string
  end?: boolean
}

export interface StoredEvent extends EventEntry {
  id: string
}

export interface AppendOptions {
  id?: string
  maxLength: number
  ttlMs: number
  channel?: string
  once?: string
}

/** Orders event ids `<ms>-<n>` (Redis Stream ids). */
export function compareEventIds(left: string, right: string): number {
  const [leftMs = 0, leftSeq = 0] = left.split('-').map(Number)
  const [rightMs = 0, rightSeq = 0] = right.split('-').map(Number)
  return leftMs - rightMs || leftSeq - rightSeq
}

/** How a value is written. */
export interface WriteOptions {
  /**
   * Losing it in a failover costs nothing (a heartbeat rewritten every few seconds): a store
   * with replicas does not wait for them to acknowledge it.
   */
  volatile?: boolean
}

export interface Store {
  /** `memory`, `redis` or `redis-cluster`, for logs and /healthz. */
  readonly kind: string
  /** A value, or undefined. */
  get(key: string): Promise<string | undefined>
  /** Sets a value unless the key exists; true when this call set it. */
  setIfAbsent(key: string, value: string, ttlMs?: number): Promise<boolean>
  /** Sets a value, replacing any, expiring `ttlMs` from now (never, without). */
  set(key: string, value: string, ttlMs?: number, options?: WriteOptions): Promise<void>
  /** A value with its expiry pushed to `ttlMs` from now, or undefined. */
  getAndTouch(key: string, ttlMs: number): Promise<string | undefined>
  delete(key: string): Promise<void>
  /**
   * Appends an entry to an event log (a Redis Stream): bounded to about `maxLength` entries, the
   * log expiring `ttlMs` after its last append, and published on `channel` when given (as JSON
   * `{ id, data, end }`). `id` is explicit (`0-<n>`, increasing) or made by the store (ordered
   * by append). With `once`, the entry is appended only by the first call naming that key (the
   * key is kept for `ttlMs`). Resolves to the entry's id, or undefined when `once` refused it.
   * On a store with slots, `once` and `channel` carry the log's hash tag (`hashTag`).
   */
  appendEvent(log: string, entry: EventEntry, options: AppendOptions): Promise<string | undefined>
  /**
   * `group` made part of a key so that the keys and channels carrying it land together: on a
   * cluster a hash tag (`{group}`), so one script may touch them all (a session's record, its
   * event logs, their `once` keys and channels). Stores without slots leave it out (the key
   * holds the group as it is).
   */
  hashTag?(group: string): string
  /** The entries of an event log after `afterId` (exclusive; '' = from the start), oldest first. */
  readEvents(log: string, afterId: string): Promise<StoredEvent[]>
  /** The id of an event log's newest entry ('0-0' when it has none). */
  lastEventId(log: string): Promise<string>
  /** Sends a message to every subscriber of a channel, in every instance. */
  publish(channel: string, message: string): Promise<void>
  /** Receives a channel's messages until the returned function is called. */
  subscribe(channel: string, listener: (message: string) => void): Promise<() => Promise<void>>
  /**
   * Takes `cost` tokens (default 1) from the token bucket `key`, atomically for every instance
   * sharing the store: rate limits that hold across instances. A missing bucket starts full.
   * Optional: a store without it keeps limits per instance.
   */
  takeTokens?(key: string, bucket: TokenBucket, cost?: number): Promise<TokensTaken>
  /** False while the store cannot be reached (readiness: /healthz answers 503). */
  ready(): boolean
  /**
   * Calls `listener` whenever the store comes back after being away (a Redis restart may have
   * lost everything, so what must be there is written again); returns a function to stop.
   */
  onReconnect(listener: () => void): () => void
  /** Where this store keeps tasks (the same object on every call). */
  taskStore(): TaskStore
  close(): Promise<void>
}

/** The in-process store: everything lives and dies with this process. */
export function memoryStore(): Store {
  const values = new Map<string, { value: string; expires: number }>()
  const channels = new Map<string, Set<(message: string) => void>>()
  const logs = new Map<string, { entries: StoredEvent[]; expires: number; last: string }>()
  let tasks: TaskStore | undefined
  const take = memoryBuckets()
  const publish = (channel: string, message: string) => {
    for (const listener of channels.get(channel) ?? []) queueMicrotask(() => listener(message))
  }
  const liveLog = (name: string) => {
    const log = logs.get(name)
    if (log !== undefined && log.expires <= Date.now()) logs.delete(name)
    return logs.get(name)
  }
  const live = (key: string) => {
    const entry = values.get(key)
    if (entry !== undefined && entry.expires <= Date.now()) values.delete(key)
    return values.get(key)
  }
  return {
    kind: 'memory',
    async get(key) {
      return live(key)?.value
    },
    async setIfAbsent(key, value, ttlMs) {
      if (live(key) !== undefined) return false
      values.set(key, { value, expires: ttlMs === undefined ? Number.POSITIVE_INFINITY : Date.now() + ttlMs })
      return true
    },
    async set(key, value, ttlMs) {
      values.set(key, { value, expires: ttlMs === undefined ? Number.POSITIVE_INFINITY : Date.now() + ttlMs })
    },
    async getAndTouch(key, ttlMs) {
      const entry = live(key)
      if (entry === undefined) return undefined
      entry.expires = Date.now() + ttlMs
      return entry.value
    },
    async delete(key) {
      values.delete(key)
      logs.delete(key)
    },
    async appendEvent(name, entry, options) {
      if (options.once !== undefined) {
        if (live(options.once) !== undefined) return undefined
        values.set(options.once, { value: '1', expires: Date.now() + options.ttlMs })
      }
      let log = liveLog(name)
      if (log === undefined) {
        log = { entries: [], expires: 0, last: '0-0' }
        logs.set(name, log)
      }
      let id = options.id
      if (id === undefined) {
        const now = Date.now()
        const [lastMs = 0, lastSeq = 0] = log.last.split('-').map(Number)
        id = now > lastMs ? `${now}-0` : `${lastMs}-${lastSeq + 1}`
      }
      log.last = id
      log.expires = Date.now() + options.ttlMs
      const stored: StoredEvent = { id, data: entry.data, end: entry.end === true }
      log.entries.push(stored)
      if (log.entries.length > options.maxLength)
        log.entries.splice(0, log.entries.length - options.maxLength)
      if (options.channel !== undefined) publish(options.channel, JSON.stringify(stored))
      return id
    },
    async readEvents(name, afterId) {
      const log = liveLog(name)
      if (log === undefined) return []
      return log.entries.filter((entry) => afterId === '' || compareEventIds(entry.id, afterId) > 0)
    },
    async lastEventId(name) {
      return liveLog(name)?.entries.at(-1)?.id ?? '0-0'
    },
    async publish(channel, message) {
      publish(channel, message)
    },
    async subscribe(channel, listener) {
      let listeners = channels.get(channel)
      if (listeners === undefined) {
        listeners = new Set()
        channels.set(channel, listeners)
      }
      listeners.add(listener)
      return async () => {
        listeners.delete(listener)
      }
    },
    async takeTokens(key, bucket, cost = 1) {
      return take(key, bucket, cost)
    },
    ready: () => true,
    onReconnect: () => () => {},
    taskStore() {
      tasks ??= memoryTaskStore()
      return tasks
    },
    async close() {
      channels.clear()
    },
  }
}
