// @module-tag integration
// The profile lifecycle through the CLI: explore → save → use → detect change → update, with a
// server whose tools change between runs, and imports of other clients' configs.

import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fixtureServers, npmServers } from '@mcp-kit/fixtures'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type CliOptions, records, runCliAtHome } from '../../helpers/helpers.js'

let base: string
let home: string
let project: string
let variantFile: string

function cli(args: string[], options: CliOptions = {}) {
  return runCliAtHome(home, project, args, options)
}

function setVariant(variant: string): void {
  writeFileSync(variantFile, variant)
}

const driftReference = () => `mcp+node://${fixtureServers.drift}?arg=${encodeURIComponent(variantFile)}`
const userProfiles = () => join(home, '.config', 'mcp-kit', 'profiles')

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'mcp-kit-profile-'))
  home = join(base, 'home')
  project = join(base, 'project')
  mkdirSync(home, { recursive: true })
  mkdirSync(join(project, '.git'), { recursive: true })
  variantFile = join(base, 'variant')
  setVariant('base')
})

afterEach(() => rmSync(base, { recursive: true, force: true }))

describe('profile create, list, info, version', () => {
  it('saves the launch spec, the tool schemas and the hash; list and info show it', async () => {
    const created = await cli(['profile', 'create', 'bio', '--from', driftReference()])
    expect(created.code).toBe(0)
    expect(created.stdout).toMatch(/^saved profile @bio \(2 tools, sha256:[0-9a-f]{64}\) in /)
    const meta = JSON.parse(readFileSync(join(userProfiles(), 'bio', '_meta.json'), 'utf8'))
    expect(meta).toMatchObject({
      command: 'node',
      args: [fixtureServers.drift, variantFile],
      schema_validation: 'warn',
    })
    expect(meta.schema_hash).toMatch(/^sha256:/)
    expect(readdirSync(join(userProfiles(), 'bio')).sort()).toEqual([
      '_meta.json',
      'lookup.json',
      'search.json',
    ])
    expect(
      JSON.parse(readFileSync(join(userProfiles(), 'bio', 'search.json'), 'utf8')).inputSchema.required,
    ).toEqual(['gene'])

    const list = await cli(['profile', 'list', '--format', 'json'])
    expect(JSON.parse(list.stdout)).toContainEqual(
      expect.objectContaining({
        name: 'bio',
        scope: 'user',
        transport: 'stdio',
        schemaHash: meta.schema_hash,
        path: join(userProfiles(), 'bio'),
      }),
    )
    expect((await cli(['profile', 'list'])).stdout).toMatch(
      /^NAME +SCOPE +TRANSPORT +HASH +PATH\nbio +user +stdio +sha256:/,
    )
    expect((await cli(['profile', 'info', '@bio'])).stdout).toMatch(/Tools \(2\)\n {2}lookup/)

    const version = await cli(['profile', 'version', '@bio'])
    expect(version.stdout.trim()).toBe(meta.schema_hash)
    const inspect = JSON.parse((await cli(['inspect', driftReference(), '--format', 'json'])).stdout)
    expect(inspect.schemaHash).toBe(meta.schema_hash)
  })

  it('--project writes to ./.mcp-kit; an existing profile is not replaced without --force', async () => {
    expect((await cli(['profile', 'create', 'bio', '--from', driftReference(), '--project'])).code).toBe(0)
    expect(readdirSync(join(project, '.mcp-kit', 'profiles', 'bio'))).toContain('_meta.json')
    const again = await cli(['profile', 'create', 'bio', '--from', driftReference(), '--project'])
    expect(again.code).toBe(2)
    expect(again.stderr).toBe(
      `mcp-kit: profile 'bio' already exists at ${join(project, '.mcp-kit', 'profiles', 'bio')}; use --force to replace it\n`,
    )
    expect(
      (await cli(['profile', 'create', 'bio', '--from', driftReference(), '--project', '--force'])).code,
    ).toBe(0)
  })

  it('secrets become ${NAME} placeholders, never values', async () => {
    const created = await cli([
      'profile',
      'create',
      'secret',
      '--from',
      `${driftReference()}&env.API_KEY=sk-live-123`,
      '--env',
      'OTHER_TOKEN=tok-456',
      '--pass-env',
      'AWS_*',
    ])
    expect(created.code).toBe(0)
    expect(created.stdout).toContain(
      'secrets are not stored: wrote env API_KEY as ${API_KEY}, env OTHER_TOKEN as ${OTHER_TOKEN}',
    )
    expect(created.stdout).toContain('--pass-env AWS_* is not saved')
    const files = readdirSync(join(userProfiles(), 'secret')).map((file) =>
      readFileSync(join(userProfiles(), 'secret', file), 'utf8'),
    )
    expect(files.join('\n')).not.toMatch(/sk-live-123|tok-456/)
    expect(JSON.parse(readFileSync(join(userProfiles(), 'secret', '_meta.json'), 'utf8')).env).toEqual({
      API_KEY: '${API_KEY}',
      OTHER_TOKEN: '${OTHER_TOKEN}',
    })
    const unset = await cli(['cat', '@secret/lookup', 'id=1'])
    expect(unset.code).toBe(2)
    expect(unset.stderr).toBe(
      `mcp-kit: environment variable API_KEY is not set (used in ${join(userProfiles(), 'secret', '_meta.json')} at env.API_KEY); set it, or give a default as \${API_KEY:-value}\n`,
    )
    expect(
      (await cli(['cat', '@secret/lookup', 'id=1'], { env: { API_KEY: 'a', OTHER_TOKEN: 'b' } })).code,
    ).toBe(0)
  })

  it('--save on inspect and cat turns the naked reference into a profile', async () => {
    const inspected = await cli(['inspect', driftReference(), '--format', 'json', '--save', 'fromInspect'])
    expect(inspected.code).toBe(0)
    expect(JSON.parse(inspected.stdout).tools).toHaveLength(2) // stdout stays the document
    expect(inspected.stderr).toMatch(/^mcp-kit: saved profile @fromInspect \(2 tools/)
    const catted = await cli(['cat', `${driftReference()}&tool=lookup&id=7`, '--save', 'fromCat'])
    expect(records(catted.stdout)).toEqual([{ variant: 'base', id: 7 }])
    expect(catted.stderr).toMatch(/^mcp-kit: saved profile @fromCat/)
    expect(records((await cli(['cat', '@fromCat/lookup', 'id=8'])).stdout)).toEqual([
      { variant: 'base', id: 8 },
    ])
  })
})

describe('schema drift', () => {
  beforeEach(async () => {
    expect((await cli(['profile', 'create', 'bio', '--from', driftReference()])).code).toBe(0)
  })

  it.each([
    [
      'renamed',
      5,
      [
        {
          class: 'breaking',
          kind: 'parameter_renamed',
          tool: 'search',
          parameter: 'gene',
          renamedTo: 'query',
        },
      ],
    ],
    [
      'required',
      5,
      [{ class: 'breaking', kind: 'parameter_made_required', tool: 'search', parameter: 'disease' }],
    ],
    ['retyped', 5, [{ class: 'breaking', kind: 'parameter_type_changed', tool: 'lookup', parameter: 'id' }]],
    ['added', 0, [{ class: 'non-breaking', kind: 'tool_added', tool: 'summarize' }]],
    [
      'described',
      0,
      [
        { class: 'non-breaking', kind: 'description_changed', tool: 'search' },
        { class: 'non-breaking', kind: 'description_changed', tool: 'search', parameter: 'gene' },
      ],
    ],
  ])('%s: diff classes and exit codes of validate and diff', async (variant, exitCode, changes) => {
    setVariant(variant as string)
    const diff = await cli(['profile', 'diff', '@bio', '--format', 'json'])
    expect(diff.code).toBe(exitCode)
    const document = JSON.parse(diff.stdout)
    expect(document.changes).toEqual((changes as object[]).map((change) => expect.objectContaining(change)))
    expect(document.changes.length).toBe((changes as object[]).length)
    expect((await cli(['profile', 'validate', '@bio'])).code).toBe(exitCode)
    expect((await cli(['profile', 'validate', '@bio', '--strict'])).code).toBe(5)
    const text = await cli(['profile', 'diff', '@bio'])
    expect(text.stdout.split('\n')[0]).toMatch(
      new RegExp(`^${(changes as Array<{ class: string }>)[0]?.class} +tool '`),
    )
  })

  it('unchanged: validate passes, diff says no changes', async () => {
    expect((await cli(['profile', 'validate', '@bio'])).stdout).toMatch(/the live tools match the profile/)
    expect((await cli(['profile', 'diff', '@bio'])).stdout).toBe('no changes\n')
  })

  it('on use, policy warn: one warning naming the breaking change, then the call goes on', async () => {
    setVariant('retyped')
    const result = await cli(['cat', '@bio/search', 'gene=BRAF'])
    expect(result.code).toBe(0)
    expect(records(result.stdout)).toEqual([{ variant: 'retyped', args: { gene: 'BRAF' } }])
    expect(result.stderr.match(/warning/g)).toHaveLength(1)
    expect(result.stderr).toContain("breaking: tool 'lookup': parameter 'id' changed type")
  })

  it('on use, policy error: exit 5 before any call; policy ignore: silence', async () => {
    const metaPath = join(userProfiles(), 'bio', '_meta.json')
    const meta = JSON.parse(readFileSync(metaPath, 'utf8'))
    writeFileSync(metaPath, JSON.stringify({ ...meta, schema_validation: 'error' }))
    setVariant('renamed')
    const trace = join(base, 'trace.ndjson')
    const stopped = await cli(['cat', '@bio/lookup', 'id=1', '--trace', trace])
    expect(stopped.code).toBe(5)
    expect(stopped.stderr).toMatch(/possibly renamed[\s\S]*schema_validation is 'error'.*nothing was called/)
    expect(() => readFileSync(trace)).toThrow()
    const put = await cli(['put', '@bio/lookup'], { input: '{"id": 1}\n' })
    expect(put.code).toBe(5)
    expect(put.stdout).toBe('')
    writeFileSync(metaPath, JSON.stringify({ ...meta, schema_validation: 'ignore' }))
    const ignored = await cli(['cat', '@bio/lookup', 'id=1'])
    expect(ignored.code).toBe(0)
    expect(ignored.stderr).toBe('')
  })

  it('update shows the diff, rewrites schemas and hash, and keeps what the user wrote', async () => {
    const toolPath = join(userProfiles(), 'bio', 'search.json')
    writeFileSync(
      toolPath,
      JSON.stringify({
        ...JSON.parse(readFileSync(toolPath, 'utf8')),
        defaults: { disease: 'melanoma' },
        notes: 'mine',
      }),
    )
    setVariant('renamed')
    const refused = await cli(['profile', 'update', '@bio'])
    expect(refused.code).toBe(2)
    expect(refused.stderr).toMatch(/without confirmation: run it on a terminal, or add --yes/)
    const updated = await cli(['profile', 'update', '@bio', '--yes'])
    expect(updated.code).toBe(0)
    expect(updated.stdout).toMatch(
      /changes to accept:\n {2}breaking: tool 'search': parameter 'gene' was removed[\s\S]*updated @bio: 2 tools, sha256:/,
    )
    const entry = JSON.parse(readFileSync(toolPath, 'utf8'))
    expect(entry).toMatchObject({
      defaults: { disease: 'melanoma' },
      notes: 'mine',
      inputSchema: { required: ['query'] },
    })
    expect((await cli(['profile', 'validate', '@bio'])).code).toBe(0)
    // Defaults fill in, the call's own arguments override them.
    expect(records((await cli(['cat', '@bio/search', 'query=BRAF'])).stdout)).toEqual([
      { variant: 'renamed', args: { disease: 'melanoma', query: 'BRAF' } },
    ])
    expect(records((await cli(['cat', '@bio/search', 'query=BRAF', 'disease=glioma'])).stdout)).toEqual([
      { variant: 'renamed', args: { disease: 'glioma', query: 'BRAF' } },
    ])
  })
})

describe('profiles that are wrong', () => {
  it('corrupt JSON: exit 2 naming the file and position', async () => {
    mkdirSync(join(userProfiles(), 'broken'), { recursive: true })
    writeFileSync(join(userProfiles(), 'broken', '_meta.json'), '{"command": "node",,}')
    const result = await cli(['inspect', '@broken'])
    expect(result.code).toBe(2)
    expect(result.stderr).toBe(
      `mcp-kit: invalid JSON in ${join(userProfiles(), 'broken', '_meta.json')}:1:20: unexpected ","\n`,
    )
  })

  it('names with path characters: exit 2', async () => {
    for (const args of [
      ['profile', 'create', '../evil', '--from', driftReference()],
      ['profile', 'info', '@a/../b'],
      ['inspect', '@..%2Fx'],
    ]) {
      const result = await cli(args)
      expect(result.code, args.join(' ')).toBe(2)
      expect(result.stderr).toMatch(/^mcp-kit: [^\n]+\n$/)
    }
    expect(() => readdirSync(join(home, '.config'))).toThrow()
  })

  it('a command that does not exist: exit 3 naming the command and the profile file', async () => {
    mkdirSync(userProfiles(), { recursive: true })
    writeFileSync(
      join(userProfiles(), 'ghost.json'),
      JSON.stringify({ command: 'mcp-kit-no-such-server', args: [] }),
    )
    const result = await cli(['inspect', '@ghost'])
    expect(result.code).toBe(3)
    expect(result.stderr).toBe(
      `mcp-kit: cannot launch 'mcp-kit-no-such-server': command not found (profile @ghost: ${join(userProfiles(), 'ghost.json')})\n`,
    )
  })
})

describe('profile import', () => {
  it('a Claude Desktop config with server-memory: state carries across calls', async () => {
    const configDir = join(home, '.config', 'Claude')
    mkdirSync(configDir, { recursive: true })
    const memoryFile = join(base, 'memory.jsonl')
    const config = join(configDir, 'claude_desktop_config.json')
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: {
          memory: {
            command: process.execPath,
            args: [npmServers.memory],
            env: { MEMORY_FILE_PATH: memoryFile },
          },
          'weather api': { url: 'https://weather.example.com/mcp', headers: { Authorization: 'Bearer x' } },
          broken: { args: ['x'] },
        },
      }),
    )
    const imported = await cli(['profile', 'import', config])
    expect(imported.code).toBe(0)
    expect(imported.stdout).toBe(`imported @memory, @weather-api into ${join(home, '.config', 'mcp-kit')}\n`)
    expect(imported.stderr).toMatch(/skipped broken in .*neither a 'command' nor a 'url'/)
    // env values kept as given
    expect(JSON.parse(readFileSync(join(userProfiles(), 'memory', '_meta.json'), 'utf8')).env).toEqual({
      MEMORY_FILE_PATH: memoryFile,
    })
    const created = await cli([
      'cat',
      '@memory/create_entities',
      '--args',
      JSON.stringify({
        entities: [{ name: 'Ada', entityType: 'person', observations: ['wrote the first program'] }],
      }),
    ])
    expect(created.code).toBe(0)
    const graph = await cli(['cat', '@memory/read_graph'])
    expect(graph.code).toBe(0)
    expect(graph.stdout).toContain('wrote the first program')
  })

  it('a VS Code mcp.json (servers, comments), --only, and --discover', async () => {
    const vscode = join(project, '.vscode')
    mkdirSync(vscode, { recursive: true })
    writeFileSync(
      join(vscode, 'mcp.json'),
      `{
        // VS Code allows comments
        "servers": {
          "everything": { "type": "stdio", "command": "node", "args": ["${npmServers.everything}"] },
          "remote": { "type": "http", "url": "http://127.0.0.1:1/mcp" },
        },
      }`,
    )
    const only = await cli(['profile', 'import', join(vscode, 'mcp.json'), '--only', 'remote'])
    expect(only.stdout).toBe(`imported @remote into ${join(home, '.config', 'mcp-kit')}\n`)
    expect(JSON.parse(readFileSync(join(userProfiles(), 'remote', '_meta.json'), 'utf8'))).toMatchObject({
      url: 'http://127.0.0.1:1/mcp',
    })
    const discovered = await cli(['profile', 'import', '--discover', '--project'])
    expect(discovered.code).toBe(0)
    expect(discovered.stdout).toBe(`imported @everything, @remote into ${join(project, '.mcp-kit')}\n`)
    const missing = await cli(['profile', 'import', join(vscode, 'mcp.json'), '--only', 'nope'])
    expect(missing.code).toBe(2)
  })

  it('a file that is not a config: exit 2 naming it', async () => {
    const notConfig = join(base, 'package.json')
    writeFileSync(notConfig, JSON.stringify({ name: 'x', dependencies: {} }))
    const result = await cli(['profile', 'import', notConfig])
    expect(result.code).toBe(2)
    expect(result.stderr).toBe(
      `mcp-kit: ${notConfig} is not an MCP client config: it has no 'mcpServers' or 'servers' map\n`,
    )
    const corrupt = join(base, 'corrupt.json')
    writeFileSync(corrupt, '{"mcpServers": {')
    const bad = await cli(['profile', 'import', corrupt])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toMatch(
      new RegExp(`^mcp-kit: ${corrupt.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:1:\\d+: not valid JSON`),
    )
  })
})
