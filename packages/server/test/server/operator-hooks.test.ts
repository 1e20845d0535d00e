// What a server offers those who operate it (a gateway uses each): named bearer tokens, routes
// beside the endpoint (public or behind its credentials), /readyz, lists that depend on who
// asks, and the W3C trace context of each request in the handler's context, from `_meta` or the
// HTTP headers.

import { afterEach, expect, test } from 'vitest'
import type { AuthInfo } from '../../src/context.js'
import { startHttpServer } from '../../src/http/server.js'
import type { TraceContext } from '../../src/index.js'
import { createToolRegistry } from '../../src/registry/registry.js'
import { initializeBody, parseEvents, post } from '../helpers/http.js'

const closers: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const close of closers.splice(0)) await close()
})

const modern = '2026-07-28'
const meta = (extra: Record<string, unknown> = {}) => ({
  'io.modelcontextprotocol/protocolVersion': modern,
  'io.modelcontextprotocol/clientCapabilities': {},
  ...extra,
})

function registry() {
  const seen: Array<{ authInfo: AuthInfo | undefined; trace: TraceContext | undefined }> = []
  const tools = createToolRegistry()
    .tool({
      name: 'who',
      handler: (_args, context) => {
        seen.push({ authInfo: context.authInfo, trace: context.traceContext })
        return context.authInfo?.clientId ?? 'nobody'
      },
    })
    .tool({ name: 'secret', handler: () => 'x' })
  return { tools, seen }
}

async function call(url: string, headers: Record<string, string>, extraMeta: Record<string, unknown> = {}) {
  return post(
    url,
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'who', arguments: {}, _meta: meta(extraMeta) },
    },
    { 'mcp-protocol-version': modern, 'mcp-method': 'tools/call', 'mcp-name': 'who', ...headers },
  )
}

test('named tokens: each is a principal of its own; an unknown one is 401', async () => {
  const { tools, seen } = registry()
  const known = new Map<string, AuthInfo>([
    [
      'alpha-token',
      Object.freeze({ token: 'alpha-token', clientId: 'alpha', scopes: ['read'], extra: { issuer: 'keys' } }),
    ],
  ])
  const server = await startHttpServer(tools, { verifyToken: (token) => known.get(token) })
  closers.push(() => server.close())
  expect((await call(server.url, {})).status).toBe(401)
  expect((await call(server.url, { authorization: 'Bearer nope' })).status).toBe(401)
  const answer = await call(server.url, { authorization: 'Bearer alpha-token' })
  expect(answer.status).toBe(200)
  expect(seen[0]?.authInfo).toMatchObject({ clientId: 'alpha', scopes: ['read'] })
})

test('routes beside the endpoint: public, or behind its credentials; /readyz follows readiness', async () => {
  const { tools } = registry()
  let ready = true
  const heard: Array<AuthInfo | undefined> = []
  const server = await startHttpServer(tools, {
    token: 'the-token',
    readiness: () => ({ ready, upstreams: { a: ready ? 'running' : 'failed' } }),
    routes: new Map([
      ['/open', { auth: false, handle: (_request, response) => response.end('open') }],
      [
        '/closed',
        {
          auth: true,
          handle: (_request, response, authInfo) => {
            heard.push(authInfo)
            response.end('closed')
          },
        },
      ],
    ]),
  })
  closers.push(() => server.close())
  const origin = new URL(server.url).origin
  expect(await (await fetch(`${origin}/open`)).text()).toBe('open')
  expect((await fetch(`${origin}/closed`)).status).toBe(401)
  const closed = await fetch(`${origin}/closed`, { headers: { authorization: 'Bearer the-token' } })
  expect(await closed.text()).toBe('closed')
  expect(heard[0]?.clientId).toBe('bearer')
  const readyz = await fetch(`${origin}/readyz`)
  expect(readyz.status).toBe(200)
  expect(await readyz.json()).toMatchObject({ status: 'ready', ready: true, upstreams: { a: 'running' } })
  ready = false
  const unready = await fetch(`${origin}/readyz`)
  expect(unready.status).toBe(503)
  expect(await unready.json()).toMatchObject({ status: 'unavailable', upstreams: { a: 'failed' } })
  expect((await fetch(`${origin}/healthz`)).status).toBe(200)
})

test('a list view hides entries per caller, in both eras, and makes 2026 lists private', async () => {
  const { tools } = registry()
  tools.restrictLists((context) =>
    context.authInfo?.clientId === 'alpha'
      ? undefined
      : (list, key) => !(list === 'tools' && key === 'secret'),
  )
  const known = new Map<string, AuthInfo>([
    ['alpha-token', { token: 'alpha-token', clientId: 'alpha', scopes: [] }],
    ['beta-token', { token: 'beta-token', clientId: 'beta', scopes: [] }],
  ])
  const server = await startHttpServer(tools, { verifyToken: (token) => known.get(token) })
  closers.push(() => server.close())
  const list = async (token: string) => {
    const answer = await post(
      server.url,
      { jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: meta() } },
      { 'mcp-protocol-version': modern, 'mcp-method': 'tools/list', authorization: `Bearer ${token}` },
    )
    return answer.json as { result: { tools: Array<{ name: string }>; cacheScope: string } }
  }
  const alpha = await list('alpha-token')
  const beta = await list('beta-token')
  expect(alpha.result.tools.map((tool) => tool.name)).toEqual(['who', 'secret'])
  expect(alpha.result.cacheScope).not.toBe('private')
  expect(beta.result.tools.map((tool) => tool.name)).toEqual(['who'])
  expect(beta.result.cacheScope).toBe('private')
  // A 2025-11-25 session sees the same.
  const auth = { authorization: 'Bearer beta-token' }
  const opened = await post(server.url, initializeBody, auth)
  const session = {
    ...auth,
    'mcp-session-id': opened.headers.get('mcp-session-id') as string,
    'mcp-protocol-version': '2025-11-25',
  }
  await post(server.url, { jsonrpc: '2.0', method: 'notifications/initialized' }, session)
  const legacy = await post(server.url, { jsonrpc: '2.0', id: 3, method: 'tools/list', params: {} }, session)
  const listed = (legacy.json ?? parseEvents(legacy.text).map((event) => JSON.parse(event.data))[0]) as {
    result: { tools: Array<{ name: string }> }
  }
  expect(listed.result.tools.map((tool) => tool.name)).toEqual(['who'])
})

test("a request's trace context comes from _meta, else from the traceparent header; malformed ones are dropped", async () => {
  const { tools, seen } = registry()
  const server = await startHttpServer(tools)
  closers.push(() => server.close())
  const fromMeta = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01'
  const fromHeader = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01'
  await call(server.url, { traceparent: fromHeader }, { traceparent: fromMeta, tracestate: 'k=v' })
  await call(server.url, { traceparent: fromHeader, tracestate: 'h=1' })
  await call(server.url, { traceparent: '00-00000000000000000000000000000000-b7ad6b7169203331-01' })
  await call(server.url, {}, { traceparent: 'not a traceparent' })
  expect(seen.map((entry) => entry.trace)).toEqual([
    { traceparent: fromMeta, tracestate: 'k=v' },
    { traceparent: fromHeader, tracestate: 'h=1' },
    undefined,
    undefined,
  ])
})
