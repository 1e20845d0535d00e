import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { listProfiles, loadProfile, ProfileError, profileRoots, resolveReference } from '../../src/index.js'

let base: string
let home: string
let project: string

async function write(path: string, content: unknown): Promise<void> {
  await mkdir(join(path, '..'), { recursive: true })
  await writeFile(path, typeof content === 'string' ? content : JSON.stringify(content, null, 2))
}

async function failure(promise: Promise<unknown>): Promise<ProfileError> {
  try {
    await promise
  } catch (error) {
    if (ProfileError.isInstance(error)) return error
    throw error
  }
  throw new Error('expected a ProfileError')
}

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'mcp-kit-profiles-'))
  home = join(base, 'home')
  project = join(base, 'work', 'repo')
  await mkdir(join(project, '.git'), { recursive: true })
  await mkdir(join(project, 'sub', 'dir'), { recursive: true })
})

afterEach(async () => {
  await rm(base, { recursive: true, force: true })
})

function options(extra: Record<string, unknown> = {}) {
  return {
    cwd: join(project, 'sub', 'dir'),
    homeDir: home,
    env: { HOME: home, TOKEN: 't0k', ...(extra.env as object) },
    ...extra,
  }
}

describe('directory form', () => {
  beforeEach(async () => {
    const dir = join(home, '.config', 'mcp-kit', 'profiles', 'biomcp')
    await write(join(dir, '_meta.json'), {
      command: 'uv',
      args: ['run', '--with', 'biomcp-python', 'biomcp', 'run'],
      env: { API_TOKEN: '${TOKEN}', REGION: '${REGION:-eu}' },
      schema_hash: 'sha256:abc',
      schema_validation: 'error',
    })
    await write(join(dir, 'search.json'), { description: 'Search', defaults: { limit: 5, gene: 'TP53' } })
    await write(join(dir, 'say.json'), { tool: 'echo', inputSchema: { description: 'keeps ${NOT_A_VAR}' } })
  })

  it('merges _meta.json with <tool>.json, defaults and substitution', async () => {
    const resolved = await resolveReference('@biomcp/search?gene=BRAF', options())
    expect(resolved.server).toEqual({
      transport: 'stdio',
      command: 'uv',
      args: ['run', '--with', 'biomcp-python', 'biomcp', 'run'],
      env: { API_TOKEN: 't0k', REGION: 'eu' },
    })
    expect(resolved.operation).toEqual({
      kind: 'callTool',
      name: 'search',
      args: { gene: 'BRAF' },
      defaults: { limit: 5, gene: 'TP53' },
    })
    expect(resolved.profile).toMatchObject({
      schemaHash: 'sha256:abc',
      schemaValidation: 'error',
      toolFilter: null,
    })
    expect(resolved.profile?.location).toMatchObject({ scope: 'user', form: 'directory', name: 'biomcp' })
  })

  it('concurrency: absent unless the profile says how many calls its server takes', async () => {
    expect((await resolveReference('@biomcp', options())).profile).not.toHaveProperty('concurrency')
    const meta = join(home, '.config', 'mcp-kit', 'profiles', 'biomcp', '_meta.json')
    await write(meta, { command: 'uv', concurrency: 8 })
    expect((await resolveReference('@biomcp', options())).profile?.concurrency).toBe(8)
  })

  it('aliases a profile tool to the server tool it names', async () => {
    const resolved = await resolveReference('@biomcp/say?message=hi', options())
    expect(resolved.operation).toEqual({ kind: 'callTool', name: 'echo', args: { message: 'hi' } })
    // Stored schemas are not substituted.
    expect(resolved.profile?.tool?.entry.inputSchema).toEqual({ description: 'keeps ${NOT_A_VAR}' })
  })

  it('calls tools the profile has no file for by their own name', async () => {
    const resolved = await resolveReference('@biomcp/other?x=1', options())
    expect(resolved.operation).toEqual({ kind: 'callTool', name: 'other', args: { x: '1' } })
  })

  it('a missing variable names the variable and the file', async () => {
    const error = await failure(resolveReference('@biomcp', { ...options(), env: { HOME: home } }))
    expect(error.code).toBe('missing_env')
    expect(error.message).toContain('TOKEN')
    expect(error.message).toContain(join(home, '.config', 'mcp-kit', 'profiles', 'biomcp', '_meta.json'))
    expect(error.message).toContain('env.API_TOKEN')
  })

  it("keeps a registry profile's record as written: its answers are data, not launch settings", async () => {
    const meta = join(home, '.config', 'mcp-kit', 'profiles', 'biomcp', '_meta.json')
    const registry = {
      url: 'https://registry.example',
      name: 'io.github.acme/bio',
      version: '1.0.0',
      inputs: { API_TOKEN: '${secret:biomcp/env/API_TOKEN}', city: '${NOT_SET}' },
    }
    await write(meta, { command: 'uv', registry })
    const resolved = await resolveReference('@biomcp', { ...options(), secretsPath: join(base, 'none.json') })
    expect(resolved.profile?.meta.registry).toEqual(registry)
  })

  it('query env.* and arg= add to the profile launch', async () => {
    const resolved = await resolveReference('@biomcp?env.EXTRA=1&arg=--fast', options())
    expect(resolved.server).toMatchObject({
      args: ['run', '--with', 'biomcp-python', 'biomcp', 'run', '--fast'],
      env: { EXTRA: '1', API_TOKEN: 't0k' },
    })
  })
})

describe('single-file form', () => {
  it('reads meta and tools from one file', async () => {
    await write(join(home, '.config', 'mcp-kit', 'profiles', 'remote.json'), {
      url: 'https://mcp.example.com/mcp',
      headers: { Authorization: 'Bearer ${TOKEN}' },
      tool_filter: ['lookup'],
      tools: { find: { tool: 'lookup', defaults: { n: 1 } } },
    })
    const resolved = await resolveReference('@remote/find?q=x', options())
    expect(resolved.server).toEqual({
      transport: 'http',
      url: 'https://mcp.example.com/mcp',
      headers: { Authorization: 'Bearer t0k' },
    })
    expect(resolved.operation).toEqual({
      kind: 'callTool',
      name: 'lookup',
      args: { q: 'x' },
      defaults: { n: 1 },
    })
    expect(resolved.profile?.toolFilter).toEqual(['lookup'])
    expect(resolved.profile?.location.form).toBe('file')
  })

  it('reads concurrency from the single file', async () => {
    await write(join(home, '.config', 'mcp-kit', 'profiles', 'fast.json'), {
      command: 'node',
      concurrency: 16,
    })
    expect((await loadProfile('fast', options())).concurrency).toBe(16)
  })
})

describe('search order', () => {
  const meta = (marker: string) => ({ command: 'node', args: [marker] })

  it('env root, then nearest project .mcp-kit, then user, then bundled', async () => {
    const bundled = join(base, 'bundled')
    await write(join(bundled, 'profiles', 'p.json'), meta('bundled'))
    await write(join(home, '.config', 'mcp-kit', 'profiles', 'p.json'), meta('user'))
    await write(join(project, '.mcp-kit', 'profiles', 'p.json'), meta('project'))
    await write(join(project, 'sub', '.mcp-kit', 'profiles', 'p', '_meta.json'), meta('nearer-project'))
    await write(join(base, 'envhome', 'profiles', 'p.json'), meta('env'))
    const at = async (extra: Record<string, unknown>) =>
      (await resolveReference('@p', options({ bundledDirs: [bundled], ...extra }))).server

    expect(await at({ env: { MCP_KIT_HOME: join(base, 'envhome') } })).toMatchObject({ args: ['env'] })
    expect(await at({})).toMatchObject({ args: ['nearer-project'] })
    expect(await at({ cwd: project })).toMatchObject({ args: ['project'] })
    expect(await at({ cwd: base })).toMatchObject({ args: ['user'] })
    await rm(join(home, '.config', 'mcp-kit', 'profiles', 'p.json'))
    expect(await at({ cwd: base })).toMatchObject({ args: ['bundled'] })
  })

  it('the project walk stops at the repository root', async () => {
    await write(join(base, 'work', '.mcp-kit', 'profiles', 'outside.json'), meta('outside'))
    const roots = await profileRoots(options())
    expect(roots.map((root) => root.dir)).not.toContain(join(base, 'work', '.mcp-kit'))
    expect((await failure(resolveReference('@outside', options()))).code).toBe('profile_not_found')
  })

  it('XDG_CONFIG_HOME moves the user root', async () => {
    await write(join(base, 'xdg', 'mcp-kit', 'profiles', 'x.json'), meta('xdg'))
    const resolved = await resolveReference('@x', options({ env: { XDG_CONFIG_HOME: join(base, 'xdg') } }))
    expect(resolved.server).toMatchObject({ args: ['xdg'] })
  })

  it('listProfiles lists every root and marks hidden duplicates', async () => {
    await write(join(home, '.config', 'mcp-kit', 'profiles', 'a.json'), meta('user'))
    await write(join(project, '.mcp-kit', 'profiles', 'a', '_meta.json'), meta('project'))
    await write(join(home, '.config', 'mcp-kit', 'profiles', 'b.json'), meta('user'))
    await write(join(home, '.config', 'mcp-kit', 'profiles', 'not a name.json'), meta('x'))
    const listed = await listProfiles(options())
    expect(listed.map(({ name, scope, form, active }) => ({ name, scope, form, active }))).toEqual([
      { name: 'a', scope: 'project', form: 'directory', active: true },
      { name: 'a', scope: 'user', form: 'file', active: false },
      { name: 'b', scope: 'user', form: 'file', active: true },
    ])
  })
})

describe('bad profiles', () => {
  it('unknown profile lists the places searched', async () => {
    const error = await failure(resolveReference('@nope', options()))
    expect(error.code).toBe('profile_not_found')
    expect(error.message).toContain("profile 'nope' not found; looked in:")
    expect(error.message).toContain(join(home, '.config', 'mcp-kit', 'profiles'))
  })

  it('invalid JSON names the file, line and column', async () => {
    const file = join(home, '.config', 'mcp-kit', 'profiles', 'broken', '_meta.json')
    await write(file, '{\n  "command": "node",\n  "args": [1,]\n}')
    const error = await failure(resolveReference('@broken', options()))
    expect(error.code).toBe('profile_invalid')
    expect(error.message).toMatch(
      new RegExp(`^invalid JSON in ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:3:14: `),
    )
  })

  it('invalid JSON in a tool file', async () => {
    const dir = join(home, '.config', 'mcp-kit', 'profiles', 'p')
    await write(join(dir, '_meta.json'), { command: 'node' })
    await write(join(dir, 't.json'), '{"tool": ')
    const error = await failure(resolveReference('@p/t', options()))
    expect(error.code).toBe('profile_invalid')
    expect(error.message).toContain(join(dir, 't.json'))
  })

  it.each([
    [{ args: ['x'] }, /needs a 'command' \(stdio\) or a 'url' \(HTTP\)/],
    [{ command: 'node', args: 'x' }, /'args' must be a list of strings/],
    [{ command: 'node', env: { A: 1 } }, /'env' must be an object of strings/],
    [{ url: 'ftp://x' }, /'url' must be http:\/\/ or https:\/\//],
    [
      { command: 'node', schema_validation: 'loud' },
      /'schema_validation' must be one of warn, error, ignore/,
    ],
    [{ command: 'node', concurrency: 0 }, /'concurrency' must be a whole number from 1 to 1024/],
    [{ command: 'node', concurrency: 2.5 }, /'concurrency' must be a whole number from 1 to 1024/],
    [{ command: 'node', concurrency: '4' }, /'concurrency' must be a whole number from 1 to 1024/],
    [{ command: 'node', concurrency: 1025 }, /'concurrency' must be a whole number from 1 to 1024/],
    [[1, 2], /a profile must be a JSON object/],
  ])('rejects %j', async (content, message) => {
    await write(join(home, '.config', 'mcp-kit', 'profiles', 'bad.json'), content)
    const error = await failure(loadProfile('bad', options()))
    expect(error.code).toBe('profile_invalid')
    expect(error.message).toMatch(message)
  })

  it('a directory without _meta.json is reported', async () => {
    await mkdir(join(home, '.config', 'mcp-kit', 'profiles', 'empty'), { recursive: true })
    expect((await failure(resolveReference('@empty', options()))).message).toMatch(/has no _meta\.json/)
  })

  it('names are checked before any path is built', async () => {
    for (const name of ['..', '../x', 'a\\b', '/etc/passwd', 'a\0b', '.git']) {
      expect((await failure(loadProfile(name, options()))).code, name).toBe('invalid_reference')
    }
  })
})

describe('naked script references', () => {
  it('checks the script exists, relative to cwd', async () => {
    await write(join(project, 'sub', 'dir', 'server.js'), '')
    await expect(resolveReference('mcp+node://./server.js', options())).resolves.toMatchObject({
      server: { command: 'node', args: ['./server.js'] },
    })
    const error = await failure(resolveReference('mcp+node://./$(touch x).js', options()))
    expect(error.code).toBe('invalid_reference')
    expect(error.message).toBe('mcp+node: no such file: ./$(touch x).js')
  })
})
