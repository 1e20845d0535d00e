// Several instances behind one endpoint, sharing a Store: a 2026 retry signed by one instance is
// accepted by another, a list change made on one reaches a subscriptions/listen stream held on
// another, and readiness follows the store (Redis going away and coming back). Redis is the
// machine's (REDIS_URL or 127.0.0.1:6379, each test on its own key prefix); the restart test
// runs a private redis-server on a free port.

import { type ChildProcess, spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { createServer } from 'node:net'
import { afterEach, describe, expect, test } from 'vitest'
import { createToolRegistry } from '../src/registry.js'
import { redisStore } from '../src/store/redis-store.js'
import { memoryStore, type Store } from '../src/store/store.js'
import { eventually, parseEvents, post, serve } from './helpers.js'

const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'
const version = '2026-07-28'
const stores: Store[] = []
const processes: ChildProcess[] = []

afterEach(async () => {
  for (const store of stores.splice(0)) await store.close()
  for (const child of processes.splice(0)) child.kill('SIGKILL')
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

describe('instances on one Redis', () => {
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

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

function startRedis(port: number): ChildProcess {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: 'ignore',
    },
  )
  processes.push(child)
  return child
}

async function stopped(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  await new Promise((resolve) => {
    child.once('exit', resolve)
    child.kill('SIGKILL')
  })
}

describe('when Redis goes away', () => {
  test('an unreachable store fails at once, naming it', async () => {
    const port = await freePort()
    await expect(redisStore({ url: `redis://127.0.0.1:${port}`, connectTimeoutMs: 1000 })).rejects.toThrow(
      new RegExp(`cannot reach the store at redis://127.0.0.1:${port}`),
    )
  })

  test('/healthz says not ready while it is away and ready again when it returns; changes flow again', async () => {
    const port = await freePort()
    const url = `redis://127.0.0.1:${port}`
    let redis = startRedis(port)
    const store = await (async () => {
      for (let attempt = 0; ; attempt++) {
        try {
          return await openStore(url, 'restart:')
        } catch (error) {
          if (attempt > 40) throw error
          await new Promise((resolve) => setTimeout(resolve, 50))
        }
      }
    })()
    const registry = createToolRegistry()
    const server = await serve(registry, { store })
    const health = async () => (await fetch(new URL('/healthz', server.url))).status
    expect(await health()).toBe(200)
    await stopped(redis)
    await eventually(async () => (await health()) === 503)
    redis = startRedis(port)
    await eventually(async () => (await health()) === 200, 15_000)
    // The restarted Redis kept nothing; the request-state key every instance uses is written back.
    await eventually(async () => (await store.get('request-state-key')) !== undefined)
    const stream = await listen(server.url)
    await eventually(() => stream.methods().includes('notifications/subscriptions/acknowledged'))
    registry.tool({ name: 'after', handler: () => 'x' })
    await eventually(() => stream.methods().includes('notifications/tools/list_changed'))
    stream.close()
  })
})
