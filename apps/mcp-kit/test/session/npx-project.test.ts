// @module-tag integration
// npx servers started inside a project laid out as pnpm lays one out: a workspace package whose
// node_modules links a server into the store, no command for it in the root's node_modules/.bin.
// npx alone finds that copy and fails ("sh: 1: mcp-server-filesystem: not found", exit 127);
// mcp-kit starts npx with an empty --prefix, so the package comes from npm's cache, and the
// server still runs in the directory the command was given (its "." is the project).

import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { records, runCliAtHome } from '../helpers/helpers.js'

const fixtures = createRequire(new URL('../../../../tooling/fixtures/package.json', import.meta.url))
const filesystemPackage = dirname(
  realpathSync(fixtures.resolve('@modelcontextprotocol/server-filesystem/package.json')),
)
const version = (fixtures('@modelcontextprotocol/server-filesystem/package.json') as { version: string })
  .version
let project: string
let home: string

beforeAll(() => {
  project = realpathSync(mkdtempSync(join(tmpdir(), 'mcp-kit-npx-project-')))
  home = mkdtempSync(join(tmpdir(), 'mcp-kit-npx-home-'))
  writeFileSync(join(project, 'package.json'), '{ "name": "project", "private": true }\n')
  const app = join(project, 'packages', 'app')
  mkdirSync(join(app, 'node_modules', '@modelcontextprotocol'), { recursive: true })
  writeFileSync(join(app, 'package.json'), '{ "name": "app", "private": true }\n')
  symlinkSync(filesystemPackage, join(app, 'node_modules', '@modelcontextprotocol', 'server-filesystem'))
  mkdirSync(join(project, 'node_modules'))
  symlinkSync(join('..', 'packages', 'app'), join(project, 'node_modules', 'app'))
})

afterAll(() => {
  rmSync(project, { recursive: true, force: true })
  rmSync(home, { recursive: true, force: true })
})

const cli = (args: string[]) => runCliAtHome(home, project, args, { timeoutMs: 120_000 })
// The filesystem server takes the client's roots (the working directory) over the directories of
// its command line, unless none of them exists: then what it lists is its "." resolved.
const noRoot = ['--root', '/nonexistent/mcp-kit-root']
// An mcp+npx:// reference runs `npx -y` without --prefer-offline, so npx asks the registry about the
// package first: on a loaded CI machine that took longer than the default 30 s to connect.
const patient = ['--connect-timeout', '120']

describe('npx inside a pnpm-style project', () => {
  it('runs a command line with npx from npm’s cache, in the project directory', async () => {
    const result = await cli([
      'cat',
      '?tool=list_allowed_directories',
      ...noRoot,
      ...patient,
      '--',
      'npx',
      '-y',
      '--prefer-offline',
      `@modelcontextprotocol/server-filesystem@${version}`,
      '.',
    ])
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    expect(records(result.stdout)).toEqual([{ content: `Allowed directories:\n${project}` }])
  }, 150_000)

  it('runs an mcp+npx:// reference there too, and says so with --verbose', async () => {
    const result = await cli([
      'cat',
      `mcp+npx://@modelcontextprotocol/server-filesystem@${version}?tool=list_allowed_directories&arg=.`,
      '--verbose',
      ...noRoot,
      ...patient,
    ])
    expect(result.code, result.stderr).toBe(0)
    expect(records(result.stdout)).toEqual([{ content: `Allowed directories:\n${project}` }])
    expect(result.stderr).toContain('npx gets --prefix ')
    expect(result.stderr).toContain("the package comes from npm's cache")
  }, 150_000)
})
