// What a list view hides from a caller cannot be followed either: a 2025 `resources/subscribe`
// of it is answered as for an unknown resource, a 2026 `subscriptions/listen` leaves its URI out
// of what is agreed, and `completion/complete` of a hidden prompt or template is refused as
// unknown — while the caller who sees them follows and completes as before.

import { expect, test } from 'vitest'
import type { AuthInfo } from '../../src/context.js'
import { createToolRegistry } from '../../src/registry/registry.js'
import { eventually, initializeBody, parseEvents, post, postStream, serve } from '../helpers/http.js'

const modern = '2026-07-28'
const meta = () => ({
  'io.modelcontextprotocol/protocolVersion': modern,
  'io.modelcontextprotocol/clientCapabilities': {},
})

const known = new Map<string, AuthInfo>([
  ['alpha-token', { token: 'alpha-token', clientId: 'alpha', scopes: [] }],
  ['beta-token', { token: 'beta-token', clientId: 'beta', scopes: [] }],
])

/** Beta does not see notes://secret, the docs://{id} template, nor the prompt `hidden`. */
function restricted() {
  const registry = createToolRegistry()
    .resource({ uri: 'notes://public', name: 'public', read: () => 'P', subscribe: () => () => {} })
    .resource({ uri: 'notes://secret', name: 'secret', read: () => 'S', subscribe: () => () => {} })
    .resourceTemplate({
      uriTemplate: 'docs://{id}',
      name: 'docs',
      read: (uri) => uri,
      complete: { id: () => ['one', 'two'] },
    })
    .prompt({
      name: 'hidden',
      arguments: [{ name: 'topic', complete: () => ['a', 'b'] }],
      get: () => 'x',
    })
  registry.restrictLists((caller) =>
    caller.authInfo?.clientId === 'alpha'
      ? undefined
      : (_list, key) => !['notes://secret', 'docs://{id}', 'hidden'].includes(key),
  )
  return registry
}

async function legacySession(url: string, token: string) {
  const auth = { authorization: `Bearer ${token}` }
  const opened = await post(url, initializeBody, auth)
  const headers = {
    ...auth,
    'mcp-session-id': opened.headers.get('mcp-session-id') as string,
    'mcp-protocol-version': '2025-11-25',
  }
  await post(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers)
  return async (method: string, params: Record<string, unknown>) => {
    const answer = await post(url, { jsonrpc: '2.0', id: 7, method, params }, headers)
    return (answer.json ?? JSON.parse(parseEvents(answer.text)[0]?.data ?? '{}')) as {
      result?: Record<string, unknown>
      error?: { code: number; message: string }
    }
  }
}

test('2025 resources/subscribe: what the caller cannot see is an unknown resource to it', async () => {
  const server = await serve(restricted(), { verifyToken: (token) => known.get(token) })
  const beta = await legacySession(server.url, 'beta-token')
  expect(await beta('resources/subscribe', { uri: 'notes://public' })).toMatchObject({ result: {} })
  expect(await beta('resources/subscribe', { uri: 'notes://secret' })).toMatchObject({
    error: { code: -32002 },
  })
  expect(await beta('resources/subscribe', { uri: 'docs://7' })).toMatchObject({ error: { code: -32002 } })
  const alpha = await legacySession(server.url, 'alpha-token')
  expect(await alpha('resources/subscribe', { uri: 'notes://secret' })).toMatchObject({ result: {} })
  expect(await alpha('resources/subscribe', { uri: 'docs://7' })).toMatchObject({ result: {} })
})

test('completion/complete of a hidden prompt or template is refused as unknown; the one who sees it completes', async () => {
  const server = await serve(restricted(), { verifyToken: (token) => known.get(token) })
  const complete = async (token: string, ref: Record<string, unknown>, name: string) => {
    const answer = await post(
      server.url,
      {
        jsonrpc: '2.0',
        id: 3,
        method: 'completion/complete',
        params: { _meta: meta(), ref, argument: { name, value: '' } },
      },
      {
        'mcp-protocol-version': modern,
        'mcp-method': 'completion/complete',
        authorization: `Bearer ${token}`,
      },
    )
    return answer.json as { result?: { completion: { values: string[] } }; error?: { code: number } }
  }
  const prompt = { type: 'ref/prompt', name: 'hidden' }
  const template = { type: 'ref/resource', uri: 'docs://{id}' }
  expect((await complete('alpha-token', prompt, 'topic')).result?.completion.values).toEqual(['a', 'b'])
  expect((await complete('alpha-token', template, 'id')).result?.completion.values).toEqual(['one', 'two'])
  const unknownPrompt = (await complete('beta-token', { type: 'ref/prompt', name: 'nonexistent' }, 'topic'))
    .error
  expect(unknownPrompt).toBeDefined()
  // The same answer as for a prompt that does not exist: nothing tells the two apart.
  expect((await complete('beta-token', prompt, 'topic')).error?.code).toBe(unknownPrompt?.code)
  const unknownTemplate = (await complete('beta-token', { type: 'ref/resource', uri: 'none://{x}' }, 'x'))
    .error
  expect(unknownTemplate).toBeDefined()
  expect((await complete('beta-token', template, 'id')).error?.code).toBe(unknownTemplate?.code)
})

test('2026 subscriptions/listen agrees only to the URIs the caller sees', async () => {
  const server = await serve(restricted(), { verifyToken: (token) => known.get(token) })
  const listen = async (token: string) => {
    const stream = await postStream(
      server.url,
      {
        jsonrpc: '2.0',
        id: `sub-${token}`,
        method: 'subscriptions/listen',
        params: {
          _meta: meta(),
          notifications: { resourceSubscriptions: ['notes://public', 'notes://secret', 'docs://7'] },
        },
      },
      {
        'mcp-protocol-version': modern,
        'mcp-method': 'subscriptions/listen',
        authorization: `Bearer ${token}`,
      },
    )
    await eventually(() => stream.messages().length >= 1)
    const [acknowledged] = stream.messages()
    stream.close()
    return acknowledged?.params.notifications.resourceSubscriptions
  }
  expect(await listen('beta-token')).toEqual(['notes://public'])
  expect(await listen('alpha-token')).toEqual(['notes://public', 'notes://secret', 'docs://7'])
  await eventually(() => server.handler.stats().inFlight === 0)
})
