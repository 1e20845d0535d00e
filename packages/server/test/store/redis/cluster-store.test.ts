// @module-tag integration
// The Store on a Redis Cluster of 3 masters and 3 replicas (@mcp-kit/fixtures/redis-cluster, on
// free local ports; skipped with a warning without redis-server and redis-cli): no script is
// CROSSSLOT (a task, its index shard and its notice channel; a session's logs, `once` keys and
// channel share a hash tag), tasks spread over every master, sharded pub/sub reaches the other
// instance, a durable write answers only once a replica has it, a killed master's commands wait
// for its replica (the store stays ready and says when it is back), and a TLS cluster is verified
// against its CA.

import { randomUUID } from 'node:crypto'
import { startRedisServer } from '@mcp-kit/fixtures/redis'
import { clusterForTests, startRedisCluster } from '@mcp-kit/fixtures/redis-cluster'
import { afterAll, afterEach, describe, expect, test } from 'vitest'
import { ServerError } from '../../../src/errors.js'
import { redisStore } from '../../../src/store/redis/store.js'
import { redisUrlProblem } from '../../../src/store/redis/url.js'
import { sharedSessions } from '../../../src/store/shared-sessions.js'
import type { Store } from '../../../src/store/store.js'
import type { TaskRecord } from '../../../src/tasks/store.js'
import { eventually } from '../../helpers/http.js'

const cluster = await clusterForTests({ what: 'packages/server/test/store/redis/cluster-store.test.ts' })
const stores: Store[] = []
const reports: string[] = []

afterEach(async () => {
  for (const store of stores.splice(0)) await store.close()
})

afterAll(async () => {
  await cluster?.stop()
})

async function open(query = '', prefix = `mcp-kit-test:${randomUUID()}:`): Promise<Store> {
  const store = await redisStore({
    url: `${cluster?.url}${query}`,
    prefix,
    connectTimeoutMs: 3000,
    onError: (error) => reports.push(error.message),
  })
  stores.push(store)
  return store
}

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

/** Keys matching `pattern` on each master (a cluster has no cluster-wide SCAN). */
async function keysByMaster(pattern: string): Promise<Map<number, string[]>> {
  const found = new Map<number, string[]>()
  for (const master of await cluster!.masters()) {
    const text = await cluster!.cli(master, ['--scan', '--pattern', pattern])
    found.set(master, text.split('\n').filter(Boolean))
  }
  return found
}

describe('cluster store URLs', () => {
  test('a seed node with its settings is accepted; a path, an unknown or a bad setting is not', () => {
    expect(redisUrlProblem('redis-cluster://127.0.0.1:7000')).toBeUndefined()
    expect(
      redisUrlProblem('rediss-cluster://user:pass@redis.example:7000?wait=2&wait-timeout=100'),
    ).toBeUndefined()
    expect(redisUrlProblem('redis-cluster://127.0.0.1:7000/1')).toMatch(/a cluster has no databases/)
    expect(redisUrlProblem('redis-cluster://127.0.0.1:7000?replicas=1')).toMatch(/unknown setting "replicas"/)
    expect(redisUrlProblem('redis-cluster://127.0.0.1:7000?wait=all')).toMatch(/wait must be a whole number/)
    expect(redisUrlProblem('redis-sentinel://127.0.0.1:7000')).toMatch(/expected redis:\/\//)
  })
})

describe.skipIf(cluster === undefined)('the store on a Redis Cluster (3 masters, 3 replicas)', () => {
  test('300 tasks: each write one script on one slot, spread over every master; listing, expiry and notices across shards', async () => {
    const prefix = `mcp-kit-test:${randomUUID()}:`
    const here = await open('', prefix)
    const elsewhere = await open('', prefix)
    const heard = new Set<string>()
    elsewhere.taskStore().watch(
      (written) => heard.add(written.taskId),
      () => true,
    )
    await eventually(async () => {
      // The watcher subscribes in the background: a write after that is heard.
      const probe = randomUUID()
      await here.taskStore().create(record(probe))
      return heard.has(probe)
    })
    const tasks = here.taskStore()
    const ids = Array.from({ length: 300 }, () => randomUUID())
    await Promise.all(ids.map((taskId) => tasks.create(record(taskId))))
    // Ending 30 of them long ago: their records expire at once and the upkeep drops their entries.
    const gone = ids.slice(0, 30)
    await Promise.all(
      gone.map((taskId) =>
        tasks.update(taskId, (current) => ({ ...current, status: 'completed', endedAt: 1, expiresAt: 2 })),
      ),
    )
    expect(await tasks.get(gone[0]!)).toBeUndefined()
    expect(await tasks.expire(Date.now())).toBe(30)
    const listed = new Set((await tasks.list()).map((each) => each.taskId))
    for (const taskId of ids.slice(30)) expect(listed.has(taskId)).toBe(true)
    const byMaster = await keysByMaster(`${prefix}*task:*`)
    expect(byMaster.size).toBe(3)
    for (const [master, keys] of byMaster) {
      // About a third each; a hot slot would put them all on one master.
      expect(keys.length, `task records on master ${master}`).toBeGreaterThan(300 * 0.2)
      for (const key of keys) expect(key).toMatch(/^mcp-kit-test:[^{}]+:\{t\d+\}task:[0-9a-f-]+$/)
    }
    const indexes = [...(await keysByMaster(`${prefix}*task-index`)).values()]
    for (const keys of indexes) expect(keys.length, 'index shards on a master').toBeGreaterThan(20)
    await eventually(() => ids.every((taskId) => heard.has(taskId)))
  })

  test("a session's record, logs, once-appends and channel share its slot; another instance follows and answers", async () => {
    const prefix = `mcp-kit-test:${randomUUID()}:`
    const options = { idleMs: 60_000, maxLifetimeMs: 0, maxLoggedEvents: 100 }
    const a = await sharedSessions(await open('', prefix), options)
    const b = await sharedSessions(await open('', prefix), options)
    try {
      const sessionId = randomUUID()
      await a.save(sessionId, { clientKey: 'k', createdAt: Date.now() } as never)
      expect(await b.load(sessionId)).toMatchObject({ clientKey: 'k' })
      const followed: string[] = []
      const unfollow = await b.followStandalone(sessionId, (event) => followed.push(event.data))
      expect(await a.appendStandalone(sessionId, 'first', 'list-changed:1')).toMatch(/^\d+-\d+$/)
      expect(await b.appendStandalone(sessionId, 'again', 'list-changed:1')).toBeUndefined()
      expect(await b.appendStandalone(sessionId, 'second')).toMatch(/^\d+-\d+$/)
      await eventually(() => followed.length === 2)
      expect(followed).toEqual(['first', 'second'])
      await unfollow()
      a.logRequestEvent(sessionId, `${a.instance}.1`, 1, '{"marker":1}', false)
      a.logRequestEvent(sessionId, `${a.instance}.1`, 2, '{"answer":1}', true)
      await eventually(async () => (await b.readStream(sessionId, `${a.instance}.1`, '')).length === 2)
      expect((await b.readStream(sessionId, `${a.instance}.1`, '0-1')).map((event) => event.end)).toEqual([
        true,
      ])
      // An answer to A's question, reaching B: routed to A on A's own sharded channel.
      const answers: unknown[] = []
      a.onAnswer((_session, message) => answers.push(message))
      const questionId = `mcp-kit-${a.instance}-1`
      await a.expectAnswer(sessionId, questionId)
      expect(b.routeAnswer(sessionId, { jsonrpc: '2.0', id: questionId, result: { ok: true } })).toBe(true)
      await eventually(() => answers.length === 1)
      const keys = [...(await keysByMaster(`${prefix}*${sessionId}*`)).values()].filter(
        (each) => each.length > 0,
      )
      expect(keys, 'masters holding the session keys').toHaveLength(1)
    } finally {
      await a.close()
      await b.close()
    }
  })

  test('a durable write answers once its replica has it (WAIT); a volatile one does not wait', async () => {
    const prefix = `mcp-kit-test:${randomUUID()}:`
    const store = await open('?wait=1&wait-timeout=5000', prefix)
    const key = `durable:${randomUUID()}`
    await store.set(key, 'first')
    const replica = await cluster!.replicaOf(await cluster!.masterOf(await storedKey(key)))
    replica.child.kill('SIGSTOP')
    try {
      const started = Date.now()
      let answered = 0
      const durable = store.set(key, 'kept').then(() => (answered = Date.now() - started))
      await store.set(`${key}:beat`, 'lost', 10_000, { volatile: true })
      expect(Date.now() - started, 'a volatile write').toBeLessThan(500)
      await new Promise((resolve) => setTimeout(resolve, 800))
      expect(answered, 'the durable write, its replica stopped').toBe(0)
      replica.child.kill('SIGCONT')
      await durable
      expect(answered).toBeGreaterThanOrEqual(800)
      expect(answered).toBeLessThan(5000)
    } finally {
      replica.child.kill('SIGCONT')
    }
    // A replica that does not answer in time: the write answers after the wait's limit, and the
    // operator hears that a failover of that master could lose it.
    const impatient = await open('?wait=1&wait-timeout=200', prefix)
    replica.child.kill('SIGSTOP')
    try {
      const started = Date.now()
      await impatient.set(key, 'alone')
      expect(Date.now() - started).toBeGreaterThanOrEqual(190)
      expect(reports.some((line) => /reached 0 of 1 replicas within 200 ms/.test(line))).toBe(true)
    } finally {
      replica.child.kill('SIGCONT')
    }
  })

  // Last: it kills a master (its replica takes over and has none of its own afterwards).
  test('a master killed: its commands wait for the replica that takes over, the store stays ready and says it is back', async () => {
    const store = await open()
    const tasks = store.taskStore()
    let back = 0
    store.onReconnect(() => back++)
    const tag = randomUUID()
    const key = `kept:{${tag}}`
    await store.set(key, 'acknowledged')
    // A sharded subscription on the same slot: resubscribed on the new master after the failover.
    const heard: string[] = []
    await store.subscribe(`notes:{${tag}}`, (message) => heard.push(message))
    await store.publish(`notes:{${tag}}`, 'before')
    await eventually(() => heard.length === 1)
    const taskId = randomUUID()
    await tasks.create(record(taskId))
    const victim = await cluster!.masterOf(await storedKey(key))
    await cluster!.kill(victim)
    const killedAt = Date.now()
    let notReady = 0
    const sampling = setInterval(() => {
      if (!store.ready()) notReady++
    }, 50)
    try {
      // Sent while the master is dead: answered once its replica took over, not failed.
      const [value, task] = await Promise.all([store.get(key), tasks.get(taskId)])
      expect(value).toBe('acknowledged')
      expect(task?.taskId).toBe(taskId)
      await eventually(() => back > 0, 20_000)
      expect(Date.now() - killedAt).toBeLessThan(15_000)
    } finally {
      clearInterval(sampling)
    }
    expect(notReady, 'samples of /healthz readiness that said not ready during the failover').toBe(0)
    await store.set(key, 'after')
    expect(await store.get(key)).toBe('after')
    await eventually(async () => {
      await store.publish(`notes:{${tag}}`, 'after')
      return heard.includes('after')
    })
  }, 40_000)
})

/** The key as the store wrote it (its prefix before it), found on the masters. */
async function storedKey(key: string): Promise<string> {
  for (const keys of (await keysByMaster(`*${key}`)).values()) if (keys[0] !== undefined) return keys[0]
  throw new Error(`no key ends with ${key}`)
}

describe('connecting to a cluster', () => {
  test.skipIf(cluster === undefined)(
    'over TLS (rediss-cluster://) the nodes are verified against --store-ca; untrusted is refused saying so',
    async () => {
      const secure = await startRedisCluster({ tls: true, replicas: 0 })
      try {
        const store = await redisStore({ url: secure.url, ca: secure.ca, connectTimeoutMs: 3000 })
        stores.push(store)
        await store.set('tls', 'yes')
        expect(await store.get('tls')).toBe('yes')
        await store.taskStore().create(record('over-tls'))
        expect((await store.taskStore().get('over-tls'))?.taskId).toBe('over-tls')
        const refused = await redisStore({ url: secure.url, connectTimeoutMs: 3000 }).catch((error) => error)
        expect(ServerError.isInstance(refused)).toBe(true)
        expect(refused.details).toEqual({ problem: 'untrusted' })
      } finally {
        await secure.stop()
      }
    },
  )

  test.skipIf(cluster === undefined)(
    'a Redis without cluster support given as a cluster: refused saying so',
    async () => {
      const single = await startRedisServer()
      try {
        await expect(
          redisStore({ url: `redis-cluster://127.0.0.1:${single.port}`, connectTimeoutMs: 3000 }),
        ).rejects.toThrow(/cluster support disabled/)
      } finally {
        await single.stop()
        single.remove()
      }
    },
  )
})
