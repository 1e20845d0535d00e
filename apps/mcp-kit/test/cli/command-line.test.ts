// @module-tag integration
// Any stdio server by its command line: `mcp-kit <command> [?query] [flags] -- <program> [args…]`,
// for every command that takes a server (serve aside), with the words after `--` reaching the
// server exactly as typed and hostile command lines refused as the launch schemes refuse them.

import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fixtureServers, npmServers } from '@mcp-kit/fixtures'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { binPath, type CliOptions, records, runCliAtHome } from '../helpers/helpers.js'

let base: string
let home: string
let work: string

function cli(args: string[], options: CliOptions = {}) {
  return runCliAtHome(home, work, args, options)
}

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'mcp-kit-command-line-'))
  home = join(base, 'home')
  work = join(base, 'work')
  mkdirSync(home)
  mkdirSync(join(work, '.git'), { recursive: true })
})

afterEach(() => rmSync(base, { recursive: true, force: true }))

const everything = ['node', npmServers.everything]

describe('-- <program> [args…] names a stdio server, for every command', () => {
  it('inspect -- node <server-everything>', async () => {
    const result = await cli(['inspect', '--', ...everything])
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    expect(result.stdout).toMatch(/^mcp-servers\/everything /)
    expect(result.stdout).toContain(`over stdio: node ${npmServers.everything}\n`)
    expect(result.stdout).toMatch(
      / {2}echo {2}Echoes back the input string\n {6}message {2}string {2}required/,
    )
    const json = JSON.parse((await cli(['inspect', '--format', 'json', '--', ...everything])).stdout)
    expect(json.reference).toBe(`-- node ${npmServers.everything}`)
  })

  it('cat: the operation from --tool or a ?query before --, arguments as key=value', async () => {
    const flags = await cli(['cat', '--tool', 'echo', 'message=hi there', '--', ...everything])
    expect(flags.code).toBe(0)
    expect(records(flags.stdout)).toEqual([{ type: 'text', text: 'Echo: hi there' }])

    const query = await cli(['cat', '?tool=get-sum&a=2', 'b=40', '--', ...everything])
    expect(query.code).toBe(0)
    expect(records(query.stdout)).toEqual([{ type: 'text', text: 'The sum of 2 and 40 is 42.' }])

    const invalid = await cli(['cat', '--tool', 'get-sum', 'a=two', '--', ...everything])
    expect(invalid.code).toBe(2)
    expect(invalid.stderr).toContain("invalid arguments for tool 'get-sum'")
  })

  it('head, tail: --list and --resource; a resource read takes no arguments', async () => {
    const head = await cli(['head', '-n', '2', '--list', 'resources', '--', ...everything])
    expect(head.code).toBe(0)
    expect(records(head.stdout)).toHaveLength(2)
    const read = await cli([
      'tail',
      '-n',
      '1',
      '--resource',
      'fixture://hello',
      '--',
      'node',
      fixtureServers.basic,
    ])
    expect(records(read.stdout)).toEqual([
      { uri: 'fixture://hello', mimeType: 'text/plain', text: 'hello world' },
    ])
    const refused = await cli([
      'cat',
      '--resource',
      'fixture://hello',
      'x=1',
      '--',
      'node',
      fixtureServers.basic,
    ])
    expect(refused.code).toBe(2)
  })

  it('put --tool: one call per input record', async () => {
    const result = await cli(['put', '--tool', 'echo', '--', ...everything], {
      input: '{"message":"one"}\n{"message":"two"}\n',
    })
    expect(result.code).toBe(0)
    expect(records(result.stdout)).toEqual([
      { type: 'text', text: 'Echo: one' },
      { type: 'text', text: 'Echo: two' },
    ])
  })

  it('watch -- <program>: the subscription starts, and lasts until --max-time', async () => {
    const result = await cli(['watch', '--max-time', '2', '--', 'node', binPath, 'serve', '--stdio'])
    expect(records(result.stdout)).toMatchObject([{ method: 'notifications/subscriptions/acknowledged' }])
    expect(result.stderr).toContain('the total time limit (--max-time) was reached')
    expect(result.code).toBe(4)
  })

  it('profile version -- <program> prints the hash inspect shows', async () => {
    const version = await cli(['profile', 'version', '--', ...everything])
    expect(version.code).toBe(0)
    const json = JSON.parse((await cli(['inspect', '--format', 'json', '--', ...everything])).stdout)
    expect(version.stdout.trim()).toBe(json.schemaHash)
  })

  it('the words after -- reach the server exactly as typed: no shell, no number parsing, our flags untouched', async () => {
    const argvFile = join(base, 'argv.json')
    const script = join(work, 'argv-server.mjs')
    writeFileSync(
      script,
      `import { writeFileSync } from 'node:fs'\nwriteFileSync(process.env.ARGV_FILE, JSON.stringify(process.argv.slice(2)))\nawait import(${JSON.stringify(fixtureServers.basic)})\n`,
    )
    const words = ['007', '--help', '-v', '$(id)', 'a b', '*', '', '--']
    const result = await cli([
      'cat',
      '--tool',
      'add',
      'a=1',
      'b=2',
      '--env',
      `ARGV_FILE=${argvFile}`,
      '--',
      'node',
      'argv-server.mjs',
      ...words,
    ])
    expect(result.stderr).toBe('')
    expect(records(result.stdout)).toEqual([{ sum: 3 }])
    expect(JSON.parse(readFileSync(argvFile, 'utf8'))).toEqual(words)
  })
})

describe('--save and profile create keep a command line as a profile', () => {
  it('inspect --save, then the profile works from another directory', async () => {
    writeFileSync(join(work, 'server.mjs'), `await import(${JSON.stringify(fixtureServers.basic)})\n`)
    const saved = await cli(['inspect', '--save', 'local', '--', 'node', 'server.mjs', '--paged'])
    expect(saved.code).toBe(0)
    expect(saved.stderr).toMatch(/^mcp-kit: saved profile @local \(\d+ tools, sha256:/)
    const meta = JSON.parse(
      readFileSync(join(home, '.config', 'mcp-kit', 'profiles', 'local', '_meta.json'), 'utf8'),
    )
    expect(meta).toMatchObject({ command: 'node', args: ['server.mjs', '--paged'], cwd: work })
    expect(meta.description).toBe('Created by mcp-kit from node server.mjs --paged')
    const used = await cli(['cat', '@local/add', 'a=2', 'b=3'], { cwd: home })
    expect(used.stderr).toBe('')
    expect(records(used.stdout)).toEqual([{ sum: 5 }])
  })

  it('profile create <name> -- <program>; --from and -- together are refused', async () => {
    const created = await cli(['profile', 'create', 'everything', '--', ...everything])
    expect(created.code).toBe(0)
    expect(created.stdout).toMatch(/^saved profile @everything \(\d+ tools/)
    const used = await cli(['cat', '@everything/echo', 'message=saved'])
    expect(records(used.stdout)).toEqual([{ type: 'text', text: 'Echo: saved' }])
    const both = await cli(['profile', 'create', 'x', '--from', '@demo', '--', ...everything])
    expect(both.code).toBe(2)
    expect(both.stderr).toContain('not both')
  })
})

describe('hostile command lines are refused before anything runs, as the schemes refuse them', () => {
  const hostile: Array<[string, string[]]> = [
    ['an option as the program', ['-e', 'process.exit(0)']],
    ['an option as the program (--require)', ['--require=./x.js']],
    ['a pipeline in one word', ['node server.js | tee log']],
    ['command substitution', ['$(touch marker)']],
    ['backticks', ['`touch marker`']],
    ['a sequence', ['node;touch', 'marker']],
    ['a newline in the program', ['node\ntouch']],
    ['a newline in an argument', ['node', 'server.js\n--eval']],
    ['an escape sequence in an argument', ['node', 'a\u001b[2Jb']],
    ['nothing after --', []],
  ]
  for (const command of ['inspect', 'cat', 'head', 'tail', 'put', 'watch', 'profile version']) {
    it(`${command}`, async () => {
      for (const [what, words] of hostile) {
        const result = await cli([...command.split(' '), '--', ...words])
        // Not refused, these would fail later: exit 3 (the program cannot start) or 0.
        expect({ what, code: result.code }).toEqual({ what, code: 2 })
        expect(result.stderr).toMatch(/^mcp-kit: [^\n]+\n$/)
        expect(result.stdout).toBe('')
      }
    })
  }

  it('profile create too, and no profile is written', async () => {
    const result = await cli(['profile', 'create', 'x', '--', '-e', '1'])
    expect(result.code).toBe(2)
    expect(existsSync(join(home, '.config', 'mcp-kit', 'profiles', 'x'))).toBe(false)
  })

  it('commands that take no server refuse a command line', async () => {
    const result = await cli(['profile', 'list', '--', 'node', 'x.js'])
    expect(result.code).toBe(2)
    expect(result.stderr).toContain("'mcp-kit profile list' takes no command line after --")
  })

  it('a reference and a command line together are refused; a ?query is not a reference', async () => {
    const both = await cli(['inspect', '@demo', '--', ...everything])
    expect(both.code).toBe(2)
    expect(both.stderr).toContain('"@demo" before --')
    const neither = await cli(['inspect'])
    expect(neither.code).toBe(2)
    expect(neither.stderr).toContain('-- followed by its command line')
  })
})
