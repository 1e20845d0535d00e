// What a registry whose contents come from elsewhere (a gateway's upstreams) relies on: removing
// definitions, one list_changed per batch, passthrough tools, resource subscriptions reaching the
// definition that serves the URI, trace annotations and /healthz fields.

import { expect, test } from 'vitest'
import { createToolRegistry, type JsonSchema, type RegistryEvent } from '../../src/registry/registry.js'
import { createRuntime } from '../../src/runtime/runtime.js'
import type { TraceEntry } from '../../src/trace.js'
import { eventually, sdkClient, serve } from '../helpers/http.js'

test('removals are announced; a batch announces each touched list once, after it', () => {
  const registry = createToolRegistry()
  const events: RegistryEvent[] = []
  registry.onChange((event) => events.push(event))
  registry.batch(() => {
    registry.tool({ name: 'a', handler: () => 'a' })
    registry.tool({ name: 'b', handler: () => 'b' })
    registry.prompt({ name: 'p', get: () => 'p' })
    expect(events).toEqual([])
  })
  expect(events).toEqual([
    { type: 'list_changed', list: 'tools' },
    { type: 'list_changed', list: 'prompts' },
  ])
  events.length = 0
  expect(registry.removeTool('a')).toBe(true)
  expect(registry.removeTool('a')).toBe(false)
  expect(registry.removePrompt('p')).toBe(true)
  registry.resourceTemplate({ uriTemplate: 'n://{id}', name: 'n', read: () => 'x' })
  expect(registry.findResource('n://1')).toBeDefined()
  expect(registry.removeResourceTemplate('n://{id}')).toBe(true)
  expect(registry.findResource('n://1')).toBeUndefined()
  expect([...registry.tools.keys()]).toEqual(['b'])
  expect(events.map((event) => (event.type === 'list_changed' ? event.list : event.uri))).toEqual([
    'tools',
    'prompts',
    'resources',
    'resources',
  ])
})

test('a passthrough tool keeps a schema ajv cannot compile and leaves checking to its handler', async () => {
  const odd = { type: 'object', properties: { n: { type: 'whole-number' } } }
  const registry = createToolRegistry()
  expect(() => registry.tool({ name: 'strict', inputSchema: odd, handler: () => 'x' })).toThrow(
    /whole-number|type/,
  )
  registry.tool({
    name: 'relay',
    passthrough: true,
    inputSchema: odd,
    // Not checked here, so a schema as a gateway gets it: typed as a record, it types nothing.
    outputSchema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] } as JsonSchema,
    handler: (args) => ({ content: [{ type: 'text', text: JSON.stringify(args) }] }),
  })
  const runtime = createRuntime(registry)
  expect(runtime.listTools()[0]?.inputSchema).toEqual(odd)
  const result = await runtime.callTool('relay', { n: 'not a number' })
  expect(result.isError).toBeUndefined()
  expect(result.content).toEqual([{ type: 'text', text: '{"n":"not a number"}' }])
})

test("a client's resources/subscribe reaches the definition's hook once per URI; the last unsubscribe ends it", async () => {
  const started: string[] = []
  const stopped: string[] = []
  const registry = createToolRegistry().resourceTemplate({
    uriTemplate: 'feed://{name}',
    name: 'feed',
    read: (uri) => `now: ${uri}`,
    subscribe(uri) {
      started.push(uri)
      return () => stopped.push(uri)
    },
  })
  const server = await serve(registry)
  const { client: first } = await sdkClient(server.url)
  const { client: second, transport: secondTransport } = await sdkClient(server.url)
  const updates: string[] = []
  const { ResourceUpdatedNotificationSchema } = await import('@modelcontextprotocol/sdk/types.js')
  first.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
    updates.push(notification.params.uri)
  })
  await first.subscribeResource({ uri: 'feed://news' })
  await second.subscribeResource({ uri: 'feed://news' })
  expect(started).toEqual(['feed://news'])
  registry.resourceUpdated('feed://news')
  await eventually(() => updates.length === 1)
  await first.unsubscribeResource({ uri: 'feed://news' })
  expect(stopped).toEqual([])
  await secondTransport.terminateSession()
  await second.close()
  await eventually(() => stopped.length === 1)
  expect(stopped).toEqual(['feed://news'])
})

test('trace annotations: the upstream and its time, and the time spent here', async () => {
  const traces: TraceEntry[] = []
  const registry = createToolRegistry().tool({
    name: 'relay',
    async handler(_args, context) {
      await new Promise((resolve) => setTimeout(resolve, 20))
      context.annotateTrace({ upstream: 'far', upstream_ms: 5 })
      return 'ok'
    },
  })
  await createRuntime(registry, { onTrace: (entry) => traces.push(entry) }).callTool('relay')
  const [entry] = traces
  expect(entry?.upstream).toBe('far')
  expect(entry?.upstream_ms).toBe(5)
  expect(entry?.gateway_ms).toBeGreaterThan(10)
  expect((entry?.gateway_ms ?? 0) + 5).toBeCloseTo(entry?.latency_ms ?? 0, 1)
})

test('/healthz carries the fields the health option gives', async () => {
  const server = await serve(createToolRegistry(), { health: () => ({ upstreams: { a: 'running' } }) })
  const response = await fetch(new URL('/healthz', server.url))
  expect(await response.json()).toEqual({ status: 'ok', upstreams: { a: 'running' } })
})

test('/healthz is whole JSON when a field is not ASCII (an upstream error quoting a header: Bearer …)', async () => {
  const error = "HTTP 401 (does it need --header 'Authorization: Bearer …'?) — ünïcode"
  const server = await serve(createToolRegistry(), { health: () => ({ upstreams: { a: { error } } }) })
  const response = await fetch(new URL('/healthz', server.url))
  expect(await response.json()).toEqual({ status: 'ok', upstreams: { a: { error } } })
})
