import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startRegistry } from '@mcp-kit/fixtures/registry-server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createRegistryClient, fileResponseCache, loadServerSchema, RegistryError } from '../../src/index.js'

let registry: Awaited<ReturnType<typeof startRegistry>>
const directory = mkdtempSync(join(tmpdir(), 'mcp-kit-registry-'))

beforeAll(async () => {
  registry = await startRegistry({ token: 's3cret' })
})
afterAll(async () => {
  await registry.close()
  rmSync(directory, { recursive: true, force: true })
})

const headers = { Authorization: 'Bearer s3cret' }

describe('createRegistryClient', () => {
  it('pages through a search with the cursor the registry gives', async () => {
    const client = createRegistryClient({ url: registry.url, headers })
    const names: string[] = []
    let cursor: string | undefined
    let pages = 0
    do {
      const page = await client.listServers({ search: 'fixture', limit: 20, cursor })
      names.push(...page.servers.map((entry) => entry.server.name as string))
      cursor = page.nextCursor
      pages++
    } while (cursor !== undefined)
    expect(pages).toBe(3)
    expect(names).toHaveLength(45)
    expect(new Set(names).size).toBe(45)
    expect(registry.requests.at(-1)?.url).toContain('version=latest')
  })

  it('fetches one version or the latest, with what the registry says of it', async () => {
    const client = createRegistryClient({ url: registry.url, headers })
    const latest = await client.getServer('io.github.modelcontextprotocol/everything')
    expect(latest.server.version).toBe('2026.8.31')
    expect(latest.official).toMatchObject({ status: 'active', isLatest: true })
    expect(registry.requests.at(-1)?.url).toBe(
      '/v0.1/servers/io.github.modelcontextprotocol%2Feverything/versions/latest',
    )
    const older = await client.getServer('io.github.modelcontextprotocol/everything', '2026.8.30')
    expect(older.official.isLatest).toBe(false)
    const versions = await client.listVersions('io.github.modelcontextprotocol/everything')
    expect(versions.servers.map((entry) => entry.server.version)).toEqual(['2026.8.30', '2026.8.31'])
  })

  it('revalidates with the ETag, and answers from the cache when the registry is unreachable', async () => {
    const cache = fileResponseCache(directory)
    const client = createRegistryClient({ url: registry.url, headers, cache })
    await client.getServer('io.github.acme/weather-py')
    await client.getServer('io.github.acme/weather-py')
    const last = registry.requests.at(-1)
    expect(last?.headers['if-none-match']).toMatch(/^"[0-9a-f]+"$/)
    registry.answer(false)
    try {
      const offline = await client.getServer('io.github.acme/weather-py')
      expect(offline).toMatchObject({ offline: true, server: { version: '0.3.1' } })
      await expect(client.getServer('io.github.acme/notes-remote')).rejects.toMatchObject({
        code: 'registry_unreachable',
      })
    } finally {
      registry.answer(true)
    }
  })

  it('says what is missing and what needs a token', async () => {
    const client = createRegistryClient({ url: registry.url, headers })
    await expect(client.getServer('io.github.acme/nothing')).rejects.toMatchObject({
      code: 'server_not_found',
    })
    const anonymous = createRegistryClient({ url: registry.url })
    await expect(anonymous.listServers()).rejects.toThrow(/answered 401 .*need a token/)
    expect(() => createRegistryClient({ url: 'ftp://x' })).toThrow(RegistryError)
    expect(() => createRegistryClient({ url: registry.url, headers: { 'Bad Header': 'x' } })).toThrow(
      /not a valid header/,
    )
  })

  it('leaves deleted entries out unless asked', async () => {
    const client = createRegistryClient({ url: registry.url, headers })
    const visible = await client.listServers({ search: 'acme/' })
    expect(visible.servers.map((entry) => entry.server.name)).not.toContain('io.github.acme/removed')
    const all = await client.listServers({ search: 'acme/', includeDeleted: true })
    const removed = all.servers.find((entry) => entry.server.name === 'io.github.acme/removed')
    expect(removed?.official).toMatchObject({
      status: 'deleted',
      statusMessage: 'removed for distributing malware',
    })
  })
})

describe('loadServerSchema', () => {
  it('fetches a schema once and keeps it', async () => {
    const cache = fileResponseCache(directory)
    const first = await loadServerSchema(registry.schemaUrl, { cache })
    expect(first).toMatchObject({ cached: false, schema: { $ref: '#/definitions/ServerDetail' } })
    const before = registry.requests.length
    const second = await loadServerSchema(registry.schemaUrl, { cache: fileResponseCache(directory) })
    expect(second.cached).toBe(true)
    expect(registry.requests.length).toBe(before)
  })
})
