// The TaskStore on Redis: one JSON value per task (`task:<id>`, expiring with the record's
// `expiresAt`), a set of task ids for listing, changes made atomic by compare-and-set (a Lua
// script: write only if the value is still what `change` saw, else read again and retry), and
// every write announced on a channel so each instance's `notifications/tasks` hears it. While
// Redis is away, commands wait for it (the client's offline queue) up to the client's command
// timeout; then they fail as "the task store is unavailable", which clients may be told.

import { ServerError } from '../errors.js'
import type { TaskRecord, TaskStore } from '../tasks/task-store.js'

/** The Redis operations the task store needs (what redisStore's command connection offers). */
export interface RedisTaskCommands {
  get(key: string): Promise<string | null>
  mGet(keys: string[]): Promise<Array<string | null>>
  sAdd(key: string, member: string): Promise<unknown>
  sRem(key: string, members: string[]): Promise<unknown>
  sMembers(key: string): Promise<string[]>
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>
}

// KEYS[1] the task key; ARGV[1] the expected value ('' = must not exist), ARGV[2] the new value,
// ARGV[3] the expiry in epoch ms ('' = none). Returns 1 when written.
const compareAndSet = `
local current = redis.call('GET', KEYS[1])
if (ARGV[1] == '' and current) or (ARGV[1] ~= '' and current ~= ARGV[1]) then return 0 end
if ARGV[3] == '' then redis.call('SET', KEYS[1], ARGV[2]) else redis.call('SET', KEYS[1], ARGV[2], 'PXAT', ARGV[3]) end
return 1
`

const maximumAttempts = 50

export function redisTaskStore(
  redis: RedisTaskCommands,
  pubsub: {
    publish(channel: string, message: string): Promise<void>
    subscribe(channel: string, listener: (message: string) => void): Promise<() => Promise<void>>
    onReconnect?(listener: () => void): () => void
  },
  prefix: string,
): TaskStore {
  const commands = guarded(redis)
  const keyOf = (taskId: string) => `${prefix}task:${taskId}`
  const index = `${prefix}tasks`
  const channel = 'tasks'
  const listeners = new Set<(record: TaskRecord) => void>()
  let subscribed: Promise<unknown> | undefined

  async function put(expected: string, record: TaskRecord): Promise<boolean> {
    const text = JSON.stringify(record)
    const written = await commands.eval(compareAndSet, {
      keys: [keyOf(record.taskId)],
      arguments: [
        expected,
        text,
        record.expiresAt === null ? '' : String(Math.max(record.expiresAt, Date.now() + 1)),
      ],
    })
    if (Number(written) !== 1) return false
    await pubsub.publish(channel, text).catch(() => {})
    return true
  }

  return {
    async create(record) {
      await commands.sAdd(index, record.taskId)
      if (!(await put('', record))) throw new Error(`task ${record.taskId} exists`)
    },
    async get(taskId) {
      const text = await commands.get(keyOf(taskId))
      return text === null ? undefined : (JSON.parse(text) as TaskRecord)
    },
    async update(taskId, change) {
      for (let attempt = 0; attempt < maximumAttempts; attempt++) {
        const text = await commands.get(keyOf(taskId))
        if (text === null) return undefined
        const current = JSON.parse(text) as TaskRecord
        const next = change(current)
        if (next === undefined) return current
        if (await put(text, next)) return next
      }
      throw new Error(`task ${taskId}: too many concurrent changes`)
    },
    async list(filter = {}) {
      const ids = await commands.sMembers(index)
      if (ids.length === 0) return []
      const texts = await commands.mGet(ids.map(keyOf))
      const found: TaskRecord[] = []
      const gone: string[] = []
      texts.forEach((text, position) => {
        if (text === null) gone.push(ids[position] as string)
        else {
          const record = JSON.parse(text) as TaskRecord
          if (filter.owner === undefined || record.owner === filter.owner) found.push(record)
        }
      })
      if (gone.length > 0) await commands.sRem(index, gone)
      return found
    },
    async expire() {
      // Redis expires the records itself (PXAT); what is left is the index entries of those gone.
      const ids = await commands.sMembers(index)
      if (ids.length === 0) return 0
      const texts = await commands.mGet(ids.map(keyOf))
      const gone = ids.filter((_, position) => texts[position] === null)
      if (gone.length > 0) await commands.sRem(index, gone)
      return gone.length
    },
    onReconnect(listener) {
      return pubsub.onReconnect?.(listener) ?? (() => {})
    },
    watch(listener) {
      listeners.add(listener)
      subscribed ??= pubsub
        .subscribe(channel, (message) => {
          let record: TaskRecord
          try {
            record = JSON.parse(message) as TaskRecord
          } catch {
            return
          }
          for (const each of listeners) each(record)
        })
        .catch(() => {
          subscribed = undefined
        })
      return () => listeners.delete(listener)
    },
  }
}

/** The commands, their failures (Redis away, no answer in time) turned into a clear ServerError. */
function guarded(redis: RedisTaskCommands): RedisTaskCommands {
  const guard = <T>(promise: Promise<T>): Promise<T> =>
    promise.catch((error: unknown) => {
      // node-redis's timeout error has no message: its class name says what happened.
      const reason = error instanceof Error ? error.message || error.constructor.name : String(error)
      throw new ServerError('server_error', `the task store is unavailable: ${reason}`, { cause: error })
    })
  return {
    get: (key) => guard(redis.get(key)),
    mGet: (keys) => guard(redis.mGet(keys)),
    sAdd: (key, member) => guard(redis.sAdd(key, member)),
    sRem: (key, members) => guard(redis.sRem(key, members)),
    sMembers: (key) => guard(redis.sMembers(key)),
    eval: (script, options) => guard(redis.eval(script, options)),
  }
}
