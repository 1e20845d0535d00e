// @module-tag integration
// Registry entries where other references go besides the session commands: a `serve --config`
// entry whose url is `mcp+registry://…` (its inputs from the entry's "inputs", `${NAME}` from the
// environment) served through the gateway — started from this repository's own directory, a pnpm
// workspace, where npx alone cannot run the package — and `generate` from a registry reference.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type RegistryFixture, startRegistry } from '@mcp-kit/fixtures/registry-server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { records, runCli, runCliAtHome, startServe, stopStarted } from '../helpers/helpers.js'
import { warmNpxCache } from '../helpers/npx-cache.js'

let registry: RegistryFixture
let home: string
let cwd: string

beforeAll(async () => {
  await warmNpxCache()
  registry = await startRegistry()
  home = mkdtempSync(join(tmpdir(), 'mcp-kit-registry-gateway-home-'))
  cwd = mkdtempSync(join(tmpdir(), 'mcp-kit-registry-gateway-cwd-'))
}, 300_000)

afterAll(async () => {
  await stopStarted()
  await registry.close()
  rmSync(home, { recursive: true, force: true })
  rmSync(cwd, { recursive: true, force: true })
})

const environment = () => ({
  HOME: home,
  XDG_CONFIG_HOME: join(home, '.config'),
  MCP_KIT_HOME: '',
  MCP_KIT_REGISTRY: registry.url,
})
const cli = (args: string[]) =>
  runCliAtHome(home, cwd, args, { env: { MCP_KIT_REGISTRY: registry.url }, timeoutMs: 120_000 })

function config(entries: Record<string, unknown>): string {
  const file = join(cwd, `config-${Object.keys(entries).join('-')}.json`)
  writeFileSync(file, JSON.stringify({ mcpServers: entries }))
  return file
}

describe('serve --config with an mcp+registry:// entry', () => {
  it('launches the entry with the config’s inputs; its tools are listed and called through the gateway', async () => {
    const file = config({
      secured: {
        url: 'mcp+registry://io.github.acme/everything-secured@1.0.0',
        inputs: { ACME_API_KEY: '${ACME_KEY}', ACME_REGION: 'us' },
        tools: ['get-env', 'echo'],
      },
    })
    const serving = await startServe(['--config', file, '--port', '0'], {
      ...environment(),
      ACME_KEY: 'from-config',
    })
    const listed = await cli(['inspect', `mcp+${serving.url}`, '--format', 'json'])
    expect(listed.code, listed.stderr).toBe(0)
    expect(
      JSON.parse(listed.stdout)
        .tools.map((tool: { name: string }) => tool.name)
        .sort(),
    ).toEqual(['secured__echo', 'secured__get-env'])
    const called = await cli(['cat', `mcp+${serving.url}?tool=secured__get-env`])
    expect(called.code, called.stderr).toBe(0)
    expect(records(called.stdout)[0]).toMatchObject({ ACME_API_KEY: 'from-config', ACME_REGION: 'us' })
    serving.child.kill('SIGTERM')
    expect((await serving.exited).code).toBe(0)
  }, 240_000)

  it('stops at start naming the missing input and where to give it; --registry picks the registry', async () => {
    const file = config({ bare: { url: 'mcp+registry://io.github.acme/everything-secured' } })
    const missing = await runCli(['serve', '--config', file, '--port', '0'], {
      env: environment(),
      timeoutMs: 60_000,
    })
    expect(missing.code).toBe(2)
    expect(missing.stderr).toContain(
      `needs ACME_API_KEY (environment variable, secret: Your Acme API key), and no value was given: add "inputs": { "ACME_API_KEY": "…" } to 'bare' in --config`,
    )
    const elsewhere = await runCli(
      ['serve', '--config', file, '--port', '0', '--registry', 'http://127.0.0.1:9/'],
      { env: environment(), timeoutMs: 60_000 },
    )
    expect(elsewhere.code).toBe(3)
    expect(elsewhere.stderr).toContain('127.0.0.1:9')
  }, 120_000)
})

describe('generate from a registry reference', () => {
  it('writes a typed client for the entry’s tools, naming the reference it came from', async () => {
    const out = join(cwd, 'everything.ts')
    const result = await cli([
      'generate',
      'mcp+registry://io.github.modelcontextprotocol/everything@2026.8.31',
      '--out',
      out,
    ])
    expect(result.code, result.stderr).toBe(0)
    const text = readFileSync(out, 'utf8')
    expect(text).toContain('"source": "mcp+registry://io.github.modelcontextprotocol/everything@2026.8.31"')
    expect(text).toContain('"@modelcontextprotocol/server-everything@2026.8.31"')
    expect(text).toContain("'get-env'")
  }, 180_000)

  it('refuses to write a secret answer into a module, and says how to keep it out', async () => {
    const out = join(cwd, 'secured.ts')
    const result = await cli([
      'generate',
      'mcp+registry://io.github.acme/everything-secured',
      '--input',
      'ACME_API_KEY=do-not-write-me',
      '--out',
      out,
    ])
    expect(result.code).toBe(2)
    expect(result.stderr).toContain(
      'io.github.acme/everything-secured@1.0.0 takes the secret ACME_API_KEY, which a generated module would hold: save the server as a profile',
    )
    expect(() => readFileSync(out, 'utf8')).toThrow()
  }, 120_000)
})
