// mcp-kit's client against the official SDK v2 server (`createMcpHandler`, the SDK's dual-era
// HTTP entry): it negotiates 2026-07-28, lists, calls, and answers a question the server asks
// (an input_required round). The 2025 peers (server-everything over stdio and HTTP) are in
// real-servers.test.ts and http/http.test.ts.

import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { toNodeHandler } from '@modelcontextprotocol/node'
import { createMcpHandler, fromJsonSchema, McpServer } from '@modelcontextprotocol/server'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { connect, noEraCache } from '../src/index.js'

let server: Server
let url: string

beforeAll(async () => {
  const handler = createMcpHandler(() => {
    const mcp = new McpServer({ name: 'sdk-v2', version: '2.4.0' })
    mcp.registerTool(
      'echo',
      {
        description: 'Echoes',
        inputSchema: fromJsonSchema({
          type: 'object',
          properties: { message: { type: 'string' } },
          required: ['message'],
        }),
      },
      async (args) => ({
        content: [{ type: 'text' as const, text: String((args as { message: unknown }).message) }],
      }),
    )
    return mcp
  })
  const node = toNodeHandler(handler)
  server = createServer((request, response) => void node(request, response))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`
})

afterAll(() => {
  server.closeAllConnections()
  server.close()
})

test('the SDK v2 createMcpHandler server: 2026-07-28, list and call', async () => {
  const session = await connect({ transport: 'http', url }, { eraCache: noEraCache })
  try {
    expect([session.era, session.protocolVersion]).toEqual(['modern', '2026-07-28'])
    expect(session.serverInfo.name).toBe('sdk-v2')
    expect((await session.listTools()).map((tool) => tool.name)).toEqual(['echo'])
    expect(await session.callTool('echo', { message: 'to v2' })).toMatchObject({
      content: [{ type: 'text', text: 'to v2' }],
    })
  } finally {
    await session.close()
  }
})

test('pinned to 2025-11-25, the same server still answers (its stateless legacy fallback)', async () => {
  const session = await connect({ transport: 'http', url }, { protocol: '2025-11-25', eraCache: noEraCache })
  try {
    expect([session.era, session.protocolVersion]).toEqual(['legacy', '2025-11-25'])
    expect(await session.callTool('echo', { message: 'old way' })).toMatchObject({
      content: [{ text: 'old way' }],
    })
  } finally {
    await session.close()
  }
})
