// @module-tag integration
// --verbose on failures we expect: one line per event, causes as `cause: <message>`, never a
// stack trace and never the same line twice.

import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fixtureServers } from '@mcp-kit/fixtures'
import { describe, expect, it } from 'vitest'
import { runCli } from '../helpers/helpers.js'

function expectPlainDiagnostics(stderr: string): void {
  const lines = stderr.split('\n').filter((line) => line !== '')
  expect(lines.filter((line) => /^\s+at /.test(line))).toEqual([])
  expect(lines.filter((line, index) => lines.indexOf(line) !== index)).toEqual([])
}

/** A port nobody listens on: bound, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

describe('--verbose on a failing connect', () => {
  it('connection refused: the causes, one line each, no stack trace', async () => {
    const port = await closedPort()
    const result = await runCli(['inspect', `mcp+http://127.0.0.1:${port}/mcp`, '--verbose'])
    expect(result.code).toBe(3)
    expect(result.stderr).toContain(
      `mcp-kit: cannot connect to http://127.0.0.1:${port}/mcp: connection refused`,
    )
    expect(result.stderr).toMatch(/^mcp-kit: cause: .*ECONNREFUSED/m)
    expectPlainDiagnostics(result.stderr)
  })

  it('an HTTP server that is not MCP (404, then the legacy SSE fallback fails too)', async () => {
    const server = createServer((_request, response) => {
      response.statusCode = 404
      response.end('not here')
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    try {
      const { port } = server.address() as AddressInfo
      const result = await runCli(['inspect', `mcp+http://127.0.0.1:${port}/mcp`, '--verbose'])
      expect(result.code).toBe(3)
      expect(result.stderr).toMatch(/^mcp-kit: cause: /m)
      expectPlainDiagnostics(result.stderr)
    } finally {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  })

  it('a server that crashes at start', async () => {
    const result = await runCli(['inspect', `mcp+node://${fixtureServers.crash}?arg=--at-start`, '--verbose'])
    expect(result.code).toBe(3)
    expect(result.stderr).toContain('[server] fixture: fatal: missing API key')
    expect(result.stderr).toMatch(/^mcp-kit: cause: /m)
    expectPlainDiagnostics(result.stderr)
  })

  it('without --verbose: the message alone', async () => {
    const port = await closedPort()
    const result = await runCli(['inspect', `mcp+http://127.0.0.1:${port}/mcp`])
    expect(result.stderr).toBe(
      `mcp-kit: cannot connect to http://127.0.0.1:${port}/mcp: connection refused\n`,
    )
  })
})
