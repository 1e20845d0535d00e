// @module-tag integration
// 2025-11-25 sessions shared by two instances on one Redis (each test on its own key prefix): a
// session opened on one is served by the other (an SDK v1 client whose requests alternate
// between them), a question asked by one is answered through the other, DELETE on one ends the
// session on both, the standalone stream's events written anywhere reach the instance holding
// the GET and are replayed elsewhere after a disconnect (each once), and a request's stream
// closed by its instance (SEP-1699) is resumed on the other until its answer comes, and an answer
// routed while the asking instance was cut off from Redis still reaches it when it is back.

import { randomUUID } from 'node:crypto'
import { createServer, connect as netConnect, type Socket } from 'node:net'
import { redisForTests } from '@mcp-kit/fixtures/redis'
import { readSse } from '@mcp-kit/fixtures/sse'
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, afterEach, expect, test } from 'vitest'
import type { RunningHttpServer } from '../../src/http/server.js'
import { createToolRegistry } from '../../src/registry/registry.js'
import { redisStore } from '../../src/store/redis/store.js'
import type { Store } from '../../src/store/store.js'
import {
  accept,
  eventually,
  initialize,
  initializeBody,
  parseEvents,
  post,
  sdkClient,
  serve,
  stop,
} from '../helpers/http.js'

const redis = await redisForTests({ what: 'packages/server/test/store/shared-sessions.test.ts' })
const redisUrl = redis?.url ?? 'redis://unavailable'
const stores: Store[] = []

afterAll(async () => {
  await redis?.stop()
})

afterEach(async () => {
  for (const store of stores.splice(0)) await store.close()
})

let release: (() => void) | undefined

function registry() {
  return createToolRegistry()
    .tool({ name: 'whoami', handler: (_args, context) => `${process.pid}:${context.sessionId}` })
    .tool({
      name: 'chatty',
      async handler(_args, context) {
        await context.log('debug', 'a debug line')
        return 'said'
      },
    })
    .tool({
      name: 'ask',
      async handler(_args, context) {
        const answer = await context.elicit({
          message: 'Go ahead?',
          requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
        })
        return answer.content?.ok === true ? 'confirmed' : 'declined'
      },
    })
    .tool({
      name: 'steps',
      async handler(_args, context) {
        await context.progress(1, 3, 'one')
        context.closeStream()
        await new Promise<void>((resolve) => {
          release = resolve
        })
        await context.progress(2, 3, 'two')
        await context.progress(3, 3, 'three')
        return 'done'
      },
    })
}

/** Two instances on one Redis prefix. */
async function twoInstances(): Promise<[RunningHttpServer, RunningHttpServer]> {
  const prefix = `mcp-kit-test:${randomUUID()}:`
  const open = async () => {
    const store = await redisStore({ url: redisUrl, prefix, connectTimeoutMs: 3000 })
    stores.push(store)
    return serve(registry(), { store })
  }
  return [await open(), await open()]
}

function getStream(url: string, headers: Record<string, string>, lastEventId?: string) {
  const controller = new AbortController()
  const opened = fetch(url, {
    method: 'GET',
    signal: controller.signal,
    headers: {
      accept: 'text/event-stream',
      ...headers,
      ...(lastEventId ? { 'last-event-id': lastEventId } : {}),
    },
  })
  return { opened, close: () => controller.abort() }
}

test.skipIf(redis === undefined)(
  'an SDK client whose requests alternate between two instances: lists, calls, a question answered through the other, DELETE ends it on both',
  async () => {
    const [a, b] = await twoInstances()
    const targets = [a.url, b.url]
    let next = 0
    const seen = new Set<string>()
    const rotating: typeof fetch = (_input, init) => {
      const target = targets[next++ % targets.length] as string
      seen.add(target)
      return fetch(target, init)
    }
    const { client, transport } = await sdkClient(a.url, { elicitation: {} }, {}, rotating)
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { ok: true } }))
    const tools = await client.listTools()
    expect(tools.tools.map((tool) => tool.name)).toContain('ask')
    const sessions = new Set<string>()
    for (let index = 0; index < 4; index++) {
      const result = await client.callTool({ name: 'whoami', arguments: {} })
      sessions.add(
        ((result.content as Array<{ text: string }>)[0] as { text: string }).text.split(':')[1] as string,
      )
    }
    expect(sessions).toEqual(new Set([transport.sessionId]))
    for (let index = 0; index < 3; index++) {
      const result = await client.callTool({ name: 'ask', arguments: {} })
      expect(result.content).toEqual([{ type: 'text', text: 'confirmed' }])
    }
    await client.setLoggingLevel('debug')
    expect(seen.size).toBe(2)
    const sessionId = transport.sessionId as string
    await transport.terminateSession()
    // The other instance hears of the DELETE on a channel (a copy checked within the last second
    // serves until then): 404 on both, at once or within moments.
    for (const url of targets) {
      await eventually(async () => {
        const after = await post(
          url,
          { jsonrpc: '2.0', id: 9, method: 'tools/list' },
          { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' },
        )
        return after.status === 404
      }, 2000)
    }
  },
)

test.skipIf(redis === undefined)(
  'the standalone stream: events written on one instance reach a GET held on the other, and after that instance goes, a resume elsewhere replays each missed event once',
  async () => {
    const [a, b] = await twoInstances()
    const { headers } = await initialize(a.url, '2025-11-25', { elicitation: {} })
    const held = getStream(a.url, headers)
    const first = readSse(await held.opened)
    // A JSON-only call on B: its question goes out on the standalone stream, held on A.
    const jsonOnly = { ...headers, accept: 'application/json' }
    const asked = (id: number, url: string) =>
      post(
        url,
        { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'ask', arguments: {} } },
        jsonOnly,
      )
    const questions = () =>
      first
        .events()
        .filter((event) => event.data !== '' && JSON.parse(event.data).method === 'elicitation/create')
    const call1 = asked(1, b.url)
    await eventually(() => questions().length === 1)
    const question = JSON.parse((questions()[0] as { data: string }).data)
    // Answered through A (where the stream is); the answer is routed to B, which asked.
    const answer = (id: string | number, url: string) =>
      post(url, { jsonrpc: '2.0', id, result: { action: 'accept', content: { ok: true } } }, headers)
    expect((await answer(question.id, a.url)).status).toBe(202)
    expect((await call1).json).toMatchObject({
      id: 1,
      result: { content: [{ type: 'text', text: 'confirmed' }] },
    })
    const lastSeen = first.events().at(-1)?.id as string
    expect(lastSeen).toMatch(/^0_\d+-\d+$/)
    // A goes away; two questions are asked on B while no stream is held anywhere.
    held.close()
    await stop(a)
    const call2 = asked(2, b.url)
    const call3 = asked(3, b.url)
    const resumed = getStream(b.url, headers, lastSeen)
    const second = readSse(await resumed.opened)
    const replayed = () =>
      second
        .events()
        .filter((event) => event.data !== '' && JSON.parse(event.data).method === 'elicitation/create')
    await eventually(() => replayed().length === 2)
    for (const event of replayed()) expect((await answer(JSON.parse(event.data).id, b.url)).status).toBe(202)
    expect((await call2).json).toMatchObject({
      id: 2,
      result: { content: [{ type: 'text', text: 'confirmed' }] },
    })
    expect((await call3).json).toMatchObject({
      id: 3,
      result: { content: [{ type: 'text', text: 'confirmed' }] },
    })
    const ids = [...first.events(), ...second.events()].map((event) => event.id)
    expect(new Set(ids).size).toBe(ids.length)
    const questionIds = [...questions(), ...replayed()].map((event) => JSON.parse(event.data).id)
    expect(new Set(questionIds).size).toBe(3)
    resumed.close()
  },
)

test.skipIf(redis === undefined)(
  "a request's stream closed by its instance is resumed on the other with Last-Event-ID until the answer comes",
  async () => {
    const [a, b] = await twoInstances()
    const { headers } = await initialize(a.url)
    const call = await fetch(a.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept, ...headers },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: { name: 'steps', arguments: {}, _meta: { progressToken: 'p' } },
      }),
    })
    const first = readSse(call)
    await first.done // the tool closed the stream after its first progress
    const progress = (events: Array<{ data: string }>) =>
      events
        .filter((event) => event.data !== '')
        .map((event) => JSON.parse(event.data).params?.message ?? 'answer')
    expect(progress(first.events())).toEqual(['one'])
    let lastId = first.events().at(-1)?.id as string
    expect(lastId).toMatch(/^[0-9a-f]{8}\.\d+_\d+$/)
    // Still running on A: B replays nothing new and ends the stream (the client polls again).
    const early = getStream(b.url, headers, lastId)
    const earlyEvents = readSse(await early.opened)
    await earlyEvents.done
    expect(progress(earlyEvents.events())).toEqual([])
    release?.()
    const seen: string[] = []
    await eventually(async () => {
      const again = readSse(await getStream(b.url, headers, lastId).opened)
      await again.done
      const events = again.events()
      seen.push(...progress(events))
      lastId = events.at(-1)?.id ?? lastId
      return seen.includes('answer')
    })
    expect(seen).toEqual(['two', 'three', 'answer'])
  },
)

test.skipIf(redis === undefined)(
  'a log level set through one instance applies at once on the other, whose copy was just checked',
  async () => {
    const [a, b] = await twoInstances()
    const { headers } = await initialize(a.url)
    const chatty = async (url: string) => {
      const answer = await post(
        url,
        { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'chatty', arguments: {} } },
        headers,
      )
      return parseEvents(answer.text).some((event) => event.data.includes('a debug line'))
    }
    const setLevel = (url: string, level: string) =>
      post(url, { jsonrpc: '2.0', id: 4, method: 'logging/setLevel', params: { level } }, headers)
    expect((await setLevel(a.url, 'debug')).status).toBe(200)
    expect(await chatty(b.url)).toBe(true)
    // B's copy was checked a moment ago and would serve unchecked for a second; the change on A
    // reaches it on a channel first (the bound is below that second, so a copy that only waited
    // for its next check would fail here).
    expect((await setLevel(a.url, 'error')).status).toBe(200)
    await eventually(async () => !(await chatty(b.url)), 800)
    expect((await setLevel(b.url, 'debug')).status).toBe(200)
    await eventually(() => chatty(a.url), 2000)
  },
)

test.skipIf(redis === undefined)(
  'a Last-Event-ID that names no stream of the session gets 400, never a question to the store that fails',
  async () => {
    const [a] = await twoInstances()
    const { headers } = await initialize(a.url)
    const hostile = [
      '0_99999999999999999999-0', // past Redis's stream id range
      '0_1-2-3',
      '0_abc',
      'deadbeef.1_99999999999999999999',
      'deadbeef.1_5-3',
      'x'.repeat(4000),
      '../../etc_1',
      '0_',
    ]
    for (const lastEventId of hostile) {
      const response = await fetch(a.url, {
        headers: { accept: 'text/event-stream', ...headers, 'last-event-id': lastEventId },
      })
      const text = await response.text()
      expect(response.status, lastEventId.slice(0, 40)).toBe(400)
      expect(text).toMatch(/unknown Last-Event-ID/)
    }
    // A well-formed id of a stream this session never had: unknown too.
    const never = await fetch(a.url, {
      headers: { accept: 'text/event-stream', ...headers, 'last-event-id': 'deadbeef.7_3' },
    })
    await never.text()
    expect(never.status).toBe(400)
  },
)

test.skipIf(redis === undefined)(
  'made-up session ids (other keys of a real session, absurd lengths) get 404, never a 5xx',
  async () => {
    const [a] = await twoInstances()
    const { sessionId, headers } = await initialize(a.url, '2025-11-25', { elicitation: {} })
    // Give the session a standalone event log in the store: a JSON-only call's question goes there.
    const held = getStream(a.url, headers)
    const events = readSse(await held.opened)
    const call = post(
      a.url,
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'ask', arguments: {} } },
      { ...headers, accept: 'application/json' },
    )
    await eventually(() => events.events().some((event) => event.data.includes('elicitation/create')))
    const question = JSON.parse(
      (events.events().find((event) => event.data.includes('elicitation/create')) as { data: string }).data,
    )
    await post(a.url, { jsonrpc: '2.0', id: question.id, result: { action: 'decline' } }, headers)
    expect((await call).json).toMatchObject({ id: 2, result: { content: [{ text: 'declined' }] } })
    held.close()
    for (const made of [
      `${sessionId}:sse:0`,
      `${sessionId}:0`,
      `${sessionId}:once:x`,
      'x'.repeat(1000),
      'a b',
    ]) {
      const response = await post(
        a.url,
        { jsonrpc: '2.0', id: 1, method: 'tools/list' },
        { 'mcp-session-id': made, 'mcp-protocol-version': '2025-11-25' },
      )
      expect(response.status, made.slice(0, 60)).toBe(404)
    }
  },
)

/** A TCP proxy to Redis that a test can cut (every connection closed, new ones refused) and restore. */
async function cuttableProxy(target: string) {
  const { hostname, port } = new URL(target)
  const sockets = new Set<Socket>()
  let open = true
  const server = createServer((client) => {
    if (!open) return client.destroy()
    const upstream = netConnect(Number(port), hostname)
    for (const socket of [client, upstream]) {
      sockets.add(socket)
      socket.on('error', () => {})
      socket.on('close', () => {
        sockets.delete(socket)
        client.destroy()
        upstream.destroy()
      })
    }
    client.pipe(upstream).pipe(client)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address() as { port: number }
  return {
    url: `redis://127.0.0.1:${address.port}`,
    cut() {
      open = false
      for (const socket of sockets) socket.destroy()
    },
    restore() {
      open = true
    },
    close() {
      for (const socket of sockets) socket.destroy()
      return new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

test.skipIf(redis === undefined)(
  'an answer routed while the asking instance was cut off from Redis reaches it once it is back',
  async () => {
    const prefix = `mcp-kit-test:${randomUUID()}:`
    const proxy = await cuttableProxy(redisUrl)
    try {
      const farStore = await redisStore({ url: proxy.url, prefix, connectTimeoutMs: 3000 })
      const nearStore = await redisStore({ url: redisUrl, prefix, connectTimeoutMs: 3000 })
      stores.push(farStore, nearStore)
      // The instance that asks hears Redis through the proxy; the other one takes the answer.
      const asking = await serve(registry(), { store: farStore, questionTimeoutMs: 15_000 })
      const answering = await serve(registry(), { store: nearStore })
      const steered: typeof fetch = (_input, init) => {
        return fetch(
          typeof init?.body === 'string' && init.body.includes('"tools/call"') ? asking.url : answering.url,
          init,
        )
      }
      const { client } = await sdkClient(answering.url, { elicitation: {} }, {}, steered)
      client.setRequestHandler(ElicitRequestSchema, async () => {
        proxy.cut()
        await eventually(() => !farStore.ready())
        // Back after the answer was sent: the message routing it went to nobody.
        setTimeout(() => proxy.restore(), 500)
        return { action: 'accept', content: { ok: true } }
      })
      // Before, the question waited for its answer until questionTimeoutMs failed it.
      const result = await client.callTool({ name: 'ask', arguments: {} })
      expect(result.content).toEqual([{ type: 'text', text: 'confirmed' }])
      await client.close()
    } finally {
      proxy.restore()
      await proxy.close()
    }
  },
)

test.skipIf(redis === undefined)(
  "at the session cap, an instance drops its idle copies of other instances' sessions instead of refusing new ones",
  async () => {
    const prefix = `mcp-kit-test:${randomUUID()}:`
    const open = async () => {
      const store = await redisStore({ url: redisUrl, prefix, connectTimeoutMs: 3000 })
      stores.push(store)
      return serve(registry(), { store, maxSessions: 2, maxSessionsPerClient: 10 })
    }
    const [a, b] = [await open(), await open()]
    const call = (url: string, headers: Record<string, string>) =>
      post(
        url,
        { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'whoami', arguments: {} } },
        headers,
      )
    // Two sessions opened on A, each used once on B: B now holds a copy of both (its cap).
    const first = await initialize(a.url)
    const second = await initialize(a.url)
    for (const session of [first, second]) expect((await call(b.url, session.headers)).status).toBe(200)
    // Before, B refused every new session (503) while it held those copies.
    const third = await initialize(b.url)
    const fourth = await initialize(b.url)
    // Sessions opened on B count as always: with two of its own, B is full.
    const refused = await post(b.url, initializeBody)
    expect(refused.status).toBe(503)
    expect(refused.text).toContain('too many sessions on this server (limit 2)')
    // A dropped copy is taken from the store again when its session comes back to B.
    for (const session of [first, second, third, fourth]) {
      const answer = await call(b.url, session.headers)
      expect(answer.status).toBe(200)
      expect(answer.text).toContain(session.sessionId)
    }
    // A copy in use is not dropped: B's copy of `first` holds the client's GET stream.
    const c = await open()
    const held = getStream(c.url, first.headers)
    expect((await held.opened).status).toBe(200)
    const busy = await initialize(c.url)
    expect((await call(c.url, busy.headers)).status).toBe(200)
    const notDropped = await post(c.url, initializeBody)
    expect(notDropped.status).toBe(503)
    held.close()
  },
)

test.skipIf(redis === undefined)(
  'answers to questions nobody asked are not kept in the store (a client cannot fill Redis with them)',
  async () => {
    const prefix = `mcp-kit-test:${randomUUID()}:`
    const store = await redisStore({ url: redisUrl, prefix, connectTimeoutMs: 3000 })
    stores.push(store)
    const server = await serve(registry(), { store })
    const { sessionId, headers } = await initialize(server.url)
    const madeUp = 'mcp-kit-0badc0de-7'
    const answer = await post(
      server.url,
      { jsonrpc: '2.0', id: madeUp, result: { padding: 'x'.repeat(100_000) } },
      headers,
    )
    expect(answer.status).toBe(202)
    // The routing is fire-and-forget: give it the time of a few round trips to do wrong.
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(await store.get(`session-answer:${sessionId}:${madeUp}`)).toBeUndefined()
  },
)
