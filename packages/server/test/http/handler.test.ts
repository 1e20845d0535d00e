// Sessions over real HTTP: expiry, the cap, DELETE, stateless mode, many clients at once, and
// graceful shutdown with a call in flight.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, test } from 'vitest'
import { createHttpHandler } from '../../src/http/handler.js'
import { createDemoRegistry } from '../../src/registry/demo.js'
import { createToolRegistry } from '../../src/registry/registry.js'
import {
  eventually,
  holdStream,
  initialize,
  initializeBody,
  parseEvents,
  post,
  sdkClient,
  serve,
  sleep,
  stop,
} from '../helpers/http.js'

const list = { jsonrpc: '2.0', id: 1, method: 'tools/list' }

function echoCall(id: number, message: string) {
  return { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: { message } } }
}

describe('session lifecycle', () => {
  test('session ids are random UUIDs, one per initialize', async () => {
    const server = await serve(createDemoRegistry())
    const first = await initialize(server.url)
    const second = await initialize(server.url)
    expect(first.sessionId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    expect(second.sessionId).not.toBe(first.sessionId)
    expect(server.handler.stats().sessions).toBe(2)
  })

  test('an idle session expires; then its id gets 404', async () => {
    const server = await serve(createDemoRegistry(), { sessionIdleMs: 200 })
    const { headers } = await initialize(server.url)
    expect((await post(server.url, list, headers)).status).toBe(200)
    await eventually(() => server.handler.stats().sessions === 0)
    expect((await post(server.url, list, headers)).status).toBe(404)
  })

  test('a call in flight keeps a session; an open GET stream does not, and it is ended with the session', async () => {
    let release: () => void = () => {}
    const registry = createToolRegistry().tool({
      name: 'wait',
      handler: () => new Promise<string>((resolve) => (release = () => resolve('done'))),
    })
    const server = await serve(registry, { sessionIdleMs: 300 })
    const { headers } = await initialize(server.url)
    const stream = await holdStream(server.url, headers)
    const call = post(
      server.url,
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'wait' } },
      headers,
    )
    await eventually(() => server.handler.stats().inFlight === 1)
    await sleep(900)
    expect(server.handler.stats().sessions).toBe(1)
    release()
    expect((await call).json).toMatchObject({ result: { content: [{ text: 'done' }] } })
    // Idle counts from the end of the last request; the open stream does not hold the session.
    expect(server.handler.stats().streams).toBe(1)
    await eventually(() => server.handler.stats().sessions === 0)
    await stream.ended
    expect(server.handler.stats().streams).toBe(0)
    expect((await post(server.url, list, headers)).status).toBe(404)
  })

  test('at the session cap initialize gets 503; a freed slot can be used again', async () => {
    const server = await serve(createDemoRegistry(), { maxSessions: 2, maxSessionsPerClient: 10 })
    const first = await initialize(server.url)
    await initialize(server.url)
    const refused = await post(server.url, initializeBody)
    expect(refused.status).toBe(503)
    // Retry-After: when the first idle session expires (the default idle time is 600 s).
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(590)
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(600)
    expect((refused.json as { error: { message: string } }).error.message).toBe(
      'Service Unavailable: too many sessions on this server (limit 2); retry later',
    )
    const deleted = await fetch(server.url, { method: 'DELETE', headers: first.headers })
    expect(deleted.status).toBe(200)
    expect((await post(server.url, list, first.headers)).status).toBe(404)
    expect((await post(server.url, initializeBody)).status).toBe(200)
  })

  test('DELETE of an unknown session gets 404', async () => {
    const server = await serve(createDemoRegistry())
    expect(
      (await fetch(server.url, { method: 'DELETE', headers: { 'mcp-session-id': 'nope' } })).status,
    ).toBe(404)
  })

  test('200 concurrent sessions, each with its own protocol server', async () => {
    const server = await serve(createDemoRegistry())
    const sessions = await Promise.all(Array.from({ length: 200 }, () => initialize(server.url)))
    expect(new Set(sessions.map((session) => session.sessionId)).size).toBe(200)
    expect(server.handler.stats().sessions).toBe(200)
    const results = await Promise.all(
      sessions.map((session, index) => post(server.url, echoCall(7, `client ${index}`), session.headers)),
    )
    results.forEach((result, index) => {
      expect(result.json).toEqual({
        jsonrpc: '2.0',
        id: 7,
        result: { content: [{ type: 'text', text: `client ${index}` }] },
      })
    })
  })

  test('one session cannot see another session’s log level or subscriptions', async () => {
    const registry = createToolRegistry().tool({
      name: 'chatty',
      handler: async (_args, context) => {
        await context.log('debug', 'debug detail')
        await context.log('error', 'an error')
        return 'ok'
      },
    })
    const server = await serve(registry)
    const quiet = await initialize(server.url)
    const loud = await initialize(server.url)
    await post(
      server.url,
      { jsonrpc: '2.0', id: 1, method: 'logging/setLevel', params: { level: 'error' } },
      quiet.headers,
    )
    const sse = { accept: 'text/event-stream' }
    const call = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'chatty' } }
    const quietText = (await post(server.url, call, { ...quiet.headers, ...sse })).text
    const loudText = (await post(server.url, call, { ...loud.headers, ...sse })).text
    expect(quietText).not.toMatch(/debug detail/)
    expect(quietText).toMatch(/an error/)
    expect(loudText).toMatch(/debug detail/)
  })
})

describe('stateless mode', () => {
  test('no session ids; every POST is served on its own; GET and DELETE get 405', async () => {
    const server = await serve(createDemoRegistry(), { stateless: true })
    const initialized = await post(server.url, initializeBody)
    expect(initialized.status).toBe(200)
    expect(initialized.headers.get('mcp-session-id')).toBeNull()
    const call = await post(server.url, echoCall(3, 'no session'))
    expect(call.json).toEqual({
      jsonrpc: '2.0',
      id: 3,
      result: { content: [{ type: 'text', text: 'no session' }] },
    })
    expect((await post(server.url, { jsonrpc: '2.0', method: 'notifications/initialized' })).status).toBe(202)
    expect((await fetch(server.url, { headers: { accept: 'text/event-stream' } })).status).toBe(405)
    expect((await fetch(server.url, { method: 'DELETE' })).status).toBe(405)
    expect(server.handler.stats().sessions).toBe(0)
  })

  test('the SDK client works against a stateless server', async () => {
    const server = await serve(createDemoRegistry(), { stateless: true })
    const { client } = await sdkClient(server.url)
    expect(await client.callTool({ name: 'add', arguments: { a: 2, b: 5 } })).toMatchObject({
      structuredContent: { sum: 7 },
    })
  })
})

describe('graceful shutdown', () => {
  test('a call in flight finishes; new work gets 503; then sessions close and the port is released', async () => {
    let release: () => void = () => {}
    const registry = createToolRegistry().tool({
      name: 'slow',
      handler: () => new Promise<string>((resolve) => (release = () => resolve('finished'))),
    })
    const server = await serve(registry)
    const { headers } = await initialize(server.url)
    const inFlight = post(
      server.url,
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'slow' } },
      headers,
    )
    await eventually(() => server.handler.stats().inFlight === 1)
    const closed = stop(server, 10_000)
    // The listener stops accepting: a new connection is refused (a reused one would get 503).
    const refused = await post(server.url, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, headers).then(
      (response) => response.status,
      () => 'refused',
    )
    expect([503, 'refused']).toContain(refused)
    release()
    expect((await inFlight).json).toEqual({
      jsonrpc: '2.0',
      id: 1,
      result: { content: [{ type: 'text', text: 'finished' }] },
    })
    await closed
    await expect(fetch(server.url)).rejects.toThrow()
  })

  test('a call that outlives the grace period gets an error answer and its handler is aborted', async () => {
    let aborted = false
    const registry = createToolRegistry().tool({
      name: 'stuck',
      handler: (_args, context) =>
        new Promise<string>((resolve) =>
          context.signal.addEventListener('abort', () => {
            aborted = true
            resolve('too late')
          }),
        ),
    })
    const server = await serve(registry)
    const { headers } = await initialize(server.url)
    const inFlight = post(
      server.url,
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'stuck' } },
      headers,
    )
    await eventually(() => server.handler.stats().inFlight === 1)
    await stop(server, 50)
    expect((await inFlight).json).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32000, message: 'Connection closed: the session ended' },
    })
    expect(aborted).toBe(true)
  })

  test('while the handler closes, requests on open connections get 503 and answers to in-flight calls still arrive', async () => {
    let release: () => void = () => {}
    const registry = createToolRegistry().tool({
      name: 'slow',
      handler: () => new Promise<string>((resolve) => (release = () => resolve('finished'))),
    })
    const handler = createHttpHandler(registry)
    const listener = createServer(handler.handle)
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve))
    const url = `http://127.0.0.1:${(listener.address() as AddressInfo).port}/mcp`
    try {
      const { headers } = await initialize(url)
      const inFlight = post(
        url,
        { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'slow' } },
        headers,
      )
      await eventually(() => handler.stats().inFlight === 1)
      const closed = handler.close({ graceMs: 10_000 })
      const refused = await post(url, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, headers)
      expect(refused.status).toBe(503)
      expect(refused.headers.get('retry-after')).toBe('1')
      expect((await post(url, initializeBody)).status).toBe(503)
      release()
      expect((await inFlight).json).toMatchObject({ id: 1, result: { content: [{ text: 'finished' }] } })
      await closed
      expect(handler.stats()).toEqual({ sessions: 0, inFlight: 0, streams: 0 })
    } finally {
      await new Promise((resolve) => listener.close(resolve))
      listener.closeAllConnections()
    }
    expect(listener.listening).toBe(false)
  })
})

describe('questions to the client', () => {
  test('a question the client never answers fails after questionTimeoutMs: the call ends with the reason, the question is cancelled', async () => {
    const registry = createToolRegistry().tool({
      name: 'ask',
      async handler(_args, context) {
        const answer = await context.elicit({
          message: 'Go ahead?',
          requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
        })
        return answer.action
      },
    })
    const server = await serve(registry, { questionTimeoutMs: 300 })
    const { headers } = await initialize(server.url, '2025-11-25', { elicitation: {} })
    const answer = await post(
      server.url,
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'ask', arguments: {} } },
      headers,
    )
    const messages = parseEvents(answer.text)
      .filter((event) => event.data !== '')
      .map((event) => JSON.parse(event.data))
    const question = messages.find((message) => message.method === 'elicitation/create')
    expect(question).toBeDefined()
    expect(messages).toContainEqual({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: question.id, reason: 'no answer within 0.3 s' },
    })
    expect(JSON.stringify(messages.at(-1))).toMatch(
      /the client did not answer elicitation\/create within 0\.3 s/,
    )
    expect(messages.at(-1).id).toBe(1)
  })
})
