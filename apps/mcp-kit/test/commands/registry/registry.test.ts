// @module-tag integration
// Servers by name from an MCP Registry: the built CLI against a local registry that speaks the
// registry's /v0.1 API (tooling/fixtures/registry-server.js), launching a real npm package through
// npx (from npm's cache) and a remote entry served by `mcp-kit serve`; search pages, show, lint
// with line numbers, and required secret inputs.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { type RegistryFixture, startRegistry } from '@mcp-kit/fixtures/registry-server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { records, runCliAtHome, startServe, stopStarted } from '../../helpers/helpers.js'
import { warmNpxCache } from '../../helpers/npx-cache.js'

const fixtures = fileURLToPath(new URL('../../../../../tooling/fixtures/registry/', import.meta.url))
const official = 'io.modelcontextprotocol.registry/official'
let registry: RegistryFixture
let home: string
// The commands run in a directory of their own, as a user's would.
let cwd: string

beforeAll(async () => {
  await warmNpxCache()
  registry = await startRegistry()
  home = mkdtempSync(join(tmpdir(), 'mcp-kit-registry-home-'))
  cwd = mkdtempSync(join(tmpdir(), 'mcp-kit-registry-cwd-'))
}, 300_000)

afterAll(async () => {
  await stopStarted()
  await registry.close()
  rmSync(home, { recursive: true, force: true })
  rmSync(cwd, { recursive: true, force: true })
})

const cli = (args: string[], env: Record<string, string | undefined> = {}) =>
  runCliAtHome(home, cwd, args, { env: { MCP_KIT_REGISTRY: registry.url, ...env }, timeoutMs: 120_000 })

describe('mcp+registry:// references', () => {
  it('inspect launches an npm-packaged entry through npx and shows the entry and its _meta', async () => {
    const result = await cli([
      'inspect',
      'mcp+registry://io.github.modelcontextprotocol/everything',
      '--format',
      'json',
    ])
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    const document = JSON.parse(result.stdout)
    expect(document.launch).toBe('npx -y --prefer-offline @modelcontextprotocol/server-everything@2026.8.31')
    expect(document.tools.map((tool: { name: string }) => tool.name)).toContain('get-env')
    expect(document.registry).toMatchObject({
      registry: registry.url,
      name: 'io.github.modelcontextprotocol/everything',
      version: '2026.8.31',
      launch: 'package npm @modelcontextprotocol/server-everything',
    })
    expect(document.registry.meta[official]).toMatchObject({ status: 'active', isLatest: true })
    const text = await cli(['inspect', 'mcp+registry://io.github.modelcontextprotocol/everything@2026.8.31'])
    expect(text.stdout).toContain(
      'Registry entry\n  io.github.modelcontextprotocol/everything@2026.8.31 from',
    )
    expect(text.stdout).toContain('active; latest; published 2026-01-01T00:00:00Z')
  }, 180_000)

  it('inspect reaches a remote entry with its URL template and secret header filled in', async () => {
    const serving = await startServe(['--port', '0', '--token', 'tenant-token'])
    const port = new URL(serving.url).port
    const missing = await cli(['inspect', 'mcp+registry://io.github.acme/notes-remote'])
    expect(missing.code).toBe(2)
    expect(missing.stderr).toContain(
      'needs port (variable: The port your tenant is served on); token (variable, secret)',
    )
    const result = await cli([
      'inspect',
      'mcp+registry://io.github.acme/notes-remote',
      '--input',
      `port=${port}`,
      '--input',
      'token=tenant-token',
      '--format',
      'json',
    ])
    expect(result.code).toBe(0)
    const document = JSON.parse(result.stdout)
    expect(document.launch).toBe(`http://127.0.0.1:${port}/mcp`)
    expect(document.transport).toBe('streamable-http')
    expect(document.registry.launch).toBe('remote streamable-http')
    // A wrong token is the server's refusal, not a registry problem: the header did carry it.
    const wrong = await cli([
      'inspect',
      'mcp+registry://io.github.acme/notes-remote',
      '--input',
      `port=${port}`,
      '--input',
      'token=nope',
    ])
    expect(wrong.code).not.toBe(0)
    serving.child.kill('SIGTERM')
    await serving.exited
  }, 180_000)

  it('a profile made from a reference pins the version it resolved', async () => {
    const result = await cli([
      'profile',
      'create',
      'everything',
      '--from',
      'mcp+registry://io.github.modelcontextprotocol/everything',
    ])
    expect(result.code).toBe(0)
    const meta = JSON.parse(
      readFileSync(join(home, '.config/mcp-kit/profiles/everything/_meta.json'), 'utf8'),
    )
    expect(meta.args).toEqual(['-y', '--prefer-offline', '@modelcontextprotocol/server-everything@2026.8.31'])
    expect(meta.registry).toEqual({
      url: registry.url,
      name: 'io.github.modelcontextprotocol/everything',
      version: '2026.8.31',
    })
    const older = await cli([
      'profile',
      'create',
      'everything-old',
      '--from',
      'mcp+registry://io.github.modelcontextprotocol/everything@2026.8.30',
    ])
    expect(older.code, older.stderr).toBe(0)
    const olderMeta = JSON.parse(
      readFileSync(join(home, '.config/mcp-kit/profiles/everything-old/_meta.json'), 'utf8'),
    )
    expect(olderMeta.args).toEqual([
      '-y',
      '--prefer-offline',
      '--no-audit',
      '@modelcontextprotocol/server-everything@2026.8.31',
    ])
    expect(olderMeta.registry.version).toBe('2026.8.30')
  }, 240_000)

  it('a required secret input missing is exit 2 naming it; --input or the secret store answers it', async () => {
    const reference = 'mcp+registry://io.github.acme/everything-secured?tool=get-env'
    const missing = await cli(['cat', reference])
    expect(missing.code).toBe(2)
    expect(missing.stderr).toContain('needs ACME_API_KEY (environment variable, secret: Your Acme API key)')
    expect(missing.stderr).toContain('--input ACME_API_KEY=')
    expect(missing.stderr).toContain(
      'mcp-kit profile secret set registry/io.github.acme/everything-secured/ACME_API_KEY',
    )
    const given = await cli([
      'cat',
      reference,
      '--input',
      'ACME_API_KEY=from-flag',
      '--input',
      'ACME_REGION=us',
    ])
    expect(given.code).toBe(0)
    expect(records(given.stdout)[0]).toMatchObject({ ACME_API_KEY: 'from-flag', ACME_REGION: 'us' })
    const wrongChoice = await cli([
      'cat',
      reference,
      '--input',
      'ACME_API_KEY=x',
      '--input',
      'ACME_REGION=mars',
    ])
    expect(wrongChoice.code).toBe(2)
    expect(wrongChoice.stderr).toContain('the value given for ACME_REGION is not one of "eu", "us"')
    const stored = await cli(
      ['profile', 'secret', 'set', 'registry/io.github.acme/everything-secured/ACME_API_KEY'],
      {},
    )
    expect(stored.code).toBe(2) // no value on stdin
    const set = await runCliAtHome(
      home,
      cwd,
      ['profile', 'secret', 'set', 'registry/io.github.acme/everything-secured/ACME_API_KEY'],
      {
        input: 'from-store\n',
      },
    )
    expect(set.code).toBe(0)
    const fromStore = await cli(['cat', reference])
    expect(fromStore.code).toBe(0)
    expect(records(fromStore.stdout)[0]).toMatchObject({ ACME_API_KEY: 'from-store', ACME_REGION: 'eu' })
    // A profile keeps the secret out of its file.
    const profile = await cli([
      'profile',
      'create',
      'secured',
      '--from',
      'mcp+registry://io.github.acme/everything-secured',
    ])
    expect(profile.code).toBe(0)
    const metaText = readFileSync(join(home, '.config/mcp-kit/profiles/secured/_meta.json'), 'utf8')
    expect(metaText).not.toContain('from-store')
    expect(JSON.parse(metaText).env.ACME_API_KEY).toBe('${secret:secured/env/ACME_API_KEY}')
  }, 240_000)

  it('deleted entries are refused, deprecated ones warned about, a cached entry used offline says so', async () => {
    const deleted = await cli(['inspect', 'mcp+registry://io.github.acme/removed'])
    expect(deleted.code).toBe(2)
    expect(deleted.stderr).toContain(
      'io.github.acme/removed@0.0.1 was deleted from the registry: removed for distributing malware',
    )
    const unknown = await cli(['inspect', 'mcp+registry://io.github.acme/nothing-here'])
    expect(unknown.code).toBe(2)
    const hostile = await cli(['inspect', 'mcp+registry://io.github.acme/x;rm -rf ~'])
    expect(hostile.code).toBe(2)
    // The entry is in the cache from an earlier test; the registry stops answering.
    registry.answer(false)
    try {
      const offline = await cli([
        'inspect',
        'mcp+registry://io.github.modelcontextprotocol/everything',
        '--format',
        'json',
      ])
      expect(offline.code).toBe(0)
      expect(offline.stderr).toContain(
        `the registry at ${registry.url} cannot be reached: using the copy of io.github.modelcontextprotocol/everything@2026.8.31 cached on`,
      )
      expect(JSON.parse(offline.stdout).registry.offline).toBe(true)
      const never = await cli(['inspect', 'mcp+registry://io.github.acme/weather-py'])
      expect(never.code).toBe(3)
    } finally {
      registry.answer(true)
    }
  }, 180_000)
})

describe('mcp-kit registry', () => {
  it('search pages through the registry with its cursor', async () => {
    const before = registry.requests.length
    const result = await cli(['registry', 'search', 'fixture', '--page-size', '20'])
    expect(result.code).toBe(0)
    const found = records(result.stdout) as Array<{ name: string; status: string }>
    expect(found).toHaveLength(45)
    expect(new Set(found.map((entry) => entry.name)).size).toBe(45)
    const searches = registry.requests
      .slice(before)
      .filter((request) => request.url.startsWith('/v0.1/servers?'))
    expect(searches).toHaveLength(3)
    expect(searches[1]?.url).toContain('cursor=')
    const limited = await cli(['registry', 'search', 'fixture', '--page-size', '20', '--limit', '20'])
    expect(records(limited.stdout)).toHaveLength(20)
    expect(limited.stderr).toContain('more servers than --limit 20: raise it (or go on with --cursor ')
    const acme = await cli(['registry', 'search', 'acme', '--format', 'text'])
    expect(acme.stdout).toMatch(/io\.github\.acme\/old-weather +0\.9\.0 +deprecated/)
    expect(acme.stdout).not.toContain('io.github.acme/removed')
    expect(acme.stderr).toContain('io.github.acme/old-weather is deprecated: use io.github.acme/weather-py')
  })

  it('show prints the versions and what would be run', async () => {
    const result = await cli([
      'registry',
      'show',
      'io.github.acme/weather-py',
      '--format',
      'text',
      '--input',
      'WEATHER_API_KEY=hidden',
    ])
    expect(result.code).toBe(0)
    expect(result.stdout).toContain('runs: uvx acme-weather-mcp==0.3.1 --units metric Oslo')
    expect(result.stdout).toContain(
      'runs: docker run -i --rm -e WEATHER_API_KEY ghcr.io/acme/weather-mcp:0.3.1',
    )
    expect(result.stdout).toContain('env WEATHER_API_KEY=<WEATHER_API_KEY>')
    expect(result.stdout).not.toContain('hidden')
    const json = await cli(['registry', 'show', 'io.github.modelcontextprotocol/everything'])
    const document = JSON.parse(json.stdout)
    expect(document.versions.map((item: { version: string }) => item.version)).toEqual([
      '2026.8.30',
      '2026.8.31',
    ])
    expect(document.launches[0].command).toEqual([
      'npx',
      '-y',
      '--prefer-offline',
      '@modelcontextprotocol/server-everything@2026.8.31',
    ])
  })

  it('lint passes a valid server.json and reports each seeded mistake with its line', async () => {
    const valid = await cli([
      'registry',
      'lint',
      join(fixtures, 'server.json'),
      '--schema',
      registry.schemaUrl,
    ])
    expect(valid.code).toBe(0)
    expect(valid.stdout).toBe('')
    expect(valid.stderr).toContain('0 errors, 0 warnings against the schema and the publishing rules')
    const file = join(fixtures, 'server-with-mistakes.json')
    // The schema was fetched once (above) and kept: it is used with the registry unreachable.
    registry.answer(false)
    let result: Awaited<ReturnType<typeof cli>>
    try {
      result = await cli(['registry', 'lint', file, '--format', 'text', '--schema', registry.schemaUrl])
    } finally {
      registry.answer(true)
    }
    expect(result.code).toBe(1)
    const lines = result.stdout.trim().split('\n')
    const at = (line: number) => lines.filter((text) => text.startsWith(`${file}:${line}:`)).join('\n')
    expect(at(3)).toContain("namespace 'acme' is not reverse-DNS")
    expect(at(4)).toContain('is longer than 100 characters (schema)')
    expect(at(5)).toContain('version is a range')
    expect(at(9)).toContain("'Server Everything' is not a valid npm package name")
    expect(at(10)).toContain("package version is 'latest'")
    expect(at(11)).toContain("'bash' is not how npm packages run")
    expect(at(13)).toContain("a named argument is a flag with its dashes ('--port')")
    expect(at(19)).toContain("{region} in the URL is not one of the remote's 'variables'")
    const unreachable = await cli([
      'registry',
      'lint',
      file,
      '--schema',
      'http://127.0.0.1:9/server.schema.json',
    ])
    expect(unreachable.code).toBe(3)
    expect(unreachable.stderr).toContain(
      'give a copy with --schema FILE, or check the publishing rules alone with --rules-only',
    )
    const json = await cli(['registry', 'lint', file, '--rules-only'])
    expect(records(json.stdout)).toContainEqual(
      expect.objectContaining({ line: 5, column: 3, rule: 'version' }),
    )
  })

  it('launch runs a server.json as the registry would, and refuses one the registry would not take', async () => {
    const result = await cli(['registry', 'launch', join(fixtures, 'server.json'), '--format', 'json'])
    expect(result.code).toBe(0)
    const document = JSON.parse(result.stdout)
    expect(document.launch).toBe('npx -y --prefer-offline @modelcontextprotocol/server-everything@2026.8.31')
    expect(document.registry.name).toBe('io.github.acme/everything')
    const refused = await cli(['registry', 'launch', join(fixtures, 'server-with-mistakes.json')])
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain('server-with-mistakes.json:5:3: version is a range')
  }, 180_000)
})
