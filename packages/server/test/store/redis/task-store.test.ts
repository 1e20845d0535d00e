// @module-tag integration
// What the Redis task store costs Redis, on a private redis-server (so its counters are ours
// alone): the upkeep's round reads no record however many finished tasks are kept (an earlier
// version read the whole index and every record every 10 s on every instance), and each write
// of a task is one round trip (compare-and-set, index entry and announcement in one script);
// what is announced is a notice, and only an instance following the task reads the record.

import { randomUUID } from 'node:crypto'
import { findRedisServer, type RedisServer, startRedisServer } from '@mcp-kit/fixtures/redis'
import { createClient, defineScript } from '@redis/client'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { redisStore } from '../../../src/store/redis/store.js'
import { type RedisTaskCommands, redisTaskStore, taskScripts } from '../../../src/store/redis/task-store.js'
import { endTask } from '../../../src/tasks/ending.js'
import { TaskInputChannel } from '../../../src/tasks/input.js'
import { TaskManager } from '../../../src/tasks/manager.js'
import { followTasks } from '../../../src/tasks/notifications.js'
import type { TaskRecord } from '../../../src/tasks/store.js'
import { upkeepOnce } from '../../../src/tasks/upkeep.js'
import { eventually } from '../../helpers/http.js'

const redisServerCommand = findRedisServer()
if (redisServerCommand === undefined)
  console.warn('\n⚠ SKIPPING store/redis/task-store.test.ts: no redis-server on PATH.\n')

function connect(url: string) {
  return createClient({ url, scripts: { writeTask: defineScript(taskScripts.writeTask) } })
}

let server: RedisServer
let redis: ReturnType<typeof connect>

beforeAll(async () => {
  if (redisServerCommand === undefined) return
  server = await startRedisServer()
  redis = connect(server.url)
  await redis.connect()
})

afterAll(async () => {
  if (redisServerCommand === undefined) return
  await redis.close()
  await server.stop()
  server.remove()
  expect(server.child.exitCode !== null || server.child.signalCode !== null).toBe(true)
})

const pubsub = { subscribe: async () => async () => {} }

function record(taskId: string, fields: Partial<TaskRecord> = {}): TaskRecord {
  const now = Date.now()
  return {
    taskId,
    status: 'working',
    createdAt: now,
    lastUpdatedAt: now,
    expiresAt: null,
    keepMs: 3_600_000,
    pollIntervalMs: 1000,
    owner: 'here',
    leaseExpiresAt: now + 30_000,
    method: 'tools/call',
    name: 'tool',
    ...fields,
  }
}

/** The commands Redis ran (those run by scripts included) since `resetCounters`, by name. */
async function commandsRun(): Promise<Record<string, number>> {
  const text = await redis.info('commandstats')
  const counts: Record<string, number> = {}
  for (const [, name, calls] of text.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) {
    if (name === undefined || name === 'info' || name.startsWith('config')) continue
    counts[name] = Number(calls)
  }
  return counts
}

async function resetCounters() {
  await redis.configResetStat()
}

/** The store's round trips to Redis, by operation (each call of the injected commands is one). */
function counting(commands: RedisTaskCommands) {
  const sent: Record<string, number> = {}
  const counted = new Proxy(commands, {
    get(target, name: string) {
      const value = Reflect.get(target, name)
      if (typeof value !== 'function') return value
      return (...args: unknown[]) => {
        sent[name] = (sent[name] ?? 0) + 1
        return value.apply(target, args)
      }
    },
  })
  return { counted, sent }
}

describe.skipIf(redisServerCommand === undefined)('the Redis task store', () => {
  test('an upkeep round reads no record: 1,000 finished tasks kept cost it nothing', async () => {
    const store = redisTaskStore(redis, pubsub, `mcp-kit-test:${randomUUID()}:`)
    const ended = Date.now()
    for (let index = 0; index < 1000; index++) {
      await store.create(
        record(`kept-${index}`, { status: 'completed', endedAt: ended, expiresAt: ended + 3_600_000 }),
      )
    }
    // Ten whose keep time ran out: Redis drops their records, the upkeep their index entries.
    for (let index = 0; index < 10; index++)
      await store.create(record(`gone-${index}`, { status: 'completed', expiresAt: Date.now() - 1 }))
    await store.create(record('running'))

    await upkeepOnce(store, 30_000, [])
    await resetCounters()
    await upkeepOnce(store, 30_000, ['running'])
    const run = await commandsRun()
    // One compare-and-set for the lease of the task running here (the script's GET and SET), and
    // one command to expire: nothing reads the kept tasks (no SMEMBERS, MGET, ZRANGE, SCAN).
    expect(run).toEqual({ evalsha: 1, get: 1, set: 1, publish: 1, zremrangebyscore: 1 })

    await resetCounters()
    await upkeepOnce(store, 30_000, [])
    expect(await commandsRun()).toEqual({ zremrangebyscore: 1 })

    const listed = await store.list()
    expect(listed).toHaveLength(1001)
    expect(listed.filter((each) => each.taskId.startsWith('gone-'))).toEqual([])
    expect(listed.find((each) => each.taskId === 'running')?.leaseExpiresAt).toBeGreaterThan(
      Date.now() + 20_000,
    )
  })

  test('each write is one round trip: creating, changing and ending a task running here', async () => {
    const prefix = `mcp-kit-test:${randomUUID()}:`
    const { counted, sent } = counting(redis)
    const here = redisTaskStore(counted, pubsub, prefix)
    const elsewhere = redisTaskStore(redis, pubsub, prefix)
    await here.create(record('one'))
    await here.update('one', (current) => ({ ...current, statusMessage: 'half way' }))
    const done = await endTask(here, 'one', { status: 'completed', result: { content: [] } })
    expect(done).toMatchObject({ status: 'completed', statusMessage: 'half way' })
    expect(sent).toEqual({ writeTask: 3 })
    expect(await elsewhere.get('one')).toEqual(done)

    // Changed by another instance: the first guess fails, and its answer is what to retry with.
    await here.create(record('two'))
    await elsewhere.update('two', (current) => ({ ...current, statusMessage: 'from elsewhere' }))
    await here.create(record('three'))
    await endTask(elsewhere, 'three', { status: 'cancelled' })
    for (const name of Object.keys(sent)) delete sent[name]
    expect(await endTask(here, 'two', { status: 'completed' })).toMatchObject({
      status: 'completed',
      statusMessage: 'from elsewhere',
    })
    expect(sent).toEqual({ writeTask: 2 })
    expect(await endTask(here, 'three', { status: 'completed' })).toMatchObject({ status: 'cancelled' })
    expect(sent).toEqual({ writeTask: 3 })
    expect(await here.create(record('two')).catch((error: Error) => error.message)).toMatch(/exists/)

    // A change that leaves the stale guess alone is checked against what is stored.
    await here.create(record('four'))
    await elsewhere.update('four', (current) => ({ ...current, statusMessage: 'asked' }))
    for (const name of Object.keys(sent)) delete sent[name]
    const answered = await here.update('four', (current) =>
      current.statusMessage === undefined ? undefined : { ...current, statusMessage: 'answered' },
    )
    expect(answered?.statusMessage).toBe('answered')
    expect(sent).toEqual({ writeTask: 1, get: 1 })
    expect((await elsewhere.get('four'))?.statusMessage).toBe('answered')
    expect(await here.update('missing', (current) => current)).toBeUndefined()
  })

  test('a write is announced by a notice: watchers here hear it as written, elsewhere only those who follow it read it', async () => {
    const prefix = `mcp-kit-test:${randomUUID()}:`
    const [here, elsewhere] = [
      await redisStore({ url: server.url, prefix }),
      await redisStore({ url: server.url, prefix }),
    ]
    const listener = connect(server.url)
    await listener.connect()
    try {
      const published: string[] = []
      await listener.subscribe(`${prefix}task-notices`, (message) => published.push(message))
      const heardHere: string[] = []
      const heardElsewhere: string[] = []
      const stopHere = here.taskStore().watch((record) => heardHere.push(`${record.taskId}:${record.status}`))
      const stopElsewhere = elsewhere.taskStore().watch(
        (record) => heardElsewhere.push(`${record.taskId}:${record.status}`),
        (taskId) => taskId === 'followed',
      )
      // The subscriptions are in place once a write from each side was heard by the other.
      await here.taskStore().create(record('ping'))
      await elsewhere.taskStore().create(record('followed'))
      await eventually(() => heardHere.includes('followed:working') && published.length === 2)
      const big = { content: [{ type: 'text', text: 'x'.repeat(100_000) }] }
      await resetCounters()
      for (const taskId of ['followed', 'unfollowed']) {
        if (taskId === 'unfollowed') await here.taskStore().create(record(taskId))
        await endTask(here.taskStore(), taskId, { status: 'completed', result: big })
      }
      await eventually(() => heardElsewhere.includes('followed:completed') && published.length === 5)
      expect(heardHere).toEqual([
        'ping:working',
        'followed:working',
        'followed:completed',
        'unfollowed:working',
        'unfollowed:completed',
      ])
      expect(heardElsewhere).toEqual(['followed:working', 'followed:completed'])
      // Every notice is small, whatever the record holds.
      expect(Math.max(...published.map((message) => message.length))).toBeLessThan(200)
      expect(published.every((message) => !message.includes('xxxx'))).toBe(true)
      // GETs: the three writes' scripts read the value they compare; here, the first write of
      // 'followed' (made elsewhere) starts from a read; elsewhere reads 'followed' once, after
      // its end, and never 'unfollowed'.
      expect((await commandsRun()).get).toBe(3 + 1 + 1)
      stopHere()
      stopElsewhere()
    } finally {
      await listener.close()
      await Promise.all([here.close(), elsewhere.close()])
    }
  })

  test('across instances: answers, cancellation and status notifications reach the instance that needs them', async () => {
    const prefix = `mcp-kit-test:${randomUUID()}:`
    const stores = [
      await redisStore({ url: server.url, prefix }),
      await redisStore({ url: server.url, prefix }),
    ]
    const [a, b] = stores.map(
      (store, index) => new TaskManager({ store: store.taskStore(), instanceId: `instance-${index}` }),
    ) as [TaskManager, TaskManager]
    const call = { method: 'tools/call', name: 'ask', principal: undefined }
    try {
      // A task running on A asks a question; B follows it and answers it.
      const asking = new AbortController()
      const { taskId } = await a.create(call, asking)
      const input = new TaskInputChannel(a, taskId, { elicitation: {} }, asking.signal)
      const question = {
        method: 'elicitation/create' as const,
        params: { message: 'Name?', requestedSchema: { type: 'object' as const, properties: {} } },
      }
      a.settle(
        taskId,
        input.ask({ name: question }).then((answers) => ({ structuredContent: answers })),
      )
      const follower = await followTasks(
        b,
        [taskId],
        { extensions: { 'io.modelcontextprotocol/tasks': {} } },
        undefined,
      )
      expect(follower.agreed).toEqual([taskId])
      const told: Array<Record<string, unknown>> = []
      const stop = follower.begin((state) => told.push(state))
      await eventually(() => told.some((state) => state.status === 'input_required'))
      const answer = { action: 'accept', content: { name: 'Ada' } }
      await b.deliver(taskId, { name: answer }, undefined)
      await eventually(() => told.at(-1)?.status === 'completed')
      expect(told.at(-1)).toMatchObject({ result: { structuredContent: { name: answer } } })
      stop()

      // A task running on A, cancelled through B: its work on A is aborted.
      const cancelling = new AbortController()
      const running = await a.create(call, cancelling)
      a.settle(
        running.taskId,
        new Promise((_, reject) =>
          cancelling.signal.addEventListener('abort', () => reject(cancelling.signal.reason)),
        ),
      )
      await b.cancel(running.taskId, undefined)
      await eventually(() => cancelling.signal.aborted)
      expect((await a.find(running.taskId, undefined)).status).toBe('cancelled')
    } finally {
      await Promise.all([a.close(), b.close()])
      await Promise.all(stores.map((store) => store.close()))
    }
  })
})
