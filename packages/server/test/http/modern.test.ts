// MCP 2026-07-28 over Streamable HTTP, on the wire: stateless requests, the error ladder,
// request-scoped streams, MRTR rounds, subscriptions/listen, cancellation by closing a stream,
// and shutdown. The conformance suite checks the spec broadly (tooling/conformance); these pin
// mcp-kit's own behaviour where the suite is silent.

import { describe, expect, test } from 'vitest'
import { createDemoRegistry } from '../../src/registry/demo.js'
import { createToolRegistry } from '../../src/registry/registry.js'
import { eventually, parseEvents, post, postStream, serve, stop } from '../helpers/http.js'

const version = '2026-07-28'
const meta = (extra: Record<string, unknown> = {}) => ({
  'io.modelcontextprotocol/protocolVersion': version,
  'io.modelcontextprotocol/clientCapabilities': {},
  ...extra,
})

function headersFor(method: string, name?: string): Record<string, string> {
  const headers: Record<string, string> = { 'mcp-protocol-version': version, 'mcp-method': method }
  if (name !== undefined) headers['mcp-name'] = name
  return headers
}

function call(
  url: string,
  id: number,
  name: string,
  args: Record<string, unknown>,
  extra: Record<string, unknown> = {},
) {
  return post(
    url,
    { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args, _meta: meta(), ...extra } },
    headersFor('tools/call', name),
  )
}

describe('stateless requests', () => {
  test('no session: results carry resultType, serverInfo and, on lists, cache hints', async () => {
    const server = await serve(createDemoRegistry())
    const listed = await post(
      server.url,
      { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: meta() } },
      headersFor('tools/list'),
    )
    expect(listed.status).toBe(200)
    expect(listed.headers.get('mcp-session-id')).toBeNull()
    expect(listed.json).toMatchObject({
      result: {
        resultType: 'complete',
        ttlMs: 60_000,
        cacheScope: 'public',
        _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'mcp-kit' } },
      },
    })
    const called = await call(server.url, 2, 'add', { a: 1, b: 2 })
    expect(called.json).toMatchObject({ result: { resultType: 'complete', structuredContent: { sum: 3 } } })
    expect(server.handler.stats().sessions).toBe(0)
  })

  test('a registry sets its own cache hints; resource reads default to private and immediately stale', async () => {
    const registry = createToolRegistry({ cache: { tools: { ttlMs: 5000, scope: 'private' } } }).resource({
      uri: 'notes://a',
      name: 'a',
      read: () => 'A',
    })
    const server = await serve(registry)
    const listed = await post(
      server.url,
      { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: meta() } },
      headersFor('tools/list'),
    )
    expect(listed.json).toMatchObject({ result: { ttlMs: 5000, cacheScope: 'private' } })
    const read = await post(
      server.url,
      { jsonrpc: '2.0', id: 2, method: 'resources/read', params: { uri: 'notes://a', _meta: meta() } },
      headersFor('resources/read', 'notes://a'),
    )
    expect(read.json).toMatchObject({
      result: { ttlMs: 0, cacheScope: 'private', contents: [{ text: 'A' }] },
    })
  })

  test('the error ladder: envelope, version, header and method errors with their HTTP status', async () => {
    const server = await serve(createDemoRegistry())
    const noEnvelope = await post(
      server.url,
      { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
      headersFor('tools/list'),
    )
    expect(noEnvelope.status).toBe(400)
    expect(noEnvelope.json).toMatchObject({ id: 1, error: { code: -32602 } })
    const unknownVersion = await post(
      server.url,
      {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/list',
        params: { _meta: meta({ 'io.modelcontextprotocol/protocolVersion': '2099-01-01' }) },
      },
      { ...headersFor('tools/list'), 'mcp-protocol-version': '2099-01-01' },
    )
    expect(unknownVersion.status).toBe(400)
    expect(unknownVersion.json).toMatchObject({
      error: { code: -32022, data: { supported: ['2026-07-28'], requested: '2099-01-01' } },
    })
    const wrongName = await post(
      server.url,
      {
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: { name: 'echo', arguments: { message: 'x' }, _meta: meta() },
      },
      headersFor('tools/call', 'add'),
    )
    expect(wrongName.status).toBe(400)
    expect(wrongName.json).toMatchObject({ error: { code: -32020 } })
    const encodedName = await post(
      server.url,
      {
        jsonrpc: '2.0',
        id: 4,
        method: 'tools/call',
        params: { name: 'echo', arguments: { message: 'x' }, _meta: meta() },
      },
      headersFor('tools/call', `=?base64?${Buffer.from('echo').toString('base64')}?=`),
    )
    expect(encodedName.status).toBe(200)
    const removed = await post(
      server.url,
      { jsonrpc: '2.0', id: 5, method: 'ping', params: { _meta: meta() } },
      headersFor('ping'),
    )
    expect(removed.status).toBe(404)
    expect(removed.json).toMatchObject({ id: 5, error: { code: -32601 } })
  })

  test('Mcp-Param headers must match the arguments they mirror', async () => {
    const registry = createToolRegistry().tool({
      name: 'run_query',
      inputSchema: {
        type: 'object',
        properties: { region: { type: 'string', 'x-mcp-header': 'Region' }, query: { type: 'string' } },
      },
      handler: ({ region }) => `ran in ${region}`,
    })
    const server = await serve(registry)
    const body = (id: number) => ({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: 'run_query', arguments: { region: 'eu-west', query: 'x' }, _meta: meta() },
    })
    const missing = await post(server.url, body(1), headersFor('tools/call', 'run_query'))
    expect(missing.status).toBe(400)
    expect(missing.json).toMatchObject({ error: { code: -32020 } })
    const wrong = await post(server.url, body(2), {
      ...headersFor('tools/call', 'run_query'),
      'mcp-param-region': 'us-east',
    })
    expect(wrong.json).toMatchObject({ error: { code: -32020 } })
    const right = await post(server.url, body(3), {
      ...headersFor('tools/call', 'run_query'),
      'mcp-param-region': 'eu-west',
    })
    expect(right.json).toMatchObject({ result: { content: [{ text: 'ran in eu-west' }] } })
  })

  test('log messages only when the request asks for a level, and only at or above it', async () => {
    const registry = createToolRegistry().tool({
      name: 'chatty',
      handler: async (_args, context) => {
        await context.log('debug', 'details')
        await context.log('warning', 'careful')
        return 'done'
      },
    })
    const server = await serve(registry)
    const quiet = await call(server.url, 1, 'chatty', {})
    expect(quiet.headers.get('content-type')).toMatch(/application\/json/)
    const loud = await post(
      server.url,
      {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: {
          name: 'chatty',
          arguments: {},
          _meta: meta({ 'io.modelcontextprotocol/logLevel': 'info' }),
        },
      },
      headersFor('tools/call', 'chatty'),
    )
    const messages = parseEvents(loud.text).map((event) => JSON.parse(event.data))
    expect(
      messages.filter((message) => message.method === 'notifications/message').map((m) => m.params.data),
    ).toEqual(['careful'])
    expect(messages.at(-1)).toMatchObject({ id: 2, result: { content: [{ text: 'done' }] } })
  })
})

describe('multi round-trip requests', () => {
  const registry = () =>
    createToolRegistry().tool({
      name: 'transfer',
      inputSchema: { type: 'object', properties: { amount: { type: 'number' } }, required: ['amount'] },
      handler: async ({ amount }, context) => {
        const answer = await context.elicit(
          {
            message: `Transfer ${amount}?`,
            requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
          },
          { key: 'approve' },
        )
        return answer.content?.ok ? `sent ${amount}` : 'cancelled'
      },
    })
  const elicitation = { elicitation: {} }

  test('input_required, then the retry with the answer completes', async () => {
    const server = await serve(registry())
    const first = await post(
      server.url,
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: {
          name: 'transfer',
          arguments: { amount: 5 },
          _meta: meta({ 'io.modelcontextprotocol/clientCapabilities': elicitation }),
        },
      },
      headersFor('tools/call', 'transfer'),
    )
    const round = (first.json as { result: Record<string, unknown> }).result
    expect(round).toMatchObject({
      resultType: 'input_required',
      inputRequests: { approve: { method: 'elicitation/create', params: { message: 'Transfer 5?' } } },
    })
    expect(typeof round.requestState).toBe('string')
    const retry = (amount: number, state: unknown) =>
      post(
        server.url,
        {
          jsonrpc: '2.0',
          id: 2,
          method: 'tools/call',
          params: {
            name: 'transfer',
            arguments: { amount },
            inputResponses: { approve: { action: 'accept', content: { ok: true } } },
            requestState: state,
            _meta: meta({ 'io.modelcontextprotocol/clientCapabilities': elicitation }),
          },
        },
        headersFor('tools/call', 'transfer'),
      )
    expect((await retry(5, round.requestState)).json).toMatchObject({
      result: { resultType: 'complete', content: [{ text: 'sent 5' }] },
    })
    // The state is bound to the request it came from: other arguments, or a tampered state, fail.
    expect((await retry(500, round.requestState)).json).toMatchObject({ error: { code: -32602 } })
    expect((await retry(5, `${round.requestState}x`)).json).toMatchObject({ error: { code: -32602 } })
  })

  test('a client that cannot answer gets -32021 naming the capability, with HTTP 400', async () => {
    const server = await serve(registry())
    const response = await call(server.url, 1, 'transfer', { amount: 5 })
    expect(response.status).toBe(400)
    expect(response.json).toMatchObject({
      error: { code: -32021, data: { requiredCapabilities: { elicitation: { form: {} } } } },
    })
  })
})

describe('streams', () => {
  test('subscriptions/listen: acknowledged first, then tagged list changes and resource updates', async () => {
    const registry = createToolRegistry().resource({ uri: 'notes://a', name: 'a', read: () => 'A' })
    const server = await serve(registry)
    const stream = await postStream(
      server.url,
      {
        jsonrpc: '2.0',
        id: 'sub-1',
        method: 'subscriptions/listen',
        params: {
          _meta: meta(),
          notifications: { toolsListChanged: true, resourceSubscriptions: ['notes://a'] },
        },
      },
      headersFor('subscriptions/listen'),
    )
    expect(stream.headers['content-type']).toMatch(/text\/event-stream/)
    await eventually(() => stream.messages().length >= 1)
    registry.tool({ name: 'added_later', handler: () => 'hi' })
    registry.prompt({ name: 'not_asked_for', get: () => 'x' })
    registry.resourceUpdated('notes://a')
    registry.resourceUpdated('notes://other')
    await eventually(() => stream.messages().length >= 3)
    // A last update asked for: whatever was sent before it (nothing more) has arrived with it.
    registry.resourceUpdated('notes://a')
    await eventually(() => stream.messages().length >= 4)
    const all = stream.messages()
    expect(all[0]).toMatchObject({
      method: 'notifications/subscriptions/acknowledged',
      params: {
        _meta: { 'io.modelcontextprotocol/subscriptionId': 'sub-1' },
        notifications: { toolsListChanged: true },
      },
    })
    expect(
      all
        .slice(1, 3)
        .map((message) => message.method)
        .sort(),
    ).toEqual(['notifications/resources/updated', 'notifications/tools/list_changed'])
    expect(all.slice(3).map((message) => [message.method, message.params.uri])).toEqual([
      ['notifications/resources/updated', 'notes://a'],
    ])
    for (const message of all)
      expect(message.params._meta['io.modelcontextprotocol/subscriptionId']).toBe('sub-1')
    stream.close()
    await eventually(() => server.handler.stats().inFlight === 0)
  })

  test('closing a call stream cancels the handler', async () => {
    let aborted = false
    const registry = createToolRegistry().tool({
      name: 'slow',
      handler: async (_args, context) => {
        await context.progress(1, 10)
        await new Promise<void>((resolve) => context.signal.addEventListener('abort', () => resolve()))
        aborted = true
        return 'never sent'
      },
    })
    const server = await serve(registry)
    const stream = await postStream(
      server.url,
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'slow', arguments: {}, _meta: meta({ progressToken: 'p' }) },
      },
      headersFor('tools/call', 'slow'),
    )
    await eventually(() => stream.messages().length >= 1) // the progress notification: the handler runs
    stream.close()
    await eventually(() => aborted)
    await eventually(() => server.handler.stats().inFlight === 0)
  })

  test('shutdown ends a subscription with its final result', async () => {
    const server = await serve(createDemoRegistry())
    const stream = await postStream(
      server.url,
      {
        jsonrpc: '2.0',
        id: 7,
        method: 'subscriptions/listen',
        params: { _meta: meta(), notifications: { toolsListChanged: true } },
      },
      headersFor('subscriptions/listen'),
    )
    await eventually(() => stream.messages().length >= 1) // acknowledged: the subscription is open
    // The subscription ends at once: the close does not wait out its grace period.
    await stop(server, 60_000)
    await stream.ended
    const events = stream.messages()
    expect(events.at(-1)).toMatchObject({
      id: 7,
      result: { resultType: 'complete', _meta: { 'io.modelcontextprotocol/subscriptionId': 7 } },
    })
  })
})
