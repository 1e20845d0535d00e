import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  loadProfile,
  loadProfileDocument,
  ProfileError,
  type ProfileFileSystem,
  rewriteProfile,
  storedTools,
  writeProfile,
} from '../../src/index.js'
import { toolFileName } from '../../src/internal.js'
// Not exported: the file system profiles use unless given another.
import { nodeFileSystem } from '../../src/store/file-system.js'

let root: string
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'mcp-kit-write-'))
})
afterEach(async () => rm(root, { recursive: true, force: true }))

const document = {
  meta: { command: 'node', args: ['s.js'], schema_hash: 'sha256:1' },
  tools: { echo: { description: 'Echo', inputSchema: { type: 'object' } }, say: { tool: 'echo' } },
}

/** A file system that fails on the nth write, to prove nothing half-written is left. */
function failingOnWrite(n: number): ProfileFileSystem {
  let writes = 0
  return {
    ...nodeFileSystem,
    async writeFile(path, data) {
      writes++
      if (writes === n) throw new Error('disk full')
      return nodeFileSystem.writeFile(path, data)
    },
  }
}

describe('writeProfile', () => {
  it('writes _meta.json and one file per tool, readable by the loader', async () => {
    const location = await writeProfile('p', document, { root, scope: 'user' })
    expect(location).toMatchObject({ name: 'p', form: 'directory', path: join(root, 'profiles', 'p') })
    expect((await readdir(location.path)).sort()).toEqual(['_meta.json', 'echo.json', 'say.json'])
    const profile = await loadProfile('p', { env: { MCP_KIT_HOME: root }, homeDir: root, cwd: root })
    const loaded = await loadProfileDocument(profile)
    expect(loaded).toEqual(document)
    expect(storedTools(loaded.tools)).toEqual([
      { name: 'echo', description: 'Echo', inputSchema: { type: 'object' } },
    ])
  })

  it('refuses to replace without force; with force replaces a directory or single-file profile', async () => {
    await writeProfile('p', document, { root, scope: 'user' })
    await expect(writeProfile('p', document, { root, scope: 'user' })).rejects.toThrow(
      /already exists .*use --force/,
    )
    await writeFile(join(root, 'profiles', 'q.json'), '{"command":"x"}')
    await expect(writeProfile('q', document, { root, scope: 'user' })).rejects.toThrow(/already exists/)
    await writeProfile('q', document, { root, scope: 'user', force: true })
    expect(await readdir(join(root, 'profiles'))).toEqual(expect.arrayContaining(['p', 'q']))
    expect(await readdir(join(root, 'profiles'))).not.toContain('q.json')
  })

  it('a failed write leaves the old profile intact and no temporary files', async () => {
    await writeProfile('p', document, { root, scope: 'user' })
    const before = await readFile(join(root, 'profiles', 'p', '_meta.json'), 'utf8')
    const changed = { ...document, meta: { ...document.meta, schema_hash: 'sha256:2' } }
    await expect(
      writeProfile('p', changed, { root, scope: 'user', force: true, fs: failingOnWrite(2) }),
    ).rejects.toThrow(/cannot write profile 'p'.*disk full/)
    expect(await readFile(join(root, 'profiles', 'p', '_meta.json'), 'utf8')).toBe(before)
    expect(await readdir(join(root, 'profiles'))).toEqual(['p'])
    await expect(
      writeProfile('new', document, { root, scope: 'user', fs: failingOnWrite(1) }),
    ).rejects.toThrow(ProfileError)
    expect(await readdir(join(root, 'profiles'))).toEqual(['p'])
  })

  it('rewriteProfile keeps the single-file form, and refuses bundled profiles', async () => {
    await mkdir(join(root, 'profiles'), { recursive: true })
    await writeFile(join(root, 'profiles', 'one.json'), JSON.stringify({ command: 'node', tools: {} }))
    const profile = await loadProfile('one', { env: { MCP_KIT_HOME: root }, homeDir: root, cwd: root })
    await rewriteProfile(profile.location, document)
    expect(JSON.parse(await readFile(join(root, 'profiles', 'one.json'), 'utf8'))).toEqual({
      ...document.meta,
      tools: document.tools,
    })
    expect(await readdir(join(root, 'profiles'))).toEqual(['one.json'])
    await expect(rewriteProfile({ ...profile.location, scope: 'bundled' }, document)).rejects.toThrow(
      /bundled with mcp-kit and read-only/,
    )
  })

  it('refuses unsafe names before touching the disk', async () => {
    await expect(writeProfile('../x', document, { root, scope: 'user' })).rejects.toThrow(
      /invalid profile name/,
    )
    await expect(
      writeProfile('p', { ...document, tools: { '../t': {} } }, { root, scope: 'user' }),
    ).rejects.toThrow(/invalid tool name/)
    await expect(readdir(join(root, 'profiles'))).rejects.toThrow()
  })
})

describe('toolFileName', () => {
  it('uses the tool name when safe, else a sanitized unique one', () => {
    expect(toolFileName('search', new Set())).toBe('search')
    expect(toolFileName('search', new Set(['search']))).toBe('search-2')
    expect(toolFileName('get weather/now', new Set())).toBe('get_weather_now')
    expect(toolFileName('_meta', new Set())).toBe('meta')
    expect(toolFileName('..', new Set())).toBe('tool_')
  })
})
