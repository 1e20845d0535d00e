// @module-tag integration
// Several instances behind one endpoint, sharing a Store: a 2026 retry signed by one instance is
// accepted by another, a list change made on one reaches a subscriptions/listen stream held on
// another, and readiness follows the store (Redis going away and coming back). Redis comes from
// @mcp-kit/fixtures/redis (REDIS_URL, else 127.0.0.1:6379, else a private redis-server; the
// tests are skipped, with a warning, where there is none); each test uses its own key prefix.
// The restart test runs a private redis-server on a free port.

import { randomUUID } from 'node:crypto'
import {
  findRedisServer,
  freePort,
  type RedisServer,
  redisForTests,
  startRedisServer,
} from '@mcp-kit/fixtures/redis'
import { afterAll, afterEach, describe, expect, test } from 'vitest'
import { createToolRegistry } from '../../src/registry/registry.js'
import { redisStore } from '../../src/store/redis/store.js'
import { memoryStore, type Store } from '../../src/store/store.js'
import { eventually, parseEvents, post, serve } from '../helpers/http.js'

const redis = await redisForTests({ what: 'packages/server/test/store/store.test.ts' })
const redisUrl = redis?.url ?? 'redis://unavailable'
const redisServer = findRedisServer()
if (redisServer === undefined)
  console.warn('\n⚠ SKIPPING the Redis restart test of store.test.ts: no redis-server on PATH.\n')
const version = '2026-07-28'
const stores: Store[] = []
const redisServers: RedisServer[] = []

afterEach(async () => {
  for (const store of stores.splice(0)) await store.close()
  for (const server of redisServers.splice(0)) {
    await server.stop('SIGKILL')
    server.remove()
  }
})

afterAll(async () => {
  await redis?.stop()
})

async function openStore(url = redisUrl, prefix = `mcp-kit-test:${randomUUID()}:`): Promise<Store> {
  const store = await redisStore({ url, prefix, connectTimeoutMs: 3000 })
  stores.push(store)
  return store
}

function meta(capabilities: Record<string, unknown> = {}) {
  return {
    'io.modelcontextprotocol/protocolVersion': version,
    'io.modelcontextprotocol/clientCapabilities': capabilities,
  }
}

function headers(method: string, name?: string): Record<string, string> {
  return { 'mcp-protocol-version': version, 'mcp-method': method, ...(name ? { 'mcp-name': name } : {}) }
}

function confirmRegistry() {
  return createToolRegistry().tool({
    name: 'transfer',
    inputSchema: { type: 'object', properties: { amount: { type: 'number' } } },
    async handler({ amount }, context) {
      const answer = await context.elicit(
        {
          message: `Transfer ${amount}?`,
          requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
        },
        { key: 'approve' },
      )
      return answer.content?.ok ? `sent ${amount}` : 'cancelled'
    },
  })
}

/** Opens a subscriptions/listen stream; resolves with the messages seen so far, live. */
async function listen(url: string) {
  const controller = new AbortController()
  const response = await fetch(url, {
    method: 'POST',
    signal: controller.signal,
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers('subscriptions/listen'),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 'sub',
      method: 'subscriptions/listen',
      params: { _meta: meta(), notifications: { toolsListChanged: true } },
    }),
  })
  let text = ''
  const reader = (response.body as ReadableStream<Uint8Array>).getReader()
  const decoder = new TextDecoder()
  void (async () => {
    for (;;) {
      const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }))
      if (done) return
      text += decoder.decode(value, { stream: true })
    }
  })()
  return {
    methods: () =>
      parseEvents(text.slice(0, text.lastIndexOf('\n\n') + 2)).map((event) => JSON.parse(event.data).method),
    close: () => controller.abort(),
  }
}

describe('the in-memory store', () => {
  test('setIfAbsent sets once; published messages reach subscribers until they leave', async () => {
    const store = memoryStore()
    expect(await store.setIfAbsent('k', 'a')).toBe(true)
    expect(await store.setIfAbsent('k', 'b')).toBe(false)
    expect(await store.get('k')).toBe('a')
    const heard: string[] = []
    const leave = await store.subscribe('c', (message) => heard.push(message))
    await store.publish('c', 'one')
    await eventually(() => heard.length === 1)
    await leave()
    await store.publish('c', 'two')
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(heard).toEqual(['one'])
  })
})

describe('token buckets (Store.takeTokens)', () => {
  test('in memory: a full bucket gives its capacity, then refuses with when to retry', async () => {
    const store = memoryStore()
    const bucket = { capacity: 3, refillPerSecond: 1 / 60 }
    const taken = []
    for (let index = 0; index < 4; index++) taken.push(await store.takeTokens?.('b', bucket))
    expect(taken.map((take) => take?.taken)).toEqual([true, true, true, false])
    expect(taken[3]?.retryAfterMs).toBeGreaterThan(50_000)
    expect((await store.takeTokens?.('other', bucket))?.taken).toBe(true)
  })

  test.skipIf(redis === undefined)('on Redis: two instances take from one bucket', async () => {
    const prefix = `mcp-kit-test:${randomUUID()}:`
    const [first, second] = [await openStore(redisUrl, prefix), await openStore(redisUrl, prefix)]
    const bucket = { capacity: 10, refillPerSecond: 10 / 60 }
    const taken = []
    for (let index = 0; index < 6; index++) {
      taken.push(await first?.takeTokens?.('limit:x', bucket))
      taken.push(await second?.takeTokens?.('limit:x', bucket))
    }
    expect(taken.filter((take) => take?.taken)).toHaveLength(10)
    expect(taken.slice(10).map((take) => take?.taken)).toEqual([false, false])
    expect(taken[11]?.retryAfterMs).toBeGreaterThan(1000)
    expect(taken[11]?.retryAfterMs).toBeLessThanOrEqual(6000)
  })
})

describe.skipIf(redis === undefined)('instances on one Redis', () => {
  test('a retry signed by one instance is accepted by another; calls are served by both', async () => {
    const prefix = `mcp-kit-test:${randomUUID()}:`
    const a = await serve(confirmRegistry(), { store: await openStore(redisUrl, prefix) })
    const second = await serve(confirmRegistry(), { store: await openStore(redisUrl, prefix) })
    const first = await post(
      a.url,
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'transfer', arguments: { amount: 5 }, _meta: meta({ elicitation: {} }) },
      },
      headers('tools/call', 'transfer'),
    )
    const round = (first.json as { result: { resultType: string; requestState: string } }).result
    expect(round.resultType).toBe('input_required')
    const retry = await post(
      second.url,
      {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: {
          name: 'transfer',
          arguments: { amount: 5 },
          inputResponses: { approve: { action: 'accept', content: { ok: true } } },
          requestState: round.requestState,
          _meta: meta({ elicitation: {} }),
        },
      },
      headers('tools/call', 'transfer'),
    )
    expect(retry.json).toMatchObject({ result: { resultType: 'complete', content: [{ text: 'sent 5' }] } })
  })

  test('without a shared store, the other instance refuses the retry (the test above can fail)', async () => {
    const a = await serve(confirmRegistry())
    const b = await serve(confirmRegistry())
    const first = await post(
      a.url,
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'transfer', arguments: { amount: 5 }, _meta: meta({ elicitation: {} }) },
      },
      headers('tools/call', 'transfer'),
    )
    const { requestState } = (first.json as { result: { requestState: string } }).result
    const retry = await post(
      b.url,
      {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: {
          name: 'transfer',
          arguments: { amount: 5 },
          inputResponses: { approve: { action: 'accept', content: { ok: true } } },
          requestState,
          _meta: meta({ elicitation: {} }),
        },
      },
      headers('tools/call', 'transfer'),
    )
    expect(retry.json).toMatchObject({ error: { code: -32602 } })
  })

  test('a tool added on one instance reaches a subscriptions/listen stream held on another, once', async () => {
    // Two connections to Redis, as two processes would have, on one prefix.
    const prefix = `mcp-kit-test:${randomUUID()}:`
    const registryA = createToolRegistry()
    await serve(registryA, { store: await openStore(redisUrl, prefix) })
    const b = await serve(createToolRegistry(), { store: await openStore(redisUrl, prefix) })
    const stream = await listen(b.url)
    await eventually(() => stream.methods().includes('notifications/subscriptions/acknowledged'))
    registryA.tool({ name: 'fresh', handler: () => 'new' })
    await eventually(() => stream.methods().includes('notifications/tools/list_changed'))
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(stream.methods().filter((method) => method === 'notifications/tools/list_changed')).toHaveLength(1)
    stream.close()
  })
})

async function startRedis(port: number): Promise<RedisServer> {
  const server = await startRedisServer({ port })
  redisServers.push(server)
  return server
}

describe('when Redis goes away', () => {
  test('an unreachable store fails at once, naming it', async () => {
    const port = await freePort()
    await expect(redisStore({ url: `redis://127.0.0.1:${port}`, connectTimeoutMs: 1000 })).rejects.toThrow(
      new RegExp(`cannot reach the store at redis://127.0.0.1:${port}`),
    )
  })

  test('a URL that cannot work is refused before connecting, its password hidden', async () => {
    await expect(redisStore({ url: 'redis://:hunter2@127.0.0.1:6379/abc' })).rejects.toThrow(
      'invalid store URL redis://:***@127.0.0.1:6379/abc: the path must be a database number (/0, /1, …), not "/abc"',
    )
  })

  test.skipIf(redisServer === undefined)(
    'a Redis that evicts keys when full is named in a warning at start; one that does not, not',
    async () => {
      const server = await startRedis(await freePort())
      const warnings: string[] = []
      const quiet = await redisStore({ url: server.url, onWarning: (message) => warnings.push(message) })
      stores.push(quiet)
      expect(warnings).toEqual([])
      const { createClient } = await import('@redis/client')
      const admin = createClient({ url: server.url })
      await admin.connect()
      await admin.configSet({ maxmemory: '100mb', 'maxmemory-policy': 'allkeys-lru' })
      await admin.close()
      const evicting = await redisStore({ url: server.url, onWarning: (message) => warnings.push(message) })
      stores.push(evicting)
      expect(warnings).toEqual([
        `the store at ${server.url} evicts keys when its memory is full (maxmemory-policy allkeys-lru): tasks and sessions in use could vanish; set maxmemory-policy noeviction`,
      ])
    },
  )

  test.skipIf(redisServer === undefined)(
    '/healthz says not ready while it is away and ready again when it returns; changes flow again',
    async () => {
      const first = await startRedis(await freePort())
      const store = await openStore(first.url, 'restart:')
      const registry = createToolRegistry()
      const server = await serve(registry, { store })
      const health = async () => (await fetch(new URL('/healthz', server.url))).status
      expect(await health()).toBe(200)
      await first.stop('SIGKILL')
      await eventually(async () => (await health()) === 503)
      await startRedis(first.port)
      await eventually(async () => (await health()) === 200, 15_000)
      // The restarted Redis kept nothing; the request-state key every instance uses is written back.
      await eventually(async () => (await store.get('request-state-key')) !== undefined)
      const stream = await listen(server.url)
      await eventually(() => stream.methods().includes('notifications/subscriptions/acknowledged'))
      registry.tool({ name: 'after', handler: () => 'x' })
      await eventually(() => stream.methods().includes('notifications/tools/list_changed'))
      stream.close()
    },
  )
})

describe.skipIf(redis === undefined)('tasks on Redis', () => {
  const tasksExtension = 'io.modelcontextprotocol/tasks'
  const taskCapabilities = { extensions: { [tasksExtension]: {} } }
  const taskRegistry = () =>
    createToolRegistry().tool({
      name: 'report',
      taskSupport: 'required',
      handler: async () => {
        await new Promise((resolve) => setTimeout(resolve, 300))
        return { rows: 3, pid: process.pid }
      },
    })

  async function rpc(url: string, method: string, params: Record<string, unknown>, id: number) {
    const name = (params.name ?? params.taskId) as string | undefined
    const response = await post(
      url,
      { jsonrpc: '2.0', id, method, params: { ...params, _meta: meta(taskCapabilities) } },
      headers(method, name),
    )
    // biome-ignore lint/suspicious/noExplicitAny: JSON off the wire, which the assertions check
    return response.json as { result?: Record<string, any>; error?: { code: number } }
  }

  test('the store: atomic updates under contention, listing, expiry, and every write announced', async () => {
    const store = (await openStore()).taskStore()
    const seen: string[] = []
    const stop = store.watch((record) => seen.push(`${record.taskId}:${record.status}`))
    const base = {
      status: 'working' as const,
      createdAt: Date.now(),
      lastUpdatedAt: Date.now(),
      keepMs: 60_000,
      pollIntervalMs: 1000,
      owner: 'a',
      leaseExpiresAt: Date.now() + 30_000,
      method: 'tools/call',
      name: 'report',
    }
    await store.create({ ...base, taskId: 'one', expiresAt: null })
    await store.create({ ...base, taskId: 'short', owner: 'b', expiresAt: Date.now() + 200 })
    await expect(store.create({ ...base, taskId: 'one', expiresAt: null })).rejects.toThrow(/exists/)
    // Twenty concurrent increments through update(): none is lost.
    await Promise.all(
      Array.from({ length: 20 }, () =>
        store.update('one', (current) => ({ ...current, pollIntervalMs: current.pollIntervalMs + 1 })),
      ),
    )
    expect((await store.get('one'))?.pollIntervalMs).toBe(1020)
    expect((await store.list({ owner: 'a' })).map((record) => record.taskId)).toEqual(['one'])
    // Redis expires a record itself; expire() then drops what is left of it (its index entry).
    await store.create({ ...base, taskId: 'brief', owner: 'c', expiresAt: Date.now() + 100 })
    await eventually(
      async () => (await store.get('short')) === undefined && (await store.get('brief')) === undefined,
    )
    await store.expire(Date.now())
    expect((await store.list()).map((record) => record.taskId)).toEqual(['one'])
    await eventually(() => seen.includes('one:working') && seen.includes('short:working'))
    stop()
  })

  test('a task started through one instance is followed to its result through another', async () => {
    const prefix = `mcp-kit-test:${randomUUID()}:`
    const a = await serve(taskRegistry(), { store: await openStore(redisUrl, prefix) })
    const b = await serve(taskRegistry(), { store: await openStore(redisUrl, prefix) })
    const created = await rpc(a.url, 'tools/call', { name: 'report', arguments: {} }, 1)
    expect(created.result).toMatchObject({ resultType: 'task' })
    const taskId = created.result?.taskId as string
    let final: Record<string, unknown> | undefined
    await eventually(async () => {
      final = (await rpc(b.url, 'tasks/get', { taskId }, 2)).result
      return final?.status === 'completed'
    })
    expect(final).toMatchObject({ status: 'completed', result: { structuredContent: { rows: 3 } } })
  })

  test('without a shared store the other instance does not know the task (the test above can fail)', async () => {
    const a = await serve(taskRegistry())
    const b = await serve(taskRegistry())
    const created = await rpc(a.url, 'tools/call', { name: 'report', arguments: {} }, 1)
    const taskId = created.result?.taskId as string
    expect((await rpc(b.url, 'tasks/get', { taskId }, 2)).error?.code).toBe(-32602)
    await eventually(
      async () => (await rpc(a.url, 'tasks/get', { taskId }, 3)).result?.status === 'completed',
    )
  })
})
