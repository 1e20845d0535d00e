// The TaskStore on Redis. One JSON value per task (expiring with the record's `expiresAt`) and
// an index: a sorted set of task ids scored by when each may go (+inf while the work runs), so
// dropping what expired is one ZREMRANGEBYSCORE per index and no instance reads every record on
// a timer. Where the keys live is a TaskKeys: on one Redis, `task:<id>` and one `task-index`; on
// a cluster, the index is sharded and a task's record, its index shard and its notice channel
// share a hash tag (`{t<n>}`), so each write's script touches one slot and no slot is hot. Every
// write is one round trip: a Lua script, sent by its SHA, compares and sets the record (write
// only if the value is still what the change was made from), keeps its index entry and publishes
// a notice (the task id, not the record: results can be large, and every instance hears every
// notice). A failed compare answers with the current value, so a retry needs no read; the value
// this instance last wrote is the first guess, so the writes of a task running here need no read
// either. Watchers hear this instance's writes at once; a write made elsewhere is read (GET) only
// when a watcher here follows that task (its owner, a `notifications/tasks` stream). While Redis
// is away, commands wait for it (the client's offline queue) up to the client's command timeout;
// then they fail as "the task store is unavailable", which clients may be told.

import { randomUUID } from 'node:crypto'
import type { CommandParser } from '@redis/client'
import { ServerError } from '../../errors.js'
import { isTerminal, type TaskRecord, type TaskStore } from '../../tasks/store.js'
import { singleTaskKeys, type TaskKeys } from './task-keys.js'

/** The Redis operations the task store needs (redisStore's command connection, with `taskScripts`). */
export interface RedisTaskCommands {
  get(key: string): Promise<string | null>
  mGet(keys: string[]): Promise<Array<string | null>>
  zRange(key: string, start: number, stop: number): Promise<string[]>
  zRemRangeByScore(key: string, min: string, max: string): Promise<number>
  unlink(key: string): Promise<number>
  /**
   * `writeTaskScript`: 1 when written, else the current value (null: there is none). With
   * `durable`, a store with replicas answers once they have the write (a cluster's WAIT).
   */
  writeTask(
    keys: [task: string, index: string],
    args: string[],
    durable?: boolean,
  ): Promise<number | string | null>
}

// KEYS[1] the task, KEYS[2] the index. ARGV[1] the expected value ('' = must not exist),
// ARGV[2] the new value, ARGV[3] its expiry in epoch ms ('' = none), ARGV[4] its index score
// ('' = unchanged), ARGV[5] the task id, ARGV[6] the channel, ARGV[7] the notice, ARGV[8] the
// publishing command.
const writeTask = `
local current = redis.call('GET', KEYS[1])
if ARGV[1] == '' then
  if current then return current end
elseif current ~= ARGV[1] then
  return current
end
if ARGV[3] == '' then redis.call('SET', KEYS[1], ARGV[2]) else redis.call('SET', KEYS[1], ARGV[2], 'PXAT', ARGV[3]) end
if ARGV[4] ~= '' then redis.call('ZADD', KEYS[2], ARGV[4], ARGV[5]) end
redis.call(ARGV[8], ARGV[6], ARGV[7])
return 1
`

/**
 * The scripts the task store runs, for `createClient({ scripts })` (after the library's
 * `defineScript`, which adds the SHA: the client sends EVALSHA, and the whole script only when
 * Redis answers NOSCRIPT, e.g. after a restart).
 */
export const taskScripts = {
  writeTask: {
    SCRIPT: writeTask,
    NUMBER_OF_KEYS: 2,
    parseCommand(parser: CommandParser, keys: [string, string], args: string[]) {
      parser.pushKeys(keys)
      parser.push(...args)
    },
    transformReply: (reply: unknown) => reply as number | string | null,
  },
}

const maximumAttempts = 50
/** How many running tasks' values are remembered as the first guess of their next write. */
const knownLimit = 10_000

export function redisTaskStore(
  redis: RedisTaskCommands,
  pubsub: {
    subscribe(channel: string, listener: (message: string) => void): Promise<() => Promise<void>>
    onReconnect?(listener: () => void): () => void
  },
  where: string | TaskKeys,
): TaskStore {
  const commands = guarded(redis)
  const keys = typeof where === 'string' ? singleTaskKeys(where) : where
  const keyOf = keys.record
  const watchers = new Set<{ listener: (record: TaskRecord) => void; wants?: (taskId: string) => boolean }>()
  /** Names this instance's writes in their notices (it hears its own, and has told its watchers). */
  const writer = randomUUID()
  /** Running tasks' values as this instance last wrote them (a guess: the compare checks it). */
  const known = new Map<string, string>()
  let subscribed: Promise<unknown> | undefined
  let legacyDropped = keys.legacyIndex === undefined

  const wanted = (taskId: string) =>
    [...watchers].filter((watcher) => watcher.wants === undefined || watcher.wants(taskId))
  const tell = (record: TaskRecord) => {
    for (const watcher of wanted(record.taskId)) watcher.listener(record)
  }

  const remember = (record: TaskRecord, text: string) => {
    known.delete(record.taskId)
    if (isTerminal(record.status)) return
    known.set(record.taskId, text)
    if (known.size > knownLimit) known.delete(known.keys().next().value as string)
  }

  /** A notice heard on a channel: a write made here was told already; elsewhere, read it if wanted. */
  const hear = (message: string) => {
    let notice: { taskId?: unknown; writer?: unknown } | null
    try {
      notice = JSON.parse(message) as typeof notice
    } catch {
      return
    }
    const taskId = notice?.taskId
    if (notice?.writer === writer || typeof taskId !== 'string' || wanted(taskId).length === 0) return
    // A write made elsewhere, to a task some watcher here follows: read what it wrote (or a later
    // state: replies come in order, so nobody is told an older one after a newer).
    commands.get(keyOf(taskId)).then(
      (text) => {
        if (text === null) return
        const record = JSON.parse(text) as TaskRecord
        if (known.has(taskId)) remember(record, text)
        tell(record)
      },
      () => {},
    )
  }

  /**
   * Writes `record` if the stored value is still `expected` ('' = none). Resolves to true when
   * written, else to the value found (null: none).
   */
  async function put(expected: string, previous: TaskRecord | undefined, record: TaskRecord) {
    const text = JSON.stringify(record)
    const found = await commands.writeTask(
      [keyOf(record.taskId), keys.index(record.taskId)],
      [
        expected,
        text,
        record.expiresAt === null ? '' : String(Math.max(record.expiresAt, Date.now() + 1)),
        previous?.expiresAt === record.expiresAt ? '' : String(record.expiresAt ?? '+inf'),
        record.taskId,
        keys.prefix + keys.channel(record.taskId),
        JSON.stringify({ taskId: record.taskId, writer }),
        keys.publish,
      ],
      // What a failover must not lose: creation, status, questions and answers; not a renewed
      // lease or a progress message.
      durable(previous, record),
    )
    if (found !== 1) return typeof found === 'string' ? found : null
    remember(record, text)
    // This instance's watchers hear its writes at once, as written (a copy: nobody shares it).
    if (watchers.size > 0) queueMicrotask(() => tell(JSON.parse(text) as TaskRecord))
    return true
  }

  return {
    async create(record) {
      if ((await put('', undefined, record)) !== true) throw new Error(`task ${record.taskId} exists`)
    },
    async get(taskId) {
      const text = await commands.get(keyOf(taskId))
      return text === null ? undefined : (JSON.parse(text) as TaskRecord)
    },
    async update(taskId, change) {
      const guess = known.get(taskId)
      let text = guess ?? (await commands.get(keyOf(taskId)))
      // Whether `text` came from Redis (a remembered value may be stale: only a write checks it).
      let fresh = guess === undefined
      for (let attempt = 0; attempt < maximumAttempts; attempt++) {
        if (text === null) {
          known.delete(taskId)
          return undefined
        }
        const current = JSON.parse(text) as TaskRecord
        const next = change(current)
        if (next === undefined) {
          if (!fresh) {
            text = await commands.get(keyOf(taskId))
            fresh = true
            continue
          }
          if (known.has(taskId)) remember(current, text)
          return current
        }
        const written = await put(text, current, next)
        if (written === true) return next
        text = written
        fresh = true
      }
      throw new Error(`task ${taskId}: too many concurrent changes`)
    },
    async list(filter = {}) {
      // Not on any request's path (the upkeep does not list): every id, records read in batches
      // (of one index shard: keys of one slot).
      const found: TaskRecord[] = []
      for (const index of keys.indexes) {
        const ids = await commands.zRange(index, 0, -1)
        for (let start = 0; start < ids.length; start += 1000) {
          const texts = await commands.mGet(ids.slice(start, start + 1000).map(keyOf))
          for (const text of texts) {
            if (text === null) continue
            const record = JSON.parse(text) as TaskRecord
            if (filter.owner === undefined || record.owner === filter.owner) found.push(record)
          }
        }
      }
      return found
    },
    async expire(now) {
      // Redis expires the records itself (PXAT); what is left is their index entries.
      if (!legacyDropped && keys.legacyIndex !== undefined) {
        await commands.unlink(keys.legacyIndex)
        legacyDropped = true
      }
      const removed = await Promise.all(
        keys.indexes.map((index) => commands.zRemRangeByScore(index, '-inf', String(now))),
      )
      return removed.reduce((sum, count) => sum + count, 0)
    },
    onReconnect(listener) {
      return pubsub.onReconnect?.(listener) ?? (() => {})
    },
    watch(listener, wants) {
      const watcher = { listener, wants }
      watchers.add(watcher)
      if (subscribed === undefined)
        subscribed = Promise.all(keys.channels.map((channel) => pubsub.subscribe(channel, hear))).catch(
          () => {
            subscribed = undefined
          },
        )
      return () => watchers.delete(watcher)
    },
  }
}

/** Whether a write changes what a failover must not lose: anything but a lease or a progress message. */
function durable(previous: TaskRecord | undefined, next: TaskRecord): boolean {
  return (
    previous === undefined ||
    previous.status !== next.status ||
    JSON.stringify(previous.inputRequests) !== JSON.stringify(next.inputRequests) ||
    JSON.stringify(previous.inputResponses) !== JSON.stringify(next.inputResponses)
  )
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
    zRange: (key, start, stop) => guard(redis.zRange(key, start, stop)),
    zRemRangeByScore: (key, min, max) => guard(redis.zRemRangeByScore(key, min, max)),
    unlink: (key) => guard(redis.unlink(key)),
    writeTask: (keys, args, durable) => guard(redis.writeTask(keys, args, durable)),
  }
}
