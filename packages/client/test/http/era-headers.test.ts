// Strict in what we send: every HTTP request connect() makes carries the headers of its era and no
// other, checked on a raw node:http server that records them. The 2025 server here refuses a request
// labelled 2026-07-28 by its MCP-Protocol-Version header, as servers that route by that header do
// (fastmcp 4.x through mcp-proxy, the SDK's isLegacyRequest): an `initialize` still carrying the
// header of the refused probe would be refused, and auto mode could not connect.

import type { ServerResponse } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { connect, memoryEraCache, noEraCache } from '../../src/index.js'
import {
  answerJson,
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

/** A tool whose argument a 2026 client mirrors into `Mcp-Param-Region`; a 2025 one must not. */
const tools = [
  {
    name: 'where',
    inputSchema: {
      type: 'object',
      properties: { region: { type: 'string', 'x-mcp-header': 'Region' } },
    },
  },
]

const callResult = { content: [{ type: 'text', text: 'eu' }] }

/**
 * A 2025-11-25 server that refuses, with mcp-proxy's answer (HTTP 400 and a JSON-RPC -32000
 * error), any POST whose MCP-Protocol-Version header says 2026-07-28.
 */
function legacyOnly(seen: RecordedRequest, response: ServerResponse): void {
  if (seen.method === 'DELETE') return void response.writeHead(200).end()
  if (seen.method === 'GET') return void response.writeHead(405).end()
  const message = seen.json as { id?: number; method?: string }
  if (seen.headers['mcp-protocol-version'] === '2026-07-28') {
    response.writeHead(400, { 'content-type': 'application/json' })
    const error = { code: -32000, message: 'Unsupported protocol version: this server speaks 2025-era MCP' }
    return void response.end(JSON.stringify({ jsonrpc: '2.0', id: message.id ?? null, error }))
  }
  if (message.method === undefined || message.id === undefined) return void response.writeHead(202).end()
  if (message.method === 'initialize') {
    const result = {
      protocolVersion: '2025-11-25',
      capabilities: { tools: {} },
      serverInfo: { name: 'legacy-only', version: '1' },
    }
    return void answerJson(response, { jsonrpc: '2.0', id: message.id, result }, { 'mcp-session-id': 's-1' })
  }
  const result =
    message.method === 'tools/list' ? { tools } : message.method === 'tools/call' ? callResult : {}
  answerJson(response, { jsonrpc: '2.0', id: message.id, result })
}

/** A 2026-07-28 server: a DiscoverResult, then each request on its own. */
function modernOnly(seen: RecordedRequest, response: ServerResponse): void {
  const message = seen.json as { id?: number; method?: string }
  if (seen.method !== 'POST') return void response.writeHead(405).end()
  if (message.id === undefined) return void response.writeHead(202).end()
  const result =
    message.method === 'server/discover'
      ? {
          supportedVersions: ['2026-07-28'],
          capabilities: { tools: {} },
          _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'modern-only', version: '1' } },
        }
      : message.method === 'tools/list'
        ? { tools }
        : message.method === 'tools/call'
          ? callResult
          : {}
  answerJson(response, { jsonrpc: '2.0', id: message.id, result })
}

const protocolHeaders = [
  'mcp-protocol-version',
  'mcp-session-id',
  'mcp-method',
  'mcp-name',
  'mcp-param-region',
]

/** The protocol headers a request carried, by name (absent ones left out). */
function protocolHeadersOf(seen: RecordedRequest): Record<string, string> {
  const found: Record<string, string> = {}
  for (const name of protocolHeaders) {
    const value = seen.headers[name]
    if (typeof value === 'string') found[name] = value
  }
  return found
}

/** Each request as "VERB method" with its protocol headers, in the order they were sent. */
function wire(server: RawServer) {
  return server.requests.map((seen) => ({
    request:
      `${seen.method} ${(seen.json?.method as string | undefined) ?? (seen.json === undefined ? '' : 'response')}`.trim(),
    headers: protocolHeadersOf(seen),
  }))
}

/** What a 2025-11-25 session sends after initialize: the negotiated version and its session. */
const legacySession = { 'mcp-protocol-version': '2025-11-25', 'mcp-session-id': 's-1' }

describe('auto mode against a 2025 server that refuses 2026-labelled requests', () => {
  it('the initialize after the refused probe carries no 2026-07-28 header; the session only 2025 headers', async () => {
    const server = await rawServer(legacyOnly)
    const session = await connect({ transport: 'http', url: server.url }, { eraCache: noEraCache })
    expect(session.era).toBe('legacy')
    expect(session.protocolVersion).toBe('2025-11-25')
    expect((await session.listTools()).map((tool) => tool.name)).toEqual(['where'])
    expect(await session.callTool('where', { region: 'eu' })).toEqual(callResult)
    await session.close()
    await eventually(() => expect(server.requests.at(-1)?.method).toBe('DELETE'))

    const sent = wire(server)
    expect(sent.filter((seen) => seen.request !== 'GET')).toEqual([
      {
        request: 'POST server/discover',
        headers: { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'server/discover' },
      },
      // initialize settles the version: it goes without any protocol header.
      { request: 'POST initialize', headers: {} },
      { request: 'POST notifications/initialized', headers: legacySession },
      { request: 'POST tools/list', headers: legacySession },
      { request: 'POST tools/call', headers: legacySession },
      { request: 'DELETE', headers: legacySession },
    ])
    // The standalone stream, asked for once initialized (this server has none: 405).
    for (const get of sent.filter((seen) => seen.request === 'GET'))
      expect(get.headers).toEqual(legacySession)
    // Nor does the initialize body carry the 2026 envelope.
    const initialize = server.requests.find((seen) => seen.json?.method === 'initialize')
    expect(initialize?.body).not.toContain('io.modelcontextprotocol/')
  })

  it('a second connect remembered as 2025 sends initialize first, without a version header', async () => {
    const server = await rawServer(legacyOnly)
    const eraCache = memoryEraCache()
    await (await connect({ transport: 'http', url: server.url }, { eraCache })).close()
    const before = server.requests.length
    const session = await connect({ transport: 'http', url: server.url }, { eraCache })
    await session.close()
    const again = wire(server).slice(before)
    expect(again[0]).toEqual({ request: 'POST initialize', headers: {} })
    expect(again.some((seen) => seen.request === 'POST server/discover')).toBe(false)
  })

  it('pinned to 2025-11-25: initialize without a version header, then the negotiated one', async () => {
    const server = await rawServer(legacyOnly)
    const session = await connect(
      { transport: 'http', url: server.url },
      { eraCache: noEraCache, protocol: '2025-11-25' },
    )
    await session.listTools()
    await session.close()
    const sent = wire(server)
    expect(sent[0]).toEqual({ request: 'POST initialize', headers: {} })
    for (const later of sent.slice(1)) expect(later.headers).toEqual(legacySession)
  })
})

describe('auto mode against a 2026-07-28 server', () => {
  it('every request carries the 2026 headers and no session; nothing is sent outside a request', async () => {
    const server = await rawServer(modernOnly)
    const session = await connect({ transport: 'http', url: server.url }, { eraCache: noEraCache })
    expect(session.era).toBe('modern')
    await session.listTools()
    expect(await session.callTool('where', { region: 'eu' })).toEqual(callResult)
    await session.close()
    const modern = { 'mcp-protocol-version': '2026-07-28' }
    expect(wire(server)).toEqual([
      { request: 'POST server/discover', headers: { ...modern, 'mcp-method': 'server/discover' } },
      { request: 'POST tools/list', headers: { ...modern, 'mcp-method': 'tools/list' } },
      {
        request: 'POST tools/call',
        headers: { ...modern, 'mcp-method': 'tools/call', 'mcp-name': 'where', 'mcp-param-region': 'eu' },
      },
    ])
  })
})
