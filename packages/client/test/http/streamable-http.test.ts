// @module-tag integration
// The client's own Streamable HTTP transport, on the wire: what it sends (asserted on a raw
// node:http server) and what it makes of the answers, in both eras. Resumption (SEP-1699) runs
// against mcp-kit's own server, whose tool closes its stream mid-call.

import { Buffer } from 'node:buffer'
import { importedModules } from '@mcp-kit/fixtures'
import { createToolRegistry, startHttpServer } from '@mcp-kit/server'
import type { JSONRPCMessage } from '@modelcontextprotocol/client'
import { afterEach, describe, expect, it } from 'vitest'
import { HttpStatusError } from '../../src/http/errors.js'
import { HttpTransport } from '../../src/http/streamable-http.js'
import { undiciFetch } from '../../src/http/transports.js'
import { connect, noEraCache } from '../../src/index.js'
import {
  answerInitialize,
  answerJson,
  event,
  eventually,
  type RawServer,
  type RecordedRequest,
  startRawServer,
} from '../helpers/raw-http.js'

const cleanups: Array<() => Promise<unknown>> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function rawServer(handle: Parameters<typeof startRawServer>[0]): Promise<RawServer> {
  const server = await startRawServer(handle)
  cleanups.push(() => server.close())
  return server
}

async function transportTo(url: string, headers?: Record<string, string>) {
  const transport = new HttpTransport(new URL(url), { fetch: await undiciFetch(), headers })
  const messages: Record<string, unknown>[] = []
  const failures: Array<{ id: number | string; error: Error }> = []
  const errors: Error[] = []
  transport.onmessage = (message) => messages.push(message as unknown as Record<string, unknown>)
  transport.onrequestfailed = (id, error) => failures.push({ id, error })
  transport.onerror = (error) => errors.push(error)
  await transport.start()
  cleanups.push(() => transport.close())
  return { transport, messages, failures, errors }
}

const request = (id: number, method: string, params: Record<string, unknown> = {}) =>
  ({ jsonrpc: '2.0', id, method, params }) as unknown as JSONRPCMessage
const notification = (method: string, params?: Record<string, unknown>) =>
  ({ jsonrpc: '2.0', method, ...(params ? { params } : {}) }) as unknown as JSONRPCMessage
const posts = (server: RawServer) => server.requests.filter((seen) => seen.method === 'POST')
const byMethod = (server: RawServer, method: string) =>
  server.requests.find((seen) => seen.json?.method === method) as RecordedRequest

/** A 2025-11-25 endpoint: a session id at initialize, JSON or SSE answers, a GET stream, DELETE. */
function legacyHandler(onGet?: (response: import('node:http').ServerResponse) => void) {
  return (seen: RecordedRequest, response: import('node:http').ServerResponse) => {
    if (seen.method === 'DELETE') return void response.writeHead(200).end()
    if (seen.method === 'GET') {
      if (!onGet) return void response.writeHead(405).end()
      response.writeHead(200, { 'content-type': 'text/event-stream' })
      return onGet(response)
    }
    const message = seen.json as { id?: number; method?: string }
    if (message.method === undefined || message.id === undefined) return void response.writeHead(202).end()
    if (message.method === 'server/discover') {
      const error = { code: -32601, message: 'Method not found' }
      return answerJson(response, { jsonrpc: '2.0', id: message.id, error })
    }
    if (message.method === 'initialize') return answerInitialize(response, message.id)
    if (message.method === 'tools/call') {
      response.writeHead(200, { 'content-type': 'text/event-stream' })
      response.write(
        event({
          jsonrpc: '2.0',
          method: 'notifications/progress',
          params: { progressToken: 0, progress: 1 },
        }),
      )
      return void response.end(
        event({ jsonrpc: '2.0', id: message.id, result: { content: [{ type: 'text', text: 'streamed' }] } }),
      )
    }
    answerJson(response, { jsonrpc: '2.0', id: message.id, result: {} })
  }
}

describe('2025-11-25 (legacy era)', () => {
  it('JSON and SSE answers, 202 for notifications and responses, the session id and version sent back', async () => {
    const server = await rawServer(legacyHandler())
    const { transport, messages } = await transportTo(server.url)
    await transport.send(request(0, 'initialize'))
    await eventually(() => expect(messages.map((message) => message.id)).toEqual([0]))
    expect(transport.sessionId).toBe('s-1')
    transport.setProtocolVersion('2025-11-25')
    await transport.send(notification('notifications/initialized'))
    await transport.send(request(1, 'tools/call', { name: 'x' }))
    await eventually(() => expect(messages).toHaveLength(3))
    expect(messages[1]).toMatchObject({ method: 'notifications/progress' })
    expect(messages[2]).toMatchObject({ id: 1, result: { content: [{ text: 'streamed' }] } })
    await transport.send({ jsonrpc: '2.0', id: 'from-server', result: {} } as JSONRPCMessage)

    const [initialize, ...rest] = posts(server)
    expect(initialize?.headers).toMatchObject({
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
    })
    expect(initialize?.headers['mcp-session-id']).toBeUndefined()
    for (const later of rest) {
      expect(later.headers).toMatchObject({ 'mcp-session-id': 's-1', 'mcp-protocol-version': '2025-11-25' })
    }
    expect(rest.map((seen) => seen.json?.method ?? seen.json?.id)).toEqual([
      'notifications/initialized',
      'tools/call',
      'from-server',
    ])
    // The standalone stream was asked for once initialized (this server has none: 405).
    await eventually(() =>
      expect(server.requests.find((seen) => seen.method === 'GET')?.headers).toMatchObject({
        accept: expect.stringContaining('text/event-stream'),
        'mcp-session-id': 's-1',
      }),
    )
  })

  it('the GET stream: a notification arrives and a server-to-client request is answered; DELETE on close', async () => {
    const server = await rawServer(
      legacyHandler((stream) => {
        stream.write(
          event({
            jsonrpc: '2.0',
            method: 'notifications/message',
            params: { level: 'info', data: 'hello' },
          }),
        )
        stream.write(event({ jsonrpc: '2.0', id: 'srv-1', method: 'ping' }))
      }),
    )
    const logs: unknown[] = []
    const session = await connect(
      { transport: 'http', url: server.url },
      { protocol: '2025-11-25', eraCache: noEraCache, onLog: (message) => logs.push(message) },
    )
    await eventually(() => expect(logs).toEqual([{ level: 'info', data: 'hello' }]))
    await eventually(() =>
      expect(posts(server).find((seen) => seen.json?.id === 'srv-1')?.json).toEqual({
        jsonrpc: '2.0',
        id: 'srv-1',
        result: {},
      }),
    )
    await session.close()
    const deleted = server.requests.filter((seen) => seen.method === 'DELETE')
    expect(deleted).toHaveLength(1)
    expect(deleted[0]?.headers['mcp-session-id']).toBe('s-1')
  })

  it('closing does not wait long for a server that never answers the DELETE', async () => {
    const answer = legacyHandler()
    const server = await rawServer((seen, response) => {
      if (seen.method !== 'DELETE') answer(seen, response)
    })
    const session = await connect(
      { transport: 'http', url: server.url },
      { protocol: '2025-11-25', eraCache: noEraCache },
    )
    await session.close()
    expect(server.requests.filter((seen) => seen.method === 'DELETE')).toHaveLength(1)
  }, 10_000)

  it('notifications/cancelled also closes the cancelled request’s stream', async () => {
    const closed: unknown[] = []
    const server = await rawServer((seen, response) => {
      if (seen.json?.id === undefined) return void response.writeHead(202).end()
      response.writeHead(200, { 'content-type': 'text/event-stream' })
      response.write(': working\n\n')
      response.once('close', () => closed.push(seen.json?.id))
    })
    const { transport } = await transportTo(server.url)
    await transport.send(request(5, 'tools/call', { name: 'slow' }))
    await transport.send(notification('notifications/cancelled', { requestId: 5, reason: 'timeout' }))
    await eventually(() => expect(closed).toEqual([5]))
    expect(posts(server).map((seen) => seen.json?.method)).toEqual(['tools/call', 'notifications/cancelled'])
  })

  it('a stream that ends before its response, with no event id to resume from, fails that request', async () => {
    const server = await rawServer((_seen, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' })
      response.end(
        event({
          jsonrpc: '2.0',
          method: 'notifications/progress',
          params: { progressToken: 7, progress: 1 },
        }),
      )
    })
    const { transport, failures } = await transportTo(server.url)
    await transport.send(request(7, 'tools/call', { name: 'x' }))
    await eventually(() => expect(failures.map((failure) => failure.id)).toEqual([7]))
    expect(failures[0]?.error).toMatchObject({ code: 'connect_failed' })
  })

  it('resumes with Last-Event-ID after the server closes the stream mid-call (mcp-kit serve, SEP-1699)', async () => {
    const registry = createToolRegistry().tool({
      name: 'poll-me',
      handler: async (_args, context) => {
        context.closeStream()
        await new Promise((resolve) => setTimeout(resolve, 200))
        return 'after the stream was closed'
      },
    })
    const running = await startHttpServer(registry, { retryMs: 50 })
    cleanups.push(() => running.close({ graceMs: 0 }))
    const seen: Array<{ method?: string; lastEventId?: string | string[] }> = []
    running.server.on('request', (incoming) =>
      seen.push({ method: incoming.method, lastEventId: incoming.headers['last-event-id'] }),
    )
    const session = await connect(
      { transport: 'http', url: running.url },
      { protocol: '2025-11-25', eraCache: noEraCache },
    )
    cleanups.push(() => session.close())
    expect(await session.callTool('poll-me', {})).toMatchObject({
      content: [{ type: 'text', text: 'after the stream was closed' }],
    })
    expect(seen).toContainEqual({ method: 'GET', lastEventId: expect.stringMatching(/\S/) })
  })
})

describe('2026-07-28 (modern era)', () => {
  const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' }

  it('every POST carries the version, Mcp-Method and, where it applies, Mcp-Name (Base64 when not plain ASCII)', async () => {
    const server = await rawServer((seen, response) =>
      answerJson(
        response,
        { jsonrpc: '2.0', id: seen.json?.id, result: {} },
        { 'mcp-session-id': 'ignored' },
      ),
    )
    const { transport, messages } = await transportTo(server.url)
    transport.era = 'modern'
    transport.setProtocolVersion('2026-07-28')
    await transport.send(request(1, 'tools/call', { name: 'héllo wörld', arguments: {}, _meta: meta }), {
      headers: { 'Mcp-Param-Region': 'us-west1' },
    })
    await transport.send(request(2, 'resources/read', { uri: 'file:///tmp/a b.txt', _meta: meta }))
    await transport.send(request(3, 'prompts/get', { name: '=?base64?literal?=', _meta: meta }))
    await transport.send(request(4, 'tools/list', { _meta: meta }))
    await eventually(() => expect(messages).toHaveLength(4))

    const encoded = `=?base64?${Buffer.from('héllo wörld').toString('base64')}?=`
    expect(byMethod(server, 'tools/call').headers).toMatchObject({
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': encoded,
      'mcp-param-region': 'us-west1',
    })
    expect(byMethod(server, 'resources/read').headers['mcp-name']).toBe('file:///tmp/a b.txt')
    // A plain value that looks like the sentinel is encoded too (the spec's own example).
    expect(byMethod(server, 'prompts/get').headers['mcp-name']).toBe('=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=')
    expect(byMethod(server, 'tools/list').headers['mcp-name']).toBeUndefined()
    for (const seen of server.requests) {
      expect(seen.method).toBe('POST')
      expect(seen.headers['mcp-session-id']).toBeUndefined()
    }
  })

  it('neither --header nor per-message headers can override the protocol headers', async () => {
    const server = await rawServer((seen, response) =>
      answerJson(response, { jsonrpc: '2.0', id: seen.json?.id, result: {} }),
    )
    const { transport, messages } = await transportTo(server.url, {
      Accept: 'text/html',
      'MCP-Protocol-Version': '1999-01-01',
      'X-Team': 'blue',
    })
    transport.era = 'modern'
    transport.setProtocolVersion('2026-07-28')
    await transport.send(request(1, 'tools/call', { name: 'real', _meta: meta }), {
      headers: { 'Mcp-Method': 'tools/list', 'mcp-name': 'other', 'Content-Type': 'text/plain' },
    })
    await eventually(() => expect(messages).toHaveLength(1))
    expect(server.requests[0]?.headers).toMatchObject({
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'real',
      'x-team': 'blue',
    })
  })

  it('a 4xx whose body is a JSON-RPC error is that request’s answer', async () => {
    const server = await rawServer((seen, response) => {
      const id = seen.json?.id
      const [status, code] = seen.json?.method === 'nope' ? [404, -32601] : [400, -32022]
      response.writeHead(status, { 'content-type': 'application/json' })
      response.end(JSON.stringify({ jsonrpc: '2.0', id, error: { code, message: `refused ${code}` } }))
    })
    const { transport, messages, failures } = await transportTo(server.url)
    transport.era = 'modern'
    await transport.send(request(1, 'server/discover', { _meta: meta }))
    await transport.send(request(2, 'nope', { _meta: meta }))
    await eventually(() => expect(messages).toHaveLength(2))
    expect(messages).toEqual([
      { jsonrpc: '2.0', id: 1, error: { code: -32022, message: 'refused -32022' } },
      { jsonrpc: '2.0', id: 2, error: { code: -32601, message: 'refused -32601' } },
    ])
    expect(failures).toEqual([])
  })

  it('a 4xx without a JSON-RPC body rejects the send with the HTTP status', async () => {
    const server = await rawServer((_seen, response) => {
      response.writeHead(400, { 'content-type': 'text/plain' })
      response.end('Bad Request: no such thing')
    })
    const { transport } = await transportTo(server.url)
    transport.era = 'modern'
    const failure = await transport
      .send(request(1, 'server/discover', { _meta: meta }))
      .catch((error) => error)
    expect(failure).toBeInstanceOf(HttpStatusError)
    expect(failure).toMatchObject({ status: 400, body: 'Bad Request: no such thing' })
  })

  it('abortRequest closes that request’s stream (cancellation), and only that one', async () => {
    const closed: unknown[] = []
    const server = await rawServer((seen, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' })
      response.once('close', () => closed.push(seen.json?.id))
      let sequence = 0
      const timer = setInterval(() => {
        response.write(
          event({
            jsonrpc: '2.0',
            method: 'notifications/tools/list_changed',
            params: { sequence: sequence++ },
          }),
        )
      }, 20)
      response.once('close', () => clearInterval(timer))
    })
    const { transport, messages } = await transportTo(server.url)
    transport.era = 'modern'
    await transport.send(request(1, 'subscriptions/listen', { _meta: meta }))
    await transport.send(request(2, 'subscriptions/listen', { _meta: meta }))
    await eventually(() => expect(messages.length).toBeGreaterThanOrEqual(4))
    transport.abortRequest(1)
    await eventually(() => expect(closed).toEqual([1]))
    await transport.close()
    await eventually(() => expect(closed).toEqual([1, 2]))
  })
})

describe('redirects', () => {
  it('follows a 307 within the origin; does not follow one to another origin (headers stay home)', async () => {
    const elsewhere = await rawServer((seen, response) =>
      answerJson(response, { jsonrpc: '2.0', id: seen.json?.id, result: { where: 'elsewhere' } }),
    )
    const server = await rawServer((seen, response) => {
      if (seen.path === '/moved') {
        return answerJson(response, { jsonrpc: '2.0', id: seen.json?.id, result: { where: 'moved' } })
      }
      const target = seen.json?.method === 'stay' ? '/moved' : `${elsewhere.origin}/mcp`
      response.writeHead(307, { location: target }).end()
    })
    const { transport, messages } = await transportTo(server.url, { Authorization: 'Bearer s3cret' })
    await transport.send(request(1, 'stay'))
    await eventually(() => expect(messages).toEqual([{ jsonrpc: '2.0', id: 1, result: { where: 'moved' } }]))
    const failure = await transport.send(request(2, 'leave')).catch((error) => error)
    expect(failure).toMatchObject({ status: 307 })
    expect(elsewhere.requests).toEqual([])
  })

  it('a redirect not followed is reported with where it points and why (it was only "HTTP 302")', async () => {
    const server = await rawServer((seen, response) => {
      const location = seen.path === '/relative/mcp' ? '../v3/mcp' : 'https://mcp.example.com/v2/mcp'
      response.writeHead(302, { location }).end()
    })
    const failure = await connect({ transport: 'http', url: server.url }, { eraCache: noEraCache }).catch(
      (error) => error,
    )
    expect(failure).toMatchObject({
      code: 'http_error',
      message: `${server.url}: HTTP 302 (a redirect to https://mcp.example.com/v2/mcp, not followed: a POST follows only 307 and 308 redirects within the same origin, at most 5 in a row; use the new address if you trust it)`,
      details: { status: 302 },
    })
    // A relative Location is shown resolved, as the address to use.
    const relative = await connect(
      { transport: 'http', url: `${server.origin}/relative/mcp` },
      { eraCache: noEraCache },
    ).catch((error) => error)
    expect(relative.message).toContain(`(a redirect to ${server.origin}/v3/mcp, not followed`)
  })
})

it('a session over Streamable HTTP loads no MCP SDK code and, without a proxy, no undici (start-up time)', async () => {
  const server = await rawServer(legacyHandler())
  const entry = new URL('../../dist/index.js', import.meta.url).href
  const script = `
    for (const name of ['HTTP_PROXY', 'HTTPS_PROXY', 'http_proxy', 'https_proxy']) delete process.env[name]
    const { connect, noEraCache } = await import(${JSON.stringify(entry)})
    const session = await connect({ transport: 'http', url: ${JSON.stringify(server.url)} }, { eraCache: noEraCache })
    await session.close()
    console.log(session.protocolVersion)`
  const { stdout, urls } = await importedModules(['--input-type=module', '-e', script])
  expect(stdout.trim()).toBe('2025-11-25')
  expect(urls.filter((url) => url.includes('@modelcontextprotocol') || url.includes('/undici/'))).toEqual([])
})

it.each(['2025-11-25', '2026-07-28'])(
  'a server gone mid-session (%s): the call fails with connect_failed, saying so',
  async (protocol) => {
    const registry = createToolRegistry().tool({ name: 'echo', handler: () => 'hi' })
    const running = await startHttpServer(registry)
    let stopped = false
    cleanups.push(() => (stopped ? Promise.resolve() : running.close({ graceMs: 0 })))
    const session = await connect({ transport: 'http', url: running.url }, { protocol, eraCache: noEraCache })
    cleanups.push(() => session.close())
    await running.close({ graceMs: 0 })
    stopped = true
    const failure = await session.callTool('echo', {}).catch((error) => error)
    expect(failure).toMatchObject({
      code: 'connect_failed',
      message: `tools/call 'echo': cannot connect to ${running.url}: connection refused`,
    })
  },
)
