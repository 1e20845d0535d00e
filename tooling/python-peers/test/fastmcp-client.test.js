// FastMCP's client (Python) against `mcp-kit serve`: a registry module over Streamable HTTP and
// over stdio, in each of FastMCP's negotiation modes (auto, legacy = the 2025 handshake, a pinned
// 2026-07-28), and a gateway whose upstream is a FastMCP server. The registry's `whoami` tool
// reports the revision the server saw, so both ends are checked to agree on the era; its
// `delete_note` asks the client to confirm (2025: elicitation request; 2026: input_required),
// which FastMCP's elicitation handler answers.

import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { binPath, cacheDirectory, cleanUp, peers, pythonOrWarn, run, startServer } from './helpers.js'

const python = pythonOrWarn("FastMCP's client against mcp-kit serve")

const modes = [
  { mode: 'auto', version: '2026-07-28' },
  { mode: 'legacy', version: '2025-11-25' },
  { mode: '2026-07-28', version: '2026-07-28' },
]

/** Runs the FastMCP client script; its one JSON report. */
async function fastmcpClient(args) {
  const result = await run(python.python, [peers.fastmcpClient, ...args])
  expect(result.code, result.stderr).toBe(0)
  return JSON.parse(result.stdout.trim().split('\n').at(-1))
}

let served
let gateway
afterAll(async () => {
  await Promise.all([served?.stop(), gateway?.stop()])
  cleanUp()
})

describe.skipIf(!python.ready)('FastMCP client → mcp-kit serve', () => {
  beforeAll(async () => {
    const config = join(cacheDirectory(), 'servers.json')
    writeFileSync(
      config,
      JSON.stringify({ mcpServers: { py: { command: python.python, args: [peers.fastmcpServer] } } }),
    )
    ;[served, gateway] = await Promise.all([
      startServer(process.execPath, [binPath, 'serve', peers.registry, '--port', '0']),
      startServer(process.execPath, [binPath, 'serve', '--config', config, '--port', '0']),
    ])
  })

  describe.concurrent('over Streamable HTTP', () => {
    it.each(modes)(
      'mode $mode: speaks $version (both ends agree); tools, a call, a question answered, a resource, a prompt',
      async ({ mode, version }) => {
        const report = await fastmcpClient([
          '--mode',
          mode,
          '--call',
          'add:{"a":2,"b":40}',
          '--call',
          'whoami',
          '--call',
          'delete_note:{"id":"n1"}',
          '--answer',
          '{"confirm":true}',
          '--read',
          'notes://todo',
          '--prompt',
          'summarize:{"text":"hi"}',
          served.url,
        ])
        expect(report.protocolVersion).toBe(version)
        expect(report.tools).toEqual(['add', 'whoami', 'delete_note'])
        const [add, whoami, deleteNote] = report.calls
        expect(add).toMatchObject({ isError: false, structuredContent: { sum: 42 } })
        expect(whoami.structuredContent).toEqual({ protocolVersion: version, client: expect.any(String) })
        expect(deleteNote).toMatchObject({ isError: false, text: ['deleted n1'] })
        expect(report.asked).toEqual(['Delete note n1?'])
        expect(report.read).toEqual(['# TODO\n- talk to Python\n'])
        expect(report.prompt).toEqual([{ role: 'user', text: 'Summarize: hi' }])
      },
    )

    it.each(modes.slice(0, 2))('mode $mode: a declined question is declined', async ({ mode }) => {
      const report = await fastmcpClient(['--mode', mode, '--call', 'delete_note:{"id":"n2"}', served.url])
      expect(report.asked).toEqual(['Delete note n2?'])
      expect(report.calls).toEqual([
        { name: 'delete_note', isError: false, structuredContent: null, text: ['kept n2'] },
      ])
    })

    it.each(modes.slice(0, 2))(
      'mode $mode, through a gateway to a FastMCP server: namespaced tools; the upstream is spoken to in 2026-07-28',
      async ({ mode, version }) => {
        const report = await fastmcpClient([
          '--mode',
          mode,
          '--call',
          'py__add:{"a":2,"b":40}',
          '--call',
          'py__protocol',
          gateway.url,
        ])
        expect(report.protocolVersion).toBe(version)
        expect(report.tools.sort()).toEqual([
          'py__add',
          'py__delete_note',
          'py__protocol',
          'py__shout',
          'py__stats',
        ])
        expect(report.calls.map((call) => call.structuredContent)).toEqual([
          { result: 42 },
          { protocolVersion: '2026-07-28' },
        ])
      },
    )
  })

  describe.concurrent('over stdio (mcp-kit serve --stdio)', () => {
    it.each(modes.slice(0, 2))(
      'mode $mode: speaks $version (both ends agree) and calls a tool',
      async ({ mode, version }) => {
        const report = await fastmcpClient([
          '--mode',
          mode,
          '--call',
          'add:{"a":2,"b":40}',
          '--call',
          'whoami',
          '--',
          process.execPath,
          binPath,
          'serve',
          peers.registry,
          '--stdio',
        ])
        expect(report.protocolVersion).toBe(version)
        expect(report.calls.map((call) => call.structuredContent)).toEqual([
          { sum: 42 },
          { protocolVersion: version, client: expect.any(String) },
        ])
      },
    )
  })
})
