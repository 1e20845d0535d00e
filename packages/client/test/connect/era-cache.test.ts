// @module-tag integration
// Where connect() remembers the era a server speaks: in memory unless told otherwise (a library
// writes nothing into its user's home unasked), in a file with fileEraCache().

import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, test } from 'vitest'
import { connect, fileEraCache } from '../../src/index.js'
import { defaultEraCachePath } from '../../src/internal.js'
import { fixture } from '../helpers/processes.js'

let directory: string
let before: string | undefined

beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'mcp-kit-era-cache-'))
  before = process.env.MCP_KIT_CACHE_DIR
  process.env.MCP_KIT_CACHE_DIR = directory
})

afterEach(() => {
  if (before === undefined) delete process.env.MCP_KIT_CACHE_DIR
  else process.env.MCP_KIT_CACHE_DIR = before
  rmSync(directory, { recursive: true, force: true })
})

/** Connects and closes, returning the diagnostics: they tell whether the server was probed. */
async function diagnosticsOf(
  server: ReturnType<typeof fixture>,
  options: Parameters<typeof connect>[1] = {},
): Promise<string[]> {
  const said: string[] = []
  const session = await connect(server, { ...options, onDiagnostic: (message) => said.push(message) })
  await session.close()
  return said
}

test('by default the verdict is kept in memory: no file is written, and the next connect skips the probe', async () => {
  // An argument of its own, so that no other test's verdict about the fixture counts.
  const server = fixture('basic', `--era-cache-test=${Date.now()}`)
  expect((await diagnosticsOf(server)).join('\n')).toMatch(/server\/discover/)
  expect(existsSync(defaultEraCachePath())).toBe(false)
  expect(readdirSync(directory)).toEqual([])
  expect((await diagnosticsOf(server)).join('\n')).not.toMatch(/server\/discover/)
})

test('fileEraCache() keeps it in the cache directory, for the next process too', async () => {
  const server = fixture('basic', `--era-cache-test=${Date.now()}`)
  await diagnosticsOf(server, { eraCache: fileEraCache() })
  const path = join(directory, 'eras.json')
  expect(defaultEraCachePath()).toBe(path)
  expect(Object.values(JSON.parse(readFileSync(path, 'utf8')))).toEqual([
    expect.objectContaining({ era: 'legacy' }),
  ])
  // A cache read afresh from the file (as another process would) knows it.
  expect((await diagnosticsOf(server, { eraCache: fileEraCache(path) })).join('\n')).not.toMatch(
    /server\/discover/,
  )
})
