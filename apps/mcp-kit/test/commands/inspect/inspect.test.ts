// @module-tag integration
// `mcp-kit inspect` against the bundled demo and a real server from npm.

import { npmServers } from '@mcp-kit/fixtures'
import { describe, expect, it } from 'vitest'
import { runCli } from '../../helpers/helpers.js'

describe('inspect', () => {
  it('@demo as text: server, tools with parameters, resources, prompts', async () => {
    const result = await runCli(['inspect', '@demo'])
    expect(result.code).toBe(0)
    expect(result.stderr).toBe('')
    expect(result.stdout).toMatch(/^mcp-kit \d+\.\d+\.\d+/)
    expect(result.stdout).toMatch(/MCP 2026-07-28 over stdio: /)
    expect(result.stdout).toMatch(
      /Tools \(2\)\n {2}echo {2}Returns the message it is given\n {6}message {2}string {2}required {2}Text to echo back/,
    )
    expect(result.stdout).toMatch(/ {6}a {2}number {2}required {2}First addend/)
    expect(result.stdout).toMatch(/Resources \(1\)\n {2}demo:\/\/readme/)
    expect(result.stdout).toMatch(/Prompts \(1\)\n {2}greet/)
    expect(result.stdout).not.toMatch(/\u001b\[/) // no colour on a pipe
  })

  it('--format json is one document with a stable shape', async () => {
    const result = await runCli(['inspect', '@demo', '--format', 'json'])
    expect(result.code).toBe(0)
    const document = JSON.parse(result.stdout)
    expect(Object.keys(document)).toEqual([
      'reference',
      'server',
      'protocolVersion',
      'era',
      'transport',
      'launch',
      'capabilities',
      'schemaHash',
      'toolsListSize',
      'tools',
      'resources',
      'resourceTemplates',
      'prompts',
      'cacheHints',
    ])
    expect(document.transport).toBe('stdio')
    expect(document.schemaHash).toMatch(/^sha256:[0-9a-f]{64}$/)
    expect(document.tools.map((tool: { name: string }) => tool.name)).toEqual(['echo', 'add'])
    // The list's JSON as a model would get it, and tokens estimated as bytes ÷ 4.
    const bytes = Buffer.byteLength(JSON.stringify({ tools: document.tools }))
    expect(document.toolsListSize).toEqual({ bytes, approximateTokens: Math.round(bytes / 4) })
    const text = await runCli(['inspect', '@demo'])
    expect(text.stdout).toContain(
      `Tools list: ${bytes} B of JSON, about ${Math.round(bytes / 4)} tokens (bytes ÷ 4)`,
    )
  })

  it('server-everything from npm: tools, resources, templates, prompts with arguments', async () => {
    const result = await runCli(['inspect', `mcp+node://${npmServers.everything}`, '--format', 'json'])
    expect(result.code).toBe(0)
    const document = JSON.parse(result.stdout)
    expect(document.server.name).toBe('mcp-servers/everything')
    expect(document.tools.length).toBeGreaterThan(5)
    expect(document.resources.length).toBeGreaterThan(0)
    expect(document.resourceTemplates.length).toBeGreaterThan(0)
    expect(
      document.prompts.some((prompt: { arguments?: unknown[] }) => (prompt.arguments ?? []).length > 0),
    ).toBe(true)
    const text = await runCli(['inspect', `mcp+node://${npmServers.everything}`])
    expect(text.stdout).toMatch(/ {6}message {2}string {2}required/)
  })
})
