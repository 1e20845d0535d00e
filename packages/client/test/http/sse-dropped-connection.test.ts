// The resend rule over legacy HTTP+SSE (the SDK's SSE transport behind the client's fetch): a POSTed
// request whose reused connection the server closes as it arrives is sent once more on a new
// connection when it is safe to repeat, and fails saying it may or may not have run otherwise. A
// hand-written 2024-11-05 SSE server on 127.0.0.1 (POST /mcp answers 404, so the client falls
// back); Node's fetch on a global pool of two connections: the event stream holds one, every POST
// after the first reuses the other (deterministic, no race).

import { createServer, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { Agent, type Dispatcher, getGlobalDispatcher, setGlobalDispatcher } from 'undici'
import { afterEach, beforeEach, expect, test } from 'vitest'
import { connect, noEraCache } from '../../src/index.js'
import { failureOf } from '../helpers/processes.js'

const cleanups: Array<() => Promise<unknown>> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

let previous: Dispatcher
beforeEach(() => {
  previous = getGlobalDispatcher()
  const pool = new Agent({ connections: 2, keepAliveTimeout: 600_000, keepAliveMaxTimeout: 600_000 })
  setGlobalDispatcher(pool)
  cleanups.push(async () => {
    setGlobalDispatcher(previous)
    await pool.destroy()
  })
})

const nodeFetch = (url: string | URL, init?: RequestInit) => globalThis.fetch(url, init)

const tools = [
  { name: 'charge', inputSchema: { type: 'object' } },
  { name: 'set-flag', inputSchema: { type: 'object' }, annotations: { idempotentHint: true } },
]

test('legacy SSE: a list and an idempotent call are sent again, a plain call fails clearly; nothing runs twice', async () => {
  const runs = new Map<string, number>()
  const served = new Map<string, number>()
  const requestsOn = new WeakMap<Socket, number>()
  let toDrop = 0
  let dropped = 0
  let stream: ServerResponse | undefined
  const server = createServer(async (request, response) => {
    const socket = request.socket
    const reused = (requestsOn.get(socket) ?? 0) > 0
    requestsOn.set(socket, (requestsOn.get(socket) ?? 0) + 1)
    if (request.method === 'GET') {
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
      response.write('event: endpoint\ndata: /messages\n\n')
      stream = response
      return
    }
    if (!request.url?.startsWith('/messages')) {
      request.resume()
      response.writeHead(404).end()
      return
    }
    if (reused && toDrop > 0) {
      toDrop -= 1
      dropped += 1
      socket.destroy()
      return
    }
    let body = ''
    for await (const chunk of request) body += chunk
    response.writeHead(202).end()
    const message = JSON.parse(body) as { id?: number; method: string; params?: { name?: string } }
    served.set(message.method, (served.get(message.method) ?? 0) + 1)
    if (message.id === undefined) return
    const answer = (result: unknown) =>
      stream?.write(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: message.id, result })}\n\n`)
    if (message.method === 'initialize') {
      answer({
        protocolVersion: '2024-11-05',
        capabilities: { tools: {} },
        serverInfo: { name: 'old', version: '1' },
      })
    } else if (message.method === 'tools/list') answer({ tools })
    else if (message.method === 'tools/call') {
      const name = message.params?.name ?? ''
      runs.set(name, (runs.get(name) ?? 0) + 1)
      answer({ content: [{ type: 'text', text: `${name} ran` }] })
    } else answer({})
  })
  server.keepAliveTimeout = 0
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  )
  const session = await connect(
    { transport: 'http', url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp` },
    { fetch: nodeFetch, protocol: '2025-11-25', eraCache: noEraCache },
  )
  cleanups.push(() => session.close())
  expect(session.transportKind).toBe('sse')
  await session.listTools()

  toDrop = 1
  session.invalidateTools()
  expect(await session.listTools()).toHaveLength(2)
  expect(dropped).toBe(1)
  expect(served.get('tools/list')).toBe(2)

  // The dropped connection was the POSTs' one: a list makes the pool hold an idle one again.
  const warm = async () => {
    session.invalidateTools()
    await session.listTools()
  }
  await warm()
  toDrop = 1
  const failure = await failureOf(session.callTool('charge'))
  expect(failure.code).toBe('connect_failed')
  expect(failure.message).toMatch(
    /^tools\/call 'charge': the connection to .* closed before an answer \(.+\); the call may or may not have run on the server\. It was not sent again: a tool call is repeated only when the tool is annotated idempotentHint or readOnlyHint$/,
  )
  expect(dropped).toBe(2)
  expect(runs.get('charge')).toBeUndefined()

  await warm()
  toDrop = 1
  expect((await session.callTool('set-flag')).content).toEqual([{ type: 'text', text: 'set-flag ran' }])
  expect(dropped).toBe(3)
  expect(Object.fromEntries(runs)).toEqual({ 'set-flag': 1 })
})
