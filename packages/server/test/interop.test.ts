// @module-tag integration
// The official SDK clients as peers of @mcp-kit/server, both eras: the SDK v2 client in `auto`
// mode negotiates 2026-07-28 over HTTP and stdio, in `legacy` mode 2025-11-25, and the SDK v1
// client keeps working. Every cell lists tools and calls one; the question-asking tool works
// through the same handler in both eras (an input_required round, or an elicitation request).

import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as HttpTransportV2,
} from '@modelcontextprotocol/client'
import { StdioClientTransport as StdioTransportV2 } from '@modelcontextprotocol/client/stdio'
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport as HttpTransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { describe, expect, test } from 'vitest'
import { createDemoRegistry } from '../src/registry/demo.js'
import { deleteNote } from './helpers/fixtures/delete-note.js'
import { serve } from './helpers/http.js'

const stdioServer = fileURLToPath(new URL('./helpers/fixtures/stdio-confirm-server.js', import.meta.url))

/** The demo registry plus a tool that asks the user to confirm before it acts. */
function confirmRegistry() {
  return createDemoRegistry().tool(deleteNote as never)
}

function v2Client(mode: 'auto' | 'legacy') {
  const client = new ClientV2(
    { name: 'interop', version: '1.0.0' },
    { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode } },
  )
  client.setRequestHandler('elicitation/create', async () => ({
    action: 'accept',
    content: { confirm: true },
  }))
  return client
}

async function exercise(client: {
  listTools(): Promise<{ tools: Array<{ name: string }> }>
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown>
}) {
  const { tools } = await client.listTools()
  expect(tools.map((tool) => tool.name)).toEqual(['echo', 'add', 'delete_note'])
  expect(await client.callTool({ name: 'add', arguments: { a: 2, b: 40 } })).toMatchObject({
    structuredContent: { sum: 42 },
  })
  expect(await client.callTool({ name: 'delete_note', arguments: { id: 'n1' } })).toMatchObject({
    content: [{ type: 'text', text: 'deleted n1' }],
  })
}

describe('over Streamable HTTP', () => {
  test('SDK v2 client, auto: negotiates 2026-07-28; the question is an input_required round', async () => {
    const server = await serve(confirmRegistry())
    const client = v2Client('auto')
    await client.connect(new HttpTransportV2(new URL(server.url)))
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28')
      await exercise(client as never)
    } finally {
      await client.close()
    }
  })

  test('SDK v2 client, legacy: 2025-11-25 session; the question is an elicitation request', async () => {
    const server = await serve(confirmRegistry())
    const client = v2Client('legacy')
    await client.connect(new HttpTransportV2(new URL(server.url)))
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe('2025-11-25')
      await exercise(client as never)
    } finally {
      await client.close()
    }
  })

  test('SDK v1 client: 2025-11-25 session, elicitation answered', async () => {
    const server = await serve(confirmRegistry())
    const client = new ClientV1(
      { name: 'interop-v1', version: '1.0.0' },
      { capabilities: { elicitation: {} } },
    )
    const { ElicitRequestSchema } = await import('@modelcontextprotocol/sdk/types.js')
    client.setRequestHandler(ElicitRequestSchema, async () => ({
      action: 'accept',
      content: { confirm: true },
    }))
    await client.connect(new HttpTransportV1(new URL(server.url)))
    try {
      expect(client.getServerVersion()?.name).toBe('mcp-kit')
      await exercise(client as never)
    } finally {
      await client.close()
    }
  })
})

describe('over stdio', () => {
  for (const mode of ['auto', 'legacy'] as const) {
    test(`SDK v2 client, ${mode}: ${mode === 'auto' ? '2026-07-28' : '2025-11-25'} on one server process`, async () => {
      const client = v2Client(mode)
      const transport = new StdioTransportV2({
        command: process.execPath,
        args: [stdioServer],
        stderr: 'pipe',
      })
      await client.connect(transport)
      const pid = transport.pid
      try {
        expect(client.getNegotiatedProtocolVersion()).toBe(mode === 'auto' ? '2026-07-28' : '2025-11-25')
        await exercise(client as never)
      } finally {
        await client.close()
      }
      expect(pid).toBeGreaterThan(0)
    })
  }

  test('a 2026 request and a 2025 session are served by the same process, one after the other', async () => {
    const child = spawn(process.execPath, [stdioServer], { stdio: ['pipe', 'pipe', 'ignore'] })
    const lines: unknown[] = []
    let buffer = ''
    child.stdout.setEncoding('utf8')
    child.stdout.on('data', (chunk: string) => {
      buffer += chunk
      for (let at = buffer.indexOf('\n'); at !== -1; at = buffer.indexOf('\n')) {
        lines.push(JSON.parse(buffer.slice(0, at)))
        buffer = buffer.slice(at + 1)
      }
    })
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
    }
    const send = (message: unknown) => child.stdin.write(`${JSON.stringify(message)}\n`)
    send({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: meta } })
    send({
      jsonrpc: '2.0',
      id: 2,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    })
    send({
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: { name: 'echo', arguments: { message: 'hi' } },
    })
    send({ jsonrpc: '2.0', id: 4, method: 'ping', params: { _meta: meta } })
    await expect.poll(() => lines.length, { timeout: 10_000 }).toBe(4)
    child.stdin.end()
    const byId = new Map(lines.map((line) => [(line as { id: number }).id, line]))
    expect(byId.get(1)).toMatchObject({
      result: { resultType: 'complete', supportedVersions: ['2026-07-28'] },
    })
    expect(byId.get(2)).toMatchObject({ result: { protocolVersion: '2025-11-25' } })
    expect(byId.get(3)).toMatchObject({ result: { content: [{ type: 'text', text: 'hi' }] } })
    expect((byId.get(3) as { result: Record<string, unknown> }).result.resultType).toBeUndefined()
    // ping does not exist in 2026-07-28.
    expect(byId.get(4)).toMatchObject({ error: { code: -32601 } })
    await new Promise((resolve) => child.once('exit', resolve))
  })
})
