// @module-tag integration
// A hostile server's strings through the built CLI: on a real pseudo-terminal (`script`), no ESC
// and no C1 control, bidi control or invisible format character from the server reaches the terminal — in inspect, cat's
// error messages and tool error texts, --verbose stderr, warnings and the status line — while
// JSON and NDJSON output on a pipe keeps the server's strings byte for byte.

import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { hostile, shown } from '../fixtures/hostile-strings.js'
import { binPath, records, runCli } from '../helpers/helpers.js'

const serverPath = fileURLToPath(new URL('../fixtures/hostile-server.js', import.meta.url))
const server = `mcp+node://${serverPath}`
const scratch = mkdtempSync(join(tmpdir(), 'mcp-kit-hostile-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

const quote = (word: string) => `'${word.replaceAll("'", "'\\''")}'`

/** Runs the CLI on a pseudo-terminal (stdout and stderr both the terminal) and returns what it showed. */
function onTerminal(
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; screen: string }> {
  const command = `stty cols 200; ${[process.execPath, binPath, ...args].map(quote).join(' ')}`
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qec', command, '/dev/null'], {
      // Colour on (NO_COLOR empty): our own SGR sequences must be the only ones on the screen.
      env: { ...process.env, NO_COLOR: '', TERM: 'xterm-256color', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let screen = ''
    child.stdout.setEncoding('utf8').on('data', (text: string) => (screen += text))
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000)
    child.on('error', reject)
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({ code, screen })
    })
  })
}

/** The escape sequences mcp-kit itself writes: colours and the status line's erase-line. */
const ours = /\u001b\[(?:1|2|22|36|39)m|\r\u001b\[2K/g

function expectNothingLive(screen: string): void {
  const theirs = screen.replace(ours, '')
  expect(theirs).not.toContain('\u001b')
  expect(theirs).not.toMatch(/[\u0080-\u009f]/)
  expect(theirs).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/)
  // Nor what hides text from people: marks, invisible format characters, tag characters.
  expect(theirs).not.toMatch(
    /[\u00ad\u061c\u180e\u200b-\u200f\u2028\u2029\u2060-\u2064\u206a-\u206f\ufeff\ufff9-\ufffb\u{e0000}-\u{e007f}]/u,
  )
}

describe('a hostile server on a terminal', () => {
  it('inspect: names, descriptions, instructions, parameters, resources and prompts are shown escaped', async () => {
    const { code, screen } = await onTerminal(['inspect', server])
    expect(code).toBe(0)
    expectNothingLive(screen)
    expect(screen).toMatch(/\u001b\[36m/) // colour was on: the check above is not vacuous
    for (const piece of shown.slice(0, 4)) expect(screen).toContain(piece)
    expect(screen).toContain('Instructions: Obey \\x1b[2J')
    expect(screen).toContain('evil\\x1b[2Jname\\u009b') // a tool name
    expect(screen).toContain('param \\x1b[2J') // a parameter name
    expect(screen).toContain('A resource \\x1b[2J')
    expect(screen).toContain('who \\x1b[2J') // a prompt argument
    // A description cut at its width ends in "…" after whole characters, never inside an escape.
    expect(screen).toMatch(/x{70}\\x1b\[2J…/)
  })

  it('inspect of one tool: its name, description, parameters, allowed values and example line are shown escaped', async () => {
    const described = await onTerminal(['inspect', `${server}?tool=describe`])
    expect(described.code).toBe(0)
    expectNothingLive(described.screen)
    expect(described.screen).toMatch(/\u001b\[1m/) // colour was on
    expect(described.screen).toContain('evil \\x1b[2J') // the server's name
    expect(described.screen).toContain('A tool \\x1b[2J')
    expect(described.screen).toContain('param \\x1b[2J')
    expect(described.screen).toContain('A parameter \\x1b[2J')
    expect(described.screen).toContain('one of: "a \\u001b[2J') // an enum value, as JSON
    expect(described.screen).not.toContain('…') // nothing cut short
    const named = await onTerminal(['inspect', server, '--tool', 'evil\u001b[2Jname\u009b'])
    expect(named.code).toBe(0)
    expectNothingLive(named.screen)
    expect(named.screen).toContain('evil\\x1b[2Jname\\u009b')
  })

  it('cat: a tool error text and a JSON-RPC error message', async () => {
    const toolError = await onTerminal(['cat', `${server}?tool=fail`])
    expect(toolError.code).toBe(1)
    expectNothingLive(toolError.screen)
    expect(toolError.screen).toContain('mcp-kit: the tool reported an error: tool error \\x1b[2J')
    const rpcError = await onTerminal(['cat', `${server}?tool=rpc_error`])
    expect(rpcError.code).toBe(1)
    expectNothingLive(rpcError.screen)
    expect(rpcError.screen).toContain('rpc error \\x1b[2J\\x1b[H \\x1b]0;pwned title\\x07')
    // What hides text (zero-width, marks, tag characters) is shown too.
    for (const piece of shown.slice(5)) expect(rpcError.screen).toContain(piece)
  })

  it('--verbose: the server stderr and log lines', async () => {
    const { code, screen } = await onTerminal(['cat', `${server}?tool=noisy`, '--verbose'])
    expect(code).toBe(0)
    expectNothingLive(screen)
    expect(screen).toContain('[server] stderr at start \\x1b[2J')
    expect(screen).toContain('[server] stderr during call \\x1b[2J')
    expect(screen).toContain('server log (info): log \\x1b[2J')
  })

  it('the status line: progress messages', async () => {
    const { code, screen } = await onTerminal(['cat', `${server}?tool=progress`])
    expect(code).toBe(0)
    expectNothingLive(screen)
    expect(screen).toContain('\r\u001b[2Kprogress: 1/3 step 1 \\x1b[2J')
  })

  it('NDJSON records on a terminal: \\u escapes, so the values still parse back exactly', async () => {
    const { screen } = await onTerminal(['cat', `${server}?tool=fail`])
    // The status line ("connecting…") shares the terminal: split at its erase-line too.
    const line = screen.split(/\r\u001b\[2K|\r?\n/).find((text) => text.startsWith('{'))
    expect(line).not.toMatch(
      /[\u0080-\u009f\u00ad\u061c\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\u{e0000}-\u{e007f}]/u,
    )
    expect(JSON.parse(line ?? 'null')).toEqual({
      error: { code: 'tool_error', message: `tool error ${hostile}` },
    })
  })
})

describe('a hostile server, machine output on a pipe', () => {
  it('inspect --format json keeps every string exactly; stderr is sanitized even then', async () => {
    const result = await runCli(['inspect', server, '--format', 'json', '--verbose'])
    expect(result.code).toBe(0)
    const document = JSON.parse(result.stdout)
    expect(document.server).toEqual({ name: `evil ${hostile}`, version: `6.6.6 ${hostile}` })
    expect(document.instructions).toBe(`Obey ${hostile}`)
    const tool = document.tools.find((candidate: { name: string }) => candidate.name === 'describe')
    expect(tool.description).toBe(`A tool ${hostile}`)
    expect(tool.inputSchema.properties[`param ${hostile}`].description).toBe(`A parameter ${hostile}`)
    // Byte-exact: the characters JSON may carry raw are there raw.
    expect(result.stdout).toContain('\u009b31mred \u202eevil\u202c \u2066isolate\u2069')
    expect(result.stderr).toContain('[server] stderr at start \\x1b[2J')
    expectNothingLive(result.stderr)
  })

  it('cat: NDJSON error records and --raw carry the exact texts', async () => {
    const failed = await runCli(['cat', `${server}?tool=fail`])
    expect(records(failed.stdout)).toEqual([
      { error: { code: 'tool_error', message: `tool error ${hostile}` } },
    ])
    expect(failed.stdout).toContain('\u009b31mred')
    expectNothingLive(failed.stderr)
    const rpc = await runCli(['cat', `${server}?tool=rpc_error`])
    expect((records(rpc.stdout)[0] as { error: { message: string } }).error.message).toContain(
      `rpc error ${hostile}`,
    )
    expectNothingLive(rpc.stderr)
    const raw = await runCli(['cat', `${server}?resource=hostile://resource`, '--raw'])
    expect(JSON.parse(raw.stdout)).toEqual({ contents: [{ uri: 'hostile://resource', text: hostile }] })
  })

  it('schema drift: the warning names the server tool and parameter, escaped; diff --format json is exact', async () => {
    const home = join(scratch, 'drift')
    mkdirSync(join(home, 'profiles'), { recursive: true })
    const parameter = `param ${hostile}`
    writeFileSync(
      join(home, 'profiles', 'hostile.json'),
      JSON.stringify({
        command: process.execPath,
        args: [serverPath],
        schema_hash: 'sha256:stale',
        tools: {
          describe: { inputSchema: { type: 'object', properties: { [parameter]: { type: 'number' } } } },
        },
      }),
    )
    const env = { MCP_KIT_HOME: home }
    const used = await runCli(['cat', '@hostile/describe'], { env })
    expect(used.code).toBe(0)
    expect(records(used.stdout)).toEqual([{ type: 'text', text: 'described' }])
    expect(used.stderr).toContain("mcp-kit: warning: @hostile: the server's tools changed")
    expect(used.stderr).toContain('param \\x1b[2J')
    expectNothingLive(used.stderr)

    const text = await onTerminal(['profile', 'diff', 'hostile'], env)
    expect(text.code).toBe(5)
    expectNothingLive(text.screen)
    expect(text.screen).toContain('param \\x1b[2J')
    const json = await runCli(['profile', 'diff', 'hostile', '--format', 'json'], { env })
    expect(JSON.stringify(JSON.parse(json.stdout).changes)).toContain(JSON.stringify(parameter).slice(1, -1))
  })
})
