// @module-tag integration
// Which of a registry entry's launches runs (--registry-choice: a kind, a type, or one by the
// number `registry show` gives it), and repeated arguments taking several values (--input given
// once per value, or a JSON list in --input-json), against the local registry fixture: a
// filesystem server from npm whose directories are a repeated argument, a docker image, and a
// remote served by `mcp-kit serve`.

import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type RegistryFixture, startRegistry } from '@mcp-kit/fixtures/registry-server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { records, runCliAtHome, startServe, stopStarted } from '../helpers/helpers.js'

let registry: RegistryFixture
let home: string
let cwd: string
let first: string
let second: string

beforeAll(async () => {
  registry = await startRegistry()
  home = mkdtempSync(join(tmpdir(), 'mcp-kit-registry-choices-home-'))
  cwd = realpathSync(mkdtempSync(join(tmpdir(), 'mcp-kit-registry-choices-cwd-')))
  first = join(cwd, 'first')
  second = join(cwd, 'second dir')
  mkdirSync(first)
  mkdirSync(second)
})

afterAll(async () => {
  await stopStarted()
  await registry.close()
  rmSync(home, { recursive: true, force: true })
  rmSync(cwd, { recursive: true, force: true })
})

const cli = (args: string[]) =>
  runCliAtHome(home, cwd, args, { env: { MCP_KIT_REGISTRY: registry.url }, timeoutMs: 120_000 })
const files = 'mcp+registry://io.github.acme/files'
// The filesystem server takes the client's roots over the directories of its command line, unless
// none of them exists: a root that does not, so that what it lists is its command line.
const noRoot = ['--root', '/nonexistent/mcp-kit-root']

describe('a repeated argument', () => {
  it('takes one value per --input, in order', async () => {
    const result = await cli([
      'cat',
      `${files}?tool=list_allowed_directories`,
      '--input',
      `directory=${first}`,
      '--input',
      `directory=${second}`,
      ...noRoot,
    ])
    expect(result.code, result.stderr).toBe(0)
    expect(records(result.stdout)).toEqual([{ content: `Allowed directories:\n${first}\n${second}` }])
  }, 150_000)

  it('takes a JSON list in --input-json, and a profile keeps every value', async () => {
    const result = await cli([
      'profile',
      'create',
      'files',
      '--from',
      files,
      '--input-json',
      JSON.stringify({ directory: [second, first] }),
    ])
    expect(result.code, result.stderr).toBe(0)
    const meta = JSON.parse(readFileSync(join(home, '.config/mcp-kit/profiles/files/_meta.json'), 'utf8'))
    expect(meta.args.slice(-2)).toEqual([second, first])
    expect(meta.registry.inputs).toEqual({ directory: [second, first] })
    const listed = await cli(['cat', '@files?tool=list_allowed_directories', ...noRoot])
    expect(records(listed.stdout)).toEqual([{ content: `Allowed directories:\n${second}\n${first}` }])
  }, 150_000)

  it('registry show says it is repeatable and shows each value', async () => {
    const result = await cli([
      'registry',
      'show',
      'io.github.acme/files',
      '--format',
      'text',
      '--input',
      'directory=/a',
      '--input',
      'directory=/b',
    ])
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toContain(
      'runs: npx -y --prefer-offline @modelcontextprotocol/server-filesystem@2026.8.31 /a /b',
    )
    expect(result.stdout).toContain('input directory (argument; required, repeatable)')
  })
})

describe('--registry-choice', () => {
  it('registry show numbers the launches, marks the default and the one chosen', async () => {
    const text = await cli(['registry', 'show', 'io.github.acme/files', '--format', 'text'])
    expect(text.code, text.stderr).toBe(0)
    expect(text.stdout).toContain(
      'Package npm @modelcontextprotocol/server-filesystem 2026.8.31 (--registry-choice package:1, the default)',
    )
    expect(text.stdout).toContain('Package oci ghcr.io/acme/files-mcp:1.0.0 (--registry-choice package:2)')
    expect(text.stdout).toContain('runs: docker run -i --rm ghcr.io/acme/files-mcp:1.0.0')
    expect(text.stdout).toContain(
      'Remote streamable-http http://127.0.0.1:{port}/mcp (--registry-choice remote:1)',
    )
    const json = await cli([
      'registry',
      'show',
      'io.github.acme/files',
      '--registry-choice',
      'oci',
      '--input',
      'volume=/data:/data',
    ])
    const launches = JSON.parse(json.stdout).launches as Array<Record<string, unknown>>
    expect(
      launches.map((launch) => [launch.choice, launch.default ?? false, launch.chosen ?? false]),
    ).toEqual([
      ['package:1', true, false],
      ['package:2', false, true],
      ['remote:1', false, false],
    ])
    expect(launches[1]?.command).toEqual([
      'docker',
      'run',
      '-i',
      '--rm',
      '--volume',
      '/data:/data',
      'ghcr.io/acme/files-mcp:1.0.0',
    ])
  })

  it('runs the remote instead of the package, and a profile keeps the choice', async () => {
    const serving = await startServe(['--port', '0'])
    const port = new URL(serving.url).port
    const result = await cli([
      'inspect',
      files,
      '--registry-choice',
      'remote',
      '--input',
      `port=${port}`,
      '--format',
      'json',
    ])
    expect(result.code, result.stderr).toBe(0)
    const document = JSON.parse(result.stdout)
    expect(document.launch).toBe(`http://127.0.0.1:${port}/mcp`)
    expect(document.registry).toMatchObject({ launch: 'remote streamable-http', choice: 'remote:1' })
    expect(document.tools.map((tool: { name: string }) => tool.name)).toContain('echo')
    const saved = await cli([
      'profile',
      'create',
      'files-remote',
      '--from',
      files,
      '--registry-choice',
      'remote:1',
      '--input',
      `port=${port}`,
    ])
    expect(saved.code, saved.stderr).toBe(0)
    const meta = JSON.parse(
      readFileSync(join(home, '.config/mcp-kit/profiles/files-remote/_meta.json'), 'utf8'),
    )
    expect(meta.url).toBe(`http://127.0.0.1:${port}/mcp`)
    expect(meta.registry).toMatchObject({ choice: 'remote:1', inputs: { port } })
    serving.child.kill('SIGTERM')
    await serving.exited
  }, 150_000)

  it('a choice that names nothing runnable, or nothing at all, is exit 2 with the reason', async () => {
    const none = await cli(['inspect', files, '--registry-choice', 'pypi'])
    expect(none.code).toBe(2)
    expect(none.stderr).toContain('has no package or remote of the kind "pypi" to run')
    const bad = await cli(['inspect', files, '--registry-choice', 'package:0'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('"package:0" is not a launch choice')
  })
})
