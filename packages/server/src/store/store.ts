// What must outlive one request, or be shared by every instance of a server, goes through a
// Store: the key that signs 2026 `requestState`, and change notifications fanned out to every
// instance's `subscriptions/listen` streams. In memory by default (one process); Redis when
// several instances serve one endpoint (`redisStore`). Tasks live in the store's TaskStore.

import { memoryTaskStore, type TaskStore } from '../tasks/task-store.js'

export interface Store {
  /** `memory` or `redis`, for logs and /healthz. */
  readonly kind: string
  /** A value, or undefined. */
  get(key: string): Promise<string | undefined>
  /** Sets a value unless the key exists; true when this call set it. */
  setIfAbsent(key: string, value: string, ttlMs?: number): Promise<boolean>
  /** Sends a message to every subscriber of a channel, in every instance. */
  publish(channel: string, message: string): Promise<void>
  /** Receives a channel's messages until the returned function is called. */
  subscribe(channel: string, listener: (message: string) => void): Promise<() => Promise<void>>
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
  let tasks: TaskStore | undefined
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
    async publish(channel, message) {
      for (const listener of channels.get(channel) ?? []) {
        queueMicrotask(() => listener(message))
      }
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
