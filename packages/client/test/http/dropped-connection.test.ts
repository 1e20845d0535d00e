// A request sent on a pooled keep-alive connection that the server closes as it arrives (its idle
// close meeting the reuse): what is safe to repeat goes out once more on a new connection, anything
// else fails saying it may or may not have run; the server's counts show nothing ran twice. Real
// HTTP on 127.0.0.1: @mcp-kit/server's handler behind a node:http server that drops reused
// connections on cue, and Node's own fetch (the client's default) on a global pool of one
// long-lived connection, so every request after the first reuses it (deterministic, no race).

import { createServer, type Server } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { createHttpHandler, createToolRegistry } from '@mcp-kit/server'
import { Agent, type Dispatcher, getGlobalDispatcher, setGlobalDispatcher } from 'undici'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { droppedBeforeAnswer, onNewConnection } from '../../src/http/resend.js'
import { ClientError, connect, noEraCache, type Session } from '../../src/index.js'
import { failureOf } from '../helpers/processes.js'

const cleanups: Array<() => Promise<unknown>> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

// Node's fetch on a pool of one connection that never idles out on its own.
let previous: Dispatcher
beforeEach(() => {
  previous = getGlobalDispatcher()
  const pool = new Agent({ connections: 1, keepAliveTimeout: 600_000, keepAliveMaxTimeout: 600_000 })
  setGlobalDispatcher(pool)
  cleanups.push(async () => {
    setGlobalDispatcher(previous)
    await pool.destroy()
  })
})

/** What the client uses without proxy variables (defaultFetch), named so the test does not depend on the environment. */
const nodeFetch = (url: string | URL, init?: RequestInit) => globalThis.fetch(url, init)

interface DroppingServer {
  url: string
  /** Runs of each tool's handler. */
  runs: Map<string, number>
  /** 2026-07-28 requests that reached the MCP handler, by Mcp-Method. */
  served: Map<string, number>
  /** Requests whose connection was closed as they arrived, by Mcp-Method (or POST). */
  dropped: Map<string, number>
  /**
   * The next `count` POSTs that arrive on a connection that served one before are dropped (with
   * `anyConnection`, on a new connection too): `close` ends the socket, `reset` resets it. First a
   * GET through the pool, so that it holds an idle connection for the next request to reuse.
   */
  drop(count: number, options?: { how?: 'close' | 'reset'; anyConnection?: boolean }): Promise<void>
  /** Connections opened so far. */
  connections(): number
}

function bump(map: Map<string, number>, key: string): void {
  map.set(key, (map.get(key) ?? 0) + 1)
}

async function droppingServer(): Promise<DroppingServer> {
  const runs = new Map<string, number>()
  const counted = (name: string) => (): string => {
    bump(runs, name)
    return `${name} ran`
  }
  const registry = createToolRegistry()
    .tool({ name: 'charge', description: 'Charges a card: not safe to repeat', handler: counted('charge') })
    .tool({
      name: 'set-flag',
      description: 'Sets a flag: idempotent',
      annotations: { idempotentHint: true },
      handler: counted('set-flag'),
    })
    .tool({
      name: 'lookup',
      description: 'Reads: read-only',
      annotations: { readOnlyHint: true },
      handler: counted('lookup'),
    })
  const handler = createHttpHandler(registry, {})
  const served = new Map<string, number>()
  const dropped = new Map<string, number>()
  const requestsOn = new WeakMap<Socket, number>()
  let toDrop = 0
  let dropping: { how?: 'close' | 'reset'; anyConnection?: boolean } = {}
  let opened = 0
  const server: Server = createServer((request, response) => {
    const socket = request.socket
    const before = requestsOn.get(socket) ?? 0
    requestsOn.set(socket, before + 1)
    const header = request.headers['mcp-method']
    const method = typeof header === 'string' ? header : undefined
    if (request.method === 'POST' && toDrop > 0 && (before > 0 || dropping.anyConnection)) {
      // The idle close meeting the reuse: the request is never read, let alone run.
      toDrop -= 1
      bump(dropped, method ?? 'POST')
      if (dropping.how === 'reset') socket.resetAndDestroy()
      else socket.destroy()
      return
    }
    if (request.method === 'GET') {
      // No standalone stream (2025-11-25): the one pooled connection stays free for requests.
      response.writeHead(405).end()
      return
    }
    if (method !== undefined) bump(served, method)
    handler.handle(request, response)
  })
  server.on('connection', () => {
    opened += 1
  })
  // Connections stay open until the test drops them: no idle close of the server's own to race with.
  server.keepAliveTimeout = 0
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  )
  cleanups.push(() => handler.close())
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`
  return {
    url,
    runs,
    served,
    dropped,
    async drop(count, options = {}) {
      await (await nodeFetch(url)).text()
      toDrop = count
      dropping = options
    },
    connections: () => opened,
  }
}

async function open(url: string, protocol: string): Promise<{ session: Session; diagnostics: string[] }> {
  const diagnostics: string[] = []
  const session = await connect(
    { transport: 'http', url },
    {
      fetch: nodeFetch,
      protocol,
      eraCache: noEraCache,
      onDiagnostic: (message) => diagnostics.push(message),
    },
  )
  cleanups.push(() => session.close())
  return { session, diagnostics }
}

describe('a request whose reused connection the server closes as it arrives', () => {
  test('2026-07-28: a list is sent again, a plain tool call fails clearly, idempotent and read-only calls are sent again; nothing runs twice', async () => {
    const server = await droppingServer()
    const { session, diagnostics } = await open(server.url, '2026-07-28')
    expect((await session.listTools()).map((tool) => tool.name).sort()).toEqual([
      'charge',
      'lookup',
      'set-flag',
    ])
    expect(server.served.get('tools/list')).toBe(1)

    // A list: dropped, sent again on a new connection, answered; the server listed once more.
    await server.drop(1)
    session.invalidateTools()
    expect(await session.listTools()).toHaveLength(3)
    expect(server.dropped.get('tools/list')).toBe(1)
    expect(server.served.get('tools/list')).toBe(2)
    expect(diagnostics.join('\n')).toMatch(
      /tools\/list: the connection to .* closed before an answer .*sending it again on a new connection/,
    )

    // A tool that is not safe to repeat: not sent again, and the error says what is known.
    await server.drop(1)
    const failure = await failureOf(session.callTool('charge'))
    expect(ClientError.isInstance(failure)).toBe(true)
    expect(failure.code).toBe('connect_failed')
    expect(failure.message).toMatch(
      /^tools\/call 'charge': the connection to http:\/\/127\.0\.0\.1:\d+\/mcp closed before an answer \(.+\); the call may or may not have run on the server\. It was not sent again: a tool call is repeated only when the tool is annotated idempotentHint or readOnlyHint$/,
    )
    expect(failure.details).toMatchObject({ reason: 'closed_before_answer', resent: false })
    expect(server.dropped.get('tools/call')).toBe(1)
    expect(server.runs.get('charge')).toBeUndefined()

    // Annotated idempotent, then read-only (this one with a reset instead of a close): sent again.
    await server.drop(1)
    expect((await session.callTool('set-flag')).content).toEqual([{ type: 'text', text: 'set-flag ran' }])
    await server.drop(1, { how: 'reset' })
    expect((await session.callTool('lookup')).content).toEqual([{ type: 'text', text: 'lookup ran' }])
    expect(server.dropped.get('tools/call')).toBe(3)

    // The session goes on; every handler ran exactly as often as it was called with an answer.
    expect((await session.callTool('charge')).content).toEqual([{ type: 'text', text: 'charge ran' }])
    expect(Object.fromEntries(server.runs)).toEqual({ charge: 1, 'set-flag': 1, lookup: 1 })
    expect(server.served.get('tools/call')).toBe(3)
  })

  test('2025-11-25: a tool the session has not listed is unknown, so not sent again even if it is idempotent', async () => {
    const server = await droppingServer()
    const { session } = await open(server.url, '2025-11-25')
    await server.drop(1)
    const failure = await failureOf(session.callTool('set-flag'))
    expect(failure.code).toBe('connect_failed')
    expect(failure.message).toMatch(/may or may not have run on the server/)
    expect(server.runs.get('set-flag')).toBeUndefined()
    // Once listed, the same tool is known to be idempotent.
    await session.listTools()
    await server.drop(1)
    expect((await session.callTool('set-flag')).content).toEqual([{ type: 'text', text: 'set-flag ran' }])
    expect(server.runs.get('set-flag')).toBe(1)
  })

  test('a repeatable request whose new connection is dropped too fails, saying it was sent twice', async () => {
    const server = await droppingServer()
    const { session } = await open(server.url, '2026-07-28')
    await session.listTools()
    await server.drop(2, { anyConnection: true })
    const failure = await failureOf(session.callTool('lookup'))
    expect(failure.code).toBe('connect_failed')
    expect(failure.message).toMatch(
      /^tools\/call 'lookup': the connection to .* closed before an answer \(.+\), and again when sent once more on a new connection$/,
    )
    expect(failure.details).toMatchObject({ reason: 'closed_before_answer', resent: true })
    expect(server.dropped.get('tools/call')).toBe(2)
    expect(server.runs.get('lookup')).toBeUndefined()
  })
})

describe('resend.ts', () => {
  test("Node's fetch sends a request on a new connection when given one (the pool's connection stays as it was)", async () => {
    const server = await droppingServer()
    const post = (fetch: typeof nodeFetch) =>
      fetch(server.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
    await (await post(nodeFetch)).text()
    await (await post(nodeFetch)).text()
    expect(server.connections()).toBe(1)
    await (await onNewConnection(nodeFetch, post)).text()
    expect(server.connections()).toBe(2)
    await (await post(nodeFetch)).text()
    expect(server.connections()).toBe(2)
  })

  test('only a connection closed or reset before an answer counts as dropped: not a refusal, an abort or a bad URL', async () => {
    const server = await droppingServer()
    await server.drop(1, { anyConnection: true })
    const dropped = await nodeFetch(server.url, { method: 'POST', body: '{}' }).catch((error) => error)
    expect(droppedBeforeAnswer(dropped)).toBe(true)
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const port = (closed.address() as AddressInfo).port
    await new Promise<void>((resolve) => closed.close(() => resolve()))
    const refused = await nodeFetch(`http://127.0.0.1:${port}/`).catch((error) => error)
    expect(refused.cause?.code).toBe('ECONNREFUSED')
    expect(droppedBeforeAnswer(refused)).toBe(false)
    const aborted = await nodeFetch(server.url, { signal: AbortSignal.abort() }).catch((error) => error)
    expect(droppedBeforeAnswer(aborted)).toBe(false)
    expect(droppedBeforeAnswer(new TypeError('fetch failed'))).toBe(false)
  })
})
