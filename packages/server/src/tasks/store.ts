// Where tasks (the io.modelcontextprotocol/tasks extension, SEP-2663) live between requests: a
// TaskStore keeps one JSON-serializable record per task, so that any instance of a server can
// answer `tasks/get`, `tasks/update` and `tasks/cancel` for it. Everything is async and nothing in
// a record is a closure: a Redis (or any shared) store can implement this interface without the
// rest of the server changing. What only makes sense in the process that runs the work (its
// AbortController, the handler waiting for answers) stays in that process (manager.ts).

import type { InputRequest } from '../context.js'

export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled'

export const terminalStatuses: ReadonlySet<TaskStatus> = new Set(['completed', 'failed', 'cancelled'])

export function isTerminal(status: TaskStatus): boolean {
  return terminalStatuses.has(status)
}

/** A JSON-RPC error, as a failed task carries it. */
export interface TaskError {
  code: number
  message: string
  data?: unknown
}

export interface TaskRecord {
  taskId: string
  status: TaskStatus
  statusMessage?: string
  /** Epoch milliseconds. */
  createdAt: number
  lastUpdatedAt: number
  /** When the task ended (completed, failed, cancelled), in epoch milliseconds. */
  endedAt?: number
  /** The record may be deleted after this (epoch ms); null while the work runs (its lease keeps it). */
  expiresAt: number | null
  /** How long a finished task stays readable after it ended, in ms. */
  keepMs: number
  pollIntervalMs: number
  /** The instance running the work, and until when it vouches for it (renewed while it runs). */
  owner: string
  leaseExpiresAt: number
  /**
   * Who created the task (its principal: `sub:<issuer>|<subject>`, `client:<issuer>|<client_id>`,
   * the static token's client, or `anonymous`); only they may read, answer or cancel it.
   */
  principal?: string
  /** The request the task runs: `tools/call` and the tool's name. */
  method: string
  name: string
  /** Questions the work waits for, by key (each key is used once in a task's life). */
  inputRequests?: Record<string, InputRequest>
  /** Answers delivered by `tasks/update` that the owner has not taken yet, by key. */
  inputResponses?: Record<string, unknown>
  result?: Record<string, unknown>
  error?: TaskError
}

export interface TaskStore {
  /** Stores a new record; resolves once a `get` on any instance would find it. */
  create(record: TaskRecord): Promise<void>
  /** The record, or undefined when there is none (never created, or expired). */
  get(taskId: string): Promise<TaskRecord | undefined>
  /**
   * Replaces a record atomically with `change(current)`; `change` returns undefined to leave it
   * as it is. `change` must be pure: a shared store may call it again after a concurrent write.
   * Resolves to the record as stored afterwards, or undefined when there is none.
   */
  update(
    taskId: string,
    change: (current: TaskRecord) => TaskRecord | undefined,
  ): Promise<TaskRecord | undefined>
  /** The live records, optionally only those one instance owns (for lease renewal and shutdown). */
  list(filter?: { owner?: string }): Promise<TaskRecord[]>
  /** Deletes the records whose `expiresAt` has passed; resolves to how many went. */
  expire(now: number): Promise<number>
  /**
   * Calls `listener` with each record after it was created or changed, on whichever instance the
   * write happened (a shared store fans writes out); returns a function to stop. With `wants`,
   * only for the tasks it accepts (asked when a change arrives): a shared store then reads a
   * record written elsewhere only when some listener wants it. A record written elsewhere may
   * arrive as a later state than the write that announced it, never older than one already told.
   */
  watch(listener: (record: TaskRecord) => void, wants?: (taskId: string) => boolean): () => void
  /**
   * A shared store calls `listener` whenever it comes back after being away: it may have lost
   * records (a Redis restarted without persistence), so the instances running tasks write theirs
   * again. Stores that cannot go away leave it out.
   */
  onReconnect?(listener: () => void): () => void
}

export interface MemoryTaskStoreOptions {
  /** Clock in epoch ms (default Date.now). */
  now?: (() => number) | undefined
}

/** The in-process TaskStore: tasks live and die with this process. */
export function memoryTaskStore(options: MemoryTaskStoreOptions = {}): TaskStore {
  const now = options.now ?? Date.now
  const records = new Map<string, string>()
  const watchers = new Set<{ listener: (record: TaskRecord) => void; wants?: (taskId: string) => boolean }>()
  // Records are kept as JSON, as a shared store would: nobody holds a reference into the store.
  const read = (taskId: string): TaskRecord | undefined => {
    const text = records.get(taskId)
    if (text === undefined) return undefined
    const record = JSON.parse(text) as TaskRecord
    if (record.expiresAt !== null && record.expiresAt <= now()) {
      records.delete(taskId)
      return undefined
    }
    return record
  }
  const write = (record: TaskRecord) => {
    const text = JSON.stringify(record)
    records.set(record.taskId, text)
    for (const { listener, wants } of watchers) {
      if (wants !== undefined && !wants(record.taskId)) continue
      const copy = JSON.parse(text) as TaskRecord
      queueMicrotask(() => listener(copy))
    }
  }
  return {
    async create(record) {
      if (records.has(record.taskId)) throw new Error(`task ${record.taskId} exists`)
      write(record)
    },
    async get(taskId) {
      return read(taskId)
    },
    async update(taskId, change) {
      const current = read(taskId)
      if (current === undefined) return undefined
      const next = change(current)
      if (next === undefined) return current
      write(next)
      return next
    },
    async list(filter = {}) {
      const found: TaskRecord[] = []
      for (const taskId of [...records.keys()]) {
        const record = read(taskId)
        if (record !== undefined && (filter.owner === undefined || record.owner === filter.owner))
          found.push(record)
      }
      return found
    },
    async expire(at) {
      let removed = 0
      for (const [taskId, text] of [...records]) {
        const { expiresAt } = JSON.parse(text) as TaskRecord
        if (expiresAt !== null && expiresAt <= at) {
          records.delete(taskId)
          removed += 1
        }
      }
      return removed
    },
    watch(listener, wants) {
      const watcher = { listener, wants }
      watchers.add(watcher)
      return () => watchers.delete(watcher)
    },
  }
}
