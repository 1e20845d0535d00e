// @module-tag integration
// `profile update` of a profile made from a registry entry, against the local registry fixture:
// a version published after the profile was made is said to be available while the pin stays;
// --to-version moves the pin to it with the answers the profile was made with (a secret one from
// the secret store), the live tools compared with the stored ones, and asks first.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type RegistryFixture, startRegistry } from '@mcp-kit/fixtures/registry-server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { records, runCliAtHome } from '../../helpers/helpers.js'
import { warmNpxCache } from '../../helpers/npx-cache.js'

let registry: RegistryFixture
let home: string
let cwd: string

/** A version of io.github.acme/notes: 1.0.0 runs the memory server, 2.0.0 the everything server. */
function notes(version: string, identifier: string) {
  return {
    server: {
      name: 'io.github.acme/notes',
      description: 'Acme notes',
      version,
      packages: [
        {
          registryType: 'npm',
          identifier,
          version: '2026.8.31',
          transport: { type: 'stdio' },
          runtimeArguments: [{ type: 'positional', value: '--prefer-offline' }],
          environmentVariables: [
            { name: 'ACME_API_KEY', isRequired: true, isSecret: true },
            { name: 'ACME_REGION', default: 'eu', choices: ['eu', 'us'] },
          ],
        },
      ],
    },
    updatedAt: `2026-0${version[0]}-01T00:00:00Z`,
  }
}

beforeAll(async () => {
  await warmNpxCache()
  registry = await startRegistry()
  registry.add(notes('1.0.0', '@modelcontextprotocol/server-memory'))
  home = mkdtempSync(join(tmpdir(), 'mcp-kit-registry-update-home-'))
  cwd = mkdtempSync(join(tmpdir(), 'mcp-kit-registry-update-cwd-'))
}, 300_000)

afterAll(async () => {
  await registry.close()
  rmSync(home, { recursive: true, force: true })
  rmSync(cwd, { recursive: true, force: true })
})

const cli = (args: string[]) =>
  runCliAtHome(home, cwd, args, { env: { MCP_KIT_REGISTRY: registry.url }, timeoutMs: 120_000 })
const metaOf = () => JSON.parse(readFileSync(join(home, '.config/mcp-kit/profiles/notes/_meta.json'), 'utf8'))

describe('profile update of a registry profile', () => {
  it('says a newer version is out, keeps the pin, and moves it with --to-version', async () => {
    const created = await cli([
      'profile',
      'create',
      'notes',
      '--from',
      'mcp+registry://io.github.acme/notes',
      '--input',
      'ACME_API_KEY=k-secret',
      '--input',
      'ACME_REGION=us',
    ])
    expect(created.code, created.stderr).toBe(0)
    const before = metaOf()
    expect(before.registry).toEqual({
      url: registry.url,
      name: 'io.github.acme/notes',
      version: '1.0.0',
      inputs: { ACME_API_KEY: '${secret:notes/env/ACME_API_KEY}', ACME_REGION: 'us' },
    })
    expect(before.args).toContain('@modelcontextprotocol/server-memory@2026.8.31')

    // 2.0.0 is published: 1.0.0 is no longer the latest.
    const first = registry.entries.find((entry) => entry.server.name === 'io.github.acme/notes')
    if (first) first.isLatest = false
    registry.add(notes('2.0.0', '@modelcontextprotocol/server-everything'))

    const told = await cli(['profile', 'update', 'notes', '--yes'])
    expect(told.code, told.stderr).toBe(0)
    expect(told.stdout).toContain(
      "@notes: io.github.acme/notes@1.0.0 is pinned; the registry's latest is 2.0.0: take it with --to-version 2.0.0 (or latest)",
    )
    expect(told.stdout).toContain('@notes is up to date')
    expect(metaOf().registry.version).toBe('1.0.0')

    const unconfirmed = await cli(['profile', 'update', 'notes', '--to-version', 'latest'])
    expect(unconfirmed.code).toBe(2)
    expect(unconfirmed.stdout).toContain('@notes: io.github.acme/notes 1.0.0 → 2.0.0\nchanges to accept:')
    expect(unconfirmed.stderr).toContain('not updating @notes without confirmation')
    expect(metaOf()).toEqual(before)

    const moved = await cli(['profile', 'update', 'notes', '--to-version', 'latest', '--yes'])
    expect(moved.code, moved.stderr).toBe(0)
    expect(moved.stdout).toMatch(/breaking: tool '\w+' was removed/)
    expect(moved.stdout).toMatch(/updated @notes to io\.github\.acme\/notes@2\.0\.0: \d+ tools, sha256:/)
    const after = metaOf()
    expect(after.registry).toEqual({ ...before.registry, version: '2.0.0' })
    expect(after.args).toContain('@modelcontextprotocol/server-everything@2026.8.31')
    expect(after.env).toEqual({ ACME_API_KEY: '${secret:notes/env/ACME_API_KEY}', ACME_REGION: 'us' })
    expect(after.description).toBe('io.github.acme/notes@2.0.0 from the MCP Registry: Acme notes')
    expect(after.schema_hash).not.toBe(before.schema_hash)

    // The new server runs with the answers the profile was made with.
    const env = await cli(['cat', '@notes/get-env'])
    expect(env.code, env.stderr).toBe(0)
    expect(records(env.stdout)[0]).toMatchObject({ ACME_API_KEY: 'k-secret', ACME_REGION: 'us' })
    const valid = await cli(['profile', 'validate', 'notes'])
    expect(valid.code, valid.stdout + valid.stderr).toBe(0)
    const again = await cli(['profile', 'update', 'notes', '--to-version', '2.0.0', '--yes'])
    expect(again.stdout).toContain('@notes: io.github.acme/notes@2.0.0 is pinned already')
  }, 300_000)

  it('refuses a version the registry does not have, or --to-version for a profile of no registry', async () => {
    const unknown = await cli(['profile', 'update', 'notes', '--to-version', '9.9.9', '--yes'])
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toContain('9.9.9')
    const demo = await cli(['profile', 'update', 'demo', '--to-version', '1.0.0', '--yes'])
    expect(demo.code).toBe(2)
    expect(demo.stderr).toContain('@demo was not made from a registry entry')
  }, 120_000)

  it('goes on with the pinned version when the registry cannot be reached', async () => {
    registry.answer(false)
    try {
      const result = await cli(['profile', 'update', 'notes', '--yes'])
      expect(result.code, result.stderr).toBe(0)
      expect(result.stdout).toContain('@notes is up to date')
      const moving = await cli(['profile', 'update', 'notes', '--to-version', '3.0.0', '--yes'])
      expect(moving.code).toBe(3)
    } finally {
      registry.answer(true)
    }
  }, 120_000)
})
