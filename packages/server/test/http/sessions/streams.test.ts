// JSON and SSE answers, resumable streams (SEP-1699), keep-alives, cancellation, requests from
// server to client, and notifications after late registration — over real HTTP.
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js'
import { describe, expect, test } from 'vitest'
import { createToolRegistry } from '../../../src/registry/registry.js'
import {
  eventually,
  holdStream,
  initialize,
  parseEvents,
  post,
  sdkClient,
  serve,
  sleep,
} from '../../helpers/http.js'

function streamingRegistry() {
  return createToolRegistry()
    .tool({
      name: 'echo',
      inputSchema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
      handler: ({ message }) => String(message),
    })
    .tool({
      name: 'steps',
      handler: async (_args, context) => {
        for (const step of [1, 2, 3]) await context.progress(step, 3, `step ${step}`)
        await context.log('info', 'all steps done')
        return 'stepped'
      },
    })
    .tool({
      name: 'poll-me',
      handler: async (_args, context) => {
        context.closeStream()
        await sleep(50)
        return 'after the stream was closed'
      },
    })
}

const call = (
  id: number,
  name: string,
  args: Record<string, unknown> = {},
  meta?: Record<string, unknown>,
) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args, ...(meta ? { _meta: meta } : {}) },
})

describe('choosing JSON or SSE', () => {
  test('a plain call is one JSON body when the client lists JSON first; SSE when it lists SSE first', async () => {
    const server = await serve(streamingRegistry())
    const { headers } = await initialize(server.url)
    const json = await post(server.url, call(1, 'echo', { message: 'hi' }), headers)
    expect(json.headers.get('content-type')).toBe('application/json')
    expect(json.json).toEqual({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'hi' }] } })

    const sse = await post(server.url, call(2, 'echo', { message: 'hi' }), {
      ...headers,
      accept: 'text/event-stream, application/json',
    })
    expect(sse.headers.get('content-type')).toBe('text/event-stream')
    const events = parseEvents(sse.text)
    expect(events[0]).toEqual({ id: expect.stringMatching(/^\d+_\d+$/), retry: 1000, data: '' })
    expect(JSON.parse(events[1]?.data ?? '')).toEqual({
      jsonrpc: '2.0',
      id: 2,
      result: { content: [{ type: 'text', text: 'hi' }] },
    })

    const onlySse = await post(server.url, call(3, 'echo', { message: 'hi' }), {
      ...headers,
      accept: 'text/event-stream',
    })
    expect(onlySse.headers.get('content-type')).toBe('text/event-stream')
    const preferred = await post(server.url, call(4, 'echo', { message: 'hi' }), {
      ...headers,
      accept: 'application/json;q=0.5, text/event-stream',
    })
    expect(preferred.headers.get('content-type')).toBe('text/event-stream')
  })

  test('a call that reports progress switches to SSE: priming, progress in order, log, then the result', async () => {
    const server = await serve(streamingRegistry())
    const { headers } = await initialize(server.url)
    const response = await post(server.url, call(5, 'steps', {}, { progressToken: 'p1' }), headers)
    expect(response.headers.get('content-type')).toBe('text/event-stream')
    const events = parseEvents(response.text)
    expect(events[0]?.data).toBe('')
    const messages = events.slice(1).map((event) => JSON.parse(event.data))
    expect(messages).toEqual([
      {
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: 'p1', progress: 1, total: 3, message: 'step 1' },
      },
      {
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: 'p1', progress: 2, total: 3, message: 'step 2' },
      },
      {
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: 'p1', progress: 3, total: 3, message: 'step 3' },
      },
      { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'all steps done' } },
      { jsonrpc: '2.0', id: 5, result: { content: [{ type: 'text', text: 'stepped' }] } },
    ])
    const ids = events.map((event) => event.id)
    expect(new Set(ids).size).toBe(ids.length)
  })

  test('a JSON-only client gets JSON even when the handler reports progress', async () => {
    const server = await serve(streamingRegistry())
    const { headers } = await initialize(server.url)
    const response = await post(server.url, call(6, 'steps', {}, { progressToken: 'p2' }), {
      ...headers,
      accept: 'application/json',
    })
    expect(response.json).toEqual({
      jsonrpc: '2.0',
      id: 6,
      result: { content: [{ type: 'text', text: 'stepped' }] },
    })
  })

  test('sessions older than 2025-11-25 get event ids but no priming event', async () => {
    const server = await serve(streamingRegistry())
    const { headers } = await initialize(server.url, '2025-06-18')
    const events = parseEvents(
      (await post(server.url, call(7, 'steps', {}, { progressToken: 1 }), headers)).text,
    )
    expect(events.every((event) => event.data !== '' && event.id !== undefined)).toBe(true)
  })

  test('the SDK client gets progress notifications through its onprogress callback', async () => {
    const server = await serve(streamingRegistry())
    const { client } = await sdkClient(server.url)
    const progress: number[] = []
    const result = await client.callTool({ name: 'steps' }, undefined, {
      onprogress: ({ progress: value }) => progress.push(value),
    })
    expect(result.content).toEqual([{ type: 'text', text: 'stepped' }])
    expect(progress).toEqual([1, 2, 3])
  })
})

describe('resumable streams (SEP-1699)', () => {
  test('a handler closes its stream; the client resumes with Last-Event-ID and gets the result', async () => {
    const server = await serve(streamingRegistry())
    const { headers } = await initialize(server.url)
    const first = await post(server.url, call(8, 'poll-me'), headers)
    const primed = parseEvents(first.text)
    expect(primed).toEqual([{ id: expect.any(String), retry: 1000, data: '' }])
    const resumed = await fetch(server.url, {
      headers: { ...headers, accept: 'text/event-stream', 'last-event-id': primed[0]?.id as string },
    })
    expect(resumed.status).toBe(200)
    const replay = parseEvents(await resumed.text())
    expect(replay.map((event) => JSON.parse(event.data))).toEqual([
      { jsonrpc: '2.0', id: 8, result: { content: [{ type: 'text', text: 'after the stream was closed' }] } },
    ])
    // Once the result went out on a live connection the stream is forgotten: nothing to resume.
    const again = await fetch(server.url, {
      headers: { ...headers, accept: 'text/event-stream', 'last-event-id': replay[0]?.id as string },
    })
    expect(again.status).toBe(400)
  })

  test('the SDK client reconnects on its own and gets the result', async () => {
    const server = await serve(streamingRegistry(), { retryMs: 10 })
    const { client } = await sdkClient(server.url)
    expect(await client.callTool({ name: 'poll-me' })).toEqual({
      content: [{ type: 'text', text: 'after the stream was closed' }],
    })
  })

  test('a GET stream answers at once, before any event, in sessions of every revision', async () => {
    // Found by the fuzzer (tooling/fuzz): a session older than 2025-11-25 gets no priming event,
    // so its stream's headers waited for the first event or keep-alive; a client waiting for
    // the response (fetch) hung that long. Keep-alives every minute here: the headers must not
    // need one.
    const server = await serve(streamingRegistry(), { keepAliveMs: 60_000 })
    for (const version of ['2025-03-26', '2025-06-18', '2025-11-25']) {
      const { headers } = await initialize(server.url, version)
      const held = await holdStream(server.url, headers)
      expect(held.response.headers['content-type']).toBe('text/event-stream')
      held.close()
      await held.ended
    }
  }, 10_000)

  test('an unknown Last-Event-ID gets 400; GET needs a session and Accept: text/event-stream', async () => {
    const server = await serve(streamingRegistry())
    const { headers } = await initialize(server.url)
    const stream = { ...headers, accept: 'text/event-stream' }
    expect((await fetch(server.url, { headers: { ...stream, 'last-event-id': '99_1' } })).status).toBe(400)
    expect((await fetch(server.url, { headers: { ...stream, 'last-event-id': 'garbage' } })).status).toBe(400)
    expect((await fetch(server.url, { headers: { accept: 'text/event-stream' } })).status).toBe(400)
    expect((await fetch(server.url, { headers: { ...headers, accept: 'application/json' } })).status).toBe(
      406,
    )
    expect((await fetch(server.url, { headers: { ...stream, 'mcp-session-id': 'unknown' } })).status).toBe(
      404,
    )
  })
})

describe('long calls', () => {
  test('a call that runs longer than the keep-alive interval switches to SSE and gets keep-alive comments', async () => {
    const registry = createToolRegistry().tool({
      name: 'slow',
      handler: async () => {
        await sleep(300)
        return 'slow answer'
      },
    })
    const server = await serve(registry, { keepAliveMs: 50 })
    const { headers } = await initialize(server.url)
    const response = await post(server.url, call(9, 'slow'), headers)
    expect(response.headers.get('content-type')).toBe('text/event-stream')
    expect(response.text).toMatch(/^: keep-alive$/m)
    const events = parseEvents(response.text)
    expect(JSON.parse(events.at(-1)?.data ?? '')).toMatchObject({
      id: 9,
      result: { content: [{ text: 'slow answer' }] },
    })
  })

  test('a cancelled call: the handler sees the abort and the request is no longer in flight', async () => {
    let aborted = false
    const registry = createToolRegistry().tool({
      name: 'forever',
      handler: (_args, context) =>
        new Promise<string>((resolve) => {
          context.signal.addEventListener('abort', () => {
            aborted = true
            resolve('ignored')
          })
        }),
    })
    const server = await serve(registry)
    const { client } = await sdkClient(server.url)
    const controller = new AbortController()
    const calling = client.callTool({ name: 'forever' }, undefined, { signal: controller.signal })
    await eventually(() => server.handler.stats().inFlight === 1)
    controller.abort()
    await expect(calling).rejects.toThrow()
    await eventually(() => aborted && server.handler.stats().inFlight === 0)
  })
})

describe('the server asks the client', () => {
  const registry = () =>
    createToolRegistry()
      .tool({
        name: 'summarize',
        handler: async (_args, context) => {
          const answer = await context.sample({
            messages: [{ role: 'user', content: { type: 'text', text: 'Summarize MCP' } }],
            maxTokens: 50,
          })
          return `model said: ${answer.content && 'text' in answer.content ? answer.content.text : '?'}`
        },
      })
      .tool({
        name: 'ask-name',
        handler: async (_args, context) => {
          const answer = await context.elicit({
            message: 'Your name?',
            requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
          })
          return `${answer.action}: ${JSON.stringify(answer.content)}`
        },
      })

  test('sampling and elicitation reach a client that supports them, on the call’s own stream', async () => {
    const server = await serve(registry())
    const { client } = await sdkClient(server.url, { sampling: {}, elicitation: {} })
    client.setRequestHandler(CreateMessageRequestSchema, async (request) => ({
      role: 'assistant',
      model: 'test-model',
      content: {
        type: 'text',
        text: `a summary of "${(request.params.messages[0] as { content: { text: string } }).content.text}"`,
      },
    }))
    client.setRequestHandler(ElicitRequestSchema, async () => ({
      action: 'accept',
      content: { name: 'Ada' },
    }))
    expect(await client.callTool({ name: 'summarize' })).toEqual({
      content: [{ type: 'text', text: 'model said: a summary of "Summarize MCP"' }],
    })
    expect(await client.callTool({ name: 'ask-name' })).toEqual({
      content: [{ type: 'text', text: 'accept: {"name":"Ada"}' }],
    })
  })

  test('a client without the capability gets an isError result, not a hang', async () => {
    const server = await serve(registry())
    const { client } = await sdkClient(server.url)
    expect(await client.callTool({ name: 'summarize' })).toEqual({
      isError: true,
      content: [{ type: 'text', text: 'the client does not support sampling' }],
    })
  })
})

describe('notifications after serving started', () => {
  test('registering a tool late sends tools/list_changed; the new tool is listed and callable', async () => {
    const registry = streamingRegistry()
    const server = await serve(registry)
    const { client } = await sdkClient(server.url)
    let changed = 0
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changed += 1
    })
    // The standalone GET stream is how the notification travels: wait until it is open.
    await eventually(() => server.handler.stats().streams === 1)
    registry.tool({ name: 'late', description: 'Registered after serving', handler: () => 'late answer' })
    await eventually(() => changed === 1)
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('late')
    expect(await client.callTool({ name: 'late' })).toEqual({
      content: [{ type: 'text', text: 'late answer' }],
    })
  })

  test('resources/updated reaches subscribed sessions only', async () => {
    const registry = createToolRegistry()
      .resource({ uri: 'doc://watched', name: 'watched', read: () => 'v1' })
      .resource({ uri: 'doc://elsewhere', name: 'elsewhere', read: () => 'v1' })
    const server = await serve(registry)
    const subscribed = await sdkClient(server.url)
    const other = await sdkClient(server.url)
    const updates: string[] = []
    subscribed.client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
      updates.push(`subscribed ${notification.params.uri}`)
    })
    other.client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
      updates.push(`other ${notification.params.uri}`)
    })
    await subscribed.client.subscribeResource({ uri: 'doc://watched' })
    await other.client.subscribeResource({ uri: 'doc://elsewhere' })
    await eventually(() => server.handler.stats().streams === 2)
    registry.resourceUpdated('doc://watched')
    await eventually(() => updates.length === 1)
    // Then an update the other session did ask for: anything sent to it before has arrived too.
    registry.resourceUpdated('doc://elsewhere')
    await eventually(() => updates.length === 2)
    expect(updates).toEqual(['subscribed doc://watched', 'other doc://elsewhere'])
  })
})

test('the replay log is bounded: a resumed stream gets the most recent events', async () => {
  const registry = createToolRegistry().tool({
    name: 'chatter',
    handler: async (_args, context) => {
      context.closeStream()
      for (let step = 1; step <= 10; step += 1) await context.progress(step, 10)
      return 'chattered'
    },
  })
  const server = await serve(registry, { eventLogSize: 3 })
  const { headers } = await initialize(server.url)
  const primed = parseEvents(
    (await post(server.url, call(1, 'chatter', {}, { progressToken: 'c' }), headers)).text,
  )
  // The call has ended: every event it wrote is in the log.
  await eventually(() => server.handler.stats().inFlight === 0)
  const resumed = await fetch(server.url, {
    headers: { ...headers, accept: 'text/event-stream', 'last-event-id': primed[0]?.id as string },
  })
  const messages = parseEvents(await resumed.text()).map((event) => JSON.parse(event.data))
  expect(messages.map((message) => message.params?.progress ?? message.result?.content[0].text)).toEqual([
    9,
    10,
    'chattered',
  ])
})
