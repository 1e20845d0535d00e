// @module-tag integration
// `mcp-kit serve --openapi` with a real API's whole document (GitHub's REST API from
// @octokit/openapi, 1,223 operations): the official SDK v1 client lists every tool through the
// pages over stdio, no page passes 1 MiB, output schemas and tag/path filters shrink the list, and
// `inspect` says how big the list is.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openApiDocuments } from '@mcp-kit/fixtures/openapi-documents'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { afterAll, describe, expect, it } from 'vitest'
import { binPath, runCli } from '../../helpers/helpers.js'

const github = openApiDocuments.github
const scratch = mkdtempSync(join(tmpdir(), 'mcp-kit-openapi-large-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

type InspectedTools = {
  toolsListSize: { bytes: number; approximateTokens: number }
  tools: Array<{ name: string; outputSchema?: unknown }>
}

/** `mcp-kit inspect --format json` of `mcp-kit serve --stdio` with these flags. */
async function inspectServe(flags: string[]): Promise<InspectedTools> {
  const result = await runCli(
    ['inspect', '--format', 'json', '--', process.execPath, binPath, 'serve', '--stdio', ...flags],
    { timeoutMs: 120_000 },
  )
  expect(result.code, result.stderr).toBe(0)
  return JSON.parse(result.stdout) as InspectedTools
}

describe("GitHub's REST API over stdio", () => {
  // The SDK client compiles a validator for every output schema it is given: minutes under load.
  it('the official SDK v1 client lists every operation through the pages, none over 1 MiB', {
    timeout: 300_000,
  }, async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      // No request leaves this machine: the API's base is a loopback port (no call is made anyway).
      args: [
        binPath,
        'serve',
        '--stdio',
        '--openapi',
        github,
        '--openapi-base',
        'http://127.0.0.1:9',
        '--openapi-output-schemas',
        'full',
      ],
      stderr: 'pipe',
    })
    // Every message as it arrives, to weigh the pages as they were sent.
    const sizes: number[] = []
    const client = new Client({ name: 'sdk-v1-pages', version: '1.0.0' })
    await client.connect(transport)
    const received = transport.onmessage
    transport.onmessage = (message) => {
      sizes.push(Buffer.byteLength(JSON.stringify(message)))
      received?.(message)
    }
    try {
      const names: string[] = []
      let cursor: string | undefined
      let pages = 0
      do {
        const page = await client.listTools(cursor === undefined ? {} : { cursor }, { timeout: 120_000 })
        names.push(...page.tools.map((tool) => tool.name))
        cursor = page.nextCursor
        pages += 1
      } while (cursor !== undefined && pages < 200)
      expect(names).toHaveLength(1223)
      expect(new Set(names).size).toBe(1223)
      expect(pages).toBeGreaterThan(10)
      expect(sizes).toHaveLength(pages)
      for (const size of sizes) expect(size).toBeLessThan(1024 * 1024)
    } finally {
      await client.close()
    }
  })

  it("a gateway in front of it lists the upstream's every page and pages its own list", {
    timeout: 300_000,
  }, async () => {
    const upstream = [
      'serve',
      '--stdio',
      '--openapi',
      github,
      '--openapi-base',
      'http://127.0.0.1:9',
      '--openapi-output-schemas',
      'full',
    ]
    const reference = `gh=mcp+node://${binPath}?${upstream.map((word) => `arg=${encodeURIComponent(word)}`).join('&')}`
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [binPath, 'serve', '--stdio', '--eager', reference],
      stderr: 'pipe',
    })
    const client = new Client({ name: 'sdk-v1-gateway-pages', version: '1.0.0' })
    await client.connect(transport)
    try {
      const names: string[] = []
      let cursor: string | undefined
      let pages = 0
      // The gateway may answer before its upstream has listed: ask until every tool is there.
      for (let attempt = 0; attempt < 60 && names.length < 1223; attempt++) {
        names.length = 0
        pages = 0
        cursor = undefined
        do {
          const page = await client.listTools(cursor === undefined ? {} : { cursor }, { timeout: 120_000 })
          names.push(...page.tools.map((tool) => tool.name))
          cursor = page.nextCursor
          pages += 1
        } while (cursor !== undefined && pages < 200)
        if (names.length < 1223) await new Promise((resolve) => setTimeout(resolve, 500))
      }
      expect(names).toHaveLength(1223)
      expect(names.every((name) => name.startsWith('gh__'))).toBe(true)
      expect(pages).toBeGreaterThan(10)
    } finally {
      await client.close()
    }
  })

  it('inspect says how big the list is; compact and none output schemas shrink it', {
    timeout: 300_000,
  }, async () => {
    const full = await inspectServe(['--openapi', github, '--openapi-output-schemas', 'full'])
    expect(full.tools).toHaveLength(1223)
    expect(full.toolsListSize.bytes).toBe(Buffer.byteLength(JSON.stringify({ tools: full.tools })))
    expect(full.toolsListSize.approximateTokens).toBe(Math.round(full.toolsListSize.bytes / 4))
    const compact = await inspectServe(['--openapi', github, '--openapi-output-schemas', 'compact'])
    const none = await inspectServe(['--openapi', github, '--openapi-output-schemas', 'none'])
    expect(compact.tools).toHaveLength(1223)
    expect(compact.toolsListSize.bytes).toBeLessThan(full.toolsListSize.bytes * 0.8)
    expect(none.tools.every((tool) => tool.outputSchema === undefined)).toBe(true)
    expect(none.toolsListSize.bytes).toBeLessThan(compact.toolsListSize.bytes)
  })

  it('tag and path filters offer the part of the API a user needs', { timeout: 120_000 }, async () => {
    const picked = await inspectServe([
      '--openapi',
      github,
      '--openapi-include-tag',
      'issues',
      '--openapi-include-path',
      '/gists',
      '--openapi-exclude-path',
      '/repos/{owner}/{repo}/issues/comments',
    ])
    const names = picked.tools.map((tool) => tool.name)
    expect(names).toContain('issues_create')
    expect(names).toContain('gists_list')
    expect(names).not.toContain('issues_list_comments_for_repo')
    expect(names).not.toContain('repos_get')
    expect(names.length).toBeGreaterThan(40)
    expect(names.length).toBeLessThan(120)
  })

  it('a --config entry takes outputSchemas, and filters by tag: and path:', {
    timeout: 120_000,
  }, async () => {
    const config = join(scratch, 'config.json')
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: {
          gh: { openapi: github, outputSchemas: 'none', include: ['tag:gists', 'path:/emojis'] },
        },
      }),
    )
    const served = await inspectServe(['--config', config])
    const names = served.tools.map((tool) => tool.name)
    expect(names).toContain('gh__gists_list')
    expect(names).toContain('gh__emojis_get')
    expect(names.every((name) => name.startsWith('gh__gists') || name === 'gh__emojis_get')).toBe(true)
    expect(served.tools.every((tool) => tool.outputSchema === undefined)).toBe(true)
  })

  it('the new flags refuse what they cannot use, exit 2', { timeout: 120_000 }, async () => {
    const mode = await runCli(['serve', '--stdio', '--openapi', github, '--openapi-output-schemas', 'short'])
    expect(mode.code).toBe(2)
    expect(mode.stderr).toMatch(/openapi-output-schemas/)
    const path = await runCli(['serve', '--stdio', '--openapi', github, '--openapi-include-path', 'repos'])
    expect(path.code).toBe(2)
    expect(path.stderr).toMatch(/--openapi-include-path .* starts with '\/'/)
    const alone = await runCli(['serve', '--stdio', '--openapi-include-tag', 'issues'])
    expect(alone.code).toBe(2)
    expect(alone.stderr).toMatch(/--openapi-include-tag needs --openapi SPEC/)
  })
})
