// The mcp-kit CLI against a server written on the Python MCP SDK's low-level `Server` (no
// FastMCP: the SDK's own dual-era loop and Streamable HTTP app), over stdio and HTTP, in each
// era: a tool with an output schema, and the server's own view of the protocol revision.

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cleanUp, cli, peers, pythonOrWarn, records, startServer } from './helpers.js'

const python = pythonOrWarn('the mcp-kit CLI against a Python MCP SDK low-level server')

const eras = [
  { name: 'negotiated (auto)', flags: [], version: '2026-07-28' },
  { name: 'pinned 2026-07-28', flags: ['--protocol', '2026-07-28'], version: '2026-07-28' },
  { name: 'pinned 2025-11-25', flags: ['--protocol', '2025-11-25'], version: '2025-11-25' },
]

let http
afterAll(async () => {
  await http?.stop()
  cleanUp()
})

describe.skipIf(!python.ready)('mcp-kit CLI → Python SDK low-level server', () => {
  beforeAll(async () => {
    http = await startServer(python.python, [peers.lowlevelServer, '--http', '--port', '0'])
  })

  const transports = [
    {
      name: 'stdio',
      command: (flags, operation) => [...flags, ...operation, '--', python.python, peers.lowlevelServer],
    },
    { name: 'Streamable HTTP', command: (flags, operation) => [`mcp+${http.url}`, ...flags, ...operation] },
  ]

  describe.each(transports)('over $name', (transport) => {
    it.concurrent.each(eras)('$name: the server served the call under the same era', async (era) => {
      const result = await cli(['cat', ...transport.command(era.flags, ['--tool', 'protocol'])])
      expect(result.code, result.stderr).toBe(0)
      expect(records(result.stdout)).toEqual([{ protocolVersion: era.version }])
    })
  })

  // Over HTTP only: it does not depend on the transport, and a stdio run costs a Python start.
  it.concurrent.each(eras)('$name: a tool with an output schema and typed arguments', async (era) => {
    const result = await cli(['cat', `mcp+${http.url}`, ...era.flags, '--tool', 'multiply', 'a=6', 'b=7'])
    expect(result.code, result.stderr).toBe(0)
    expect(records(result.stdout)).toEqual([{ product: 42 }])
  })

  it('inspect names the server and its one-capability surface', async () => {
    const result = await cli(['inspect', `mcp+${http.url}`, '--format', 'json'])
    expect(result.code, result.stderr).toBe(0)
    const report = JSON.parse(result.stdout)
    expect(report).toMatchObject({ protocolVersion: '2026-07-28', server: { name: 'python-lowlevel' } })
    expect(report.tools.map((tool) => tool.name)).toEqual(['multiply', 'protocol'])
    expect(report.tools[0].outputSchema).toMatchObject({ required: ['product'] })
  })
})
