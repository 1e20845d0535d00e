// @module-tag integration
// A person answering sampling (--sampling-ask) on a real terminal (tmux): the system prompt and
// the messages shown, escaped where a server put control characters, a multi-line answer typed
// and sent with "."; "." alone declines. In a warm session (--keep-alive) the question comes to
// the terminal of the command that caused it, and a command that answers otherwise (or not at
// all) gets a server of its own: what the client declares is part of the launch.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { processRunning } from '@mcp-kit/client/internal'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { binPath, runCli } from '../helpers/helpers.js'
import { everything, ours } from '../helpers/sampling-fixtures.js'
import { openTerminal, type Terminal } from '../helpers/terminal.js'

const directory = mkdtempSync(join(tmpdir(), 'mcp-kit-sampling-terminal-'))
const answer = join(directory, 'answer.mjs')
writeFileSync(
  answer,
  `let input = ''
process.stdin.on('data', (chunk) => (input += chunk)).on('end', () => console.log('Answered by a program.'))
`,
)

const terminals: Terminal[] = []
const runtimes: string[] = []
const started = new Set<number>()

/** A command on a terminal of its own; the shell says how it exited. */
function onTerminal(command: string, env: Record<string, string> = {}): Terminal {
  const terminal = openTerminal(`${command}; echo "exit=$?"; sleep 30`, { env })
  terminals.push(terminal)
  return terminal
}

function runtime(): Record<string, string> {
  const path = mkdtempSync(join(tmpdir(), 'mcp-kit-warm-'))
  runtimes.push(path)
  return { XDG_RUNTIME_DIR: path }
}

async function sessions(env: Record<string, string>): Promise<Array<{ pid: number | null; calls: number }>> {
  const result = await runCli(['sessions', '--format', 'json'], { env })
  expect(result.code, result.stderr).toBe(0)
  const listed = JSON.parse(result.stdout) as {
    daemon: { pid: number } | null
    sessions: Array<{ pid: number | null; calls: number }>
  }
  if (listed.daemon) started.add(listed.daemon.pid)
  for (const session of listed.sessions) if (session.pid !== null) started.add(session.pid)
  return listed.sessions
}

afterEach(async () => {
  for (const terminal of terminals.splice(0)) terminal.close()
  for (const path of runtimes.splice(0)) {
    await runCli(['sessions', 'stop', '--all'], { env: { XDG_RUNTIME_DIR: path } })
    rmSync(path, { recursive: true, force: true })
  }
  const pids = [...started]
  started.clear()
  await expect.poll(() => pids.filter(processRunning), { timeout: 10_000 }).toEqual([])
})
afterAll(() => rmSync(directory, { recursive: true, force: true }))

/** Types each line and Enter, then "." to send, all at once, as a paste would. */
function typeAnswer(terminal: Terminal, lines: string[]): void {
  terminal.type(`${[...lines, '.'].join('\r')}\r`)
}

describe.skipIf(process.platform !== 'linux')('--sampling-ask', () => {
  it("a person answers server-everything's sampling request on the terminal, seeing the system prompt and the messages", async () => {
    const terminal = onTerminal(
      `node ${binPath} cat '${everything('tool=trigger-sampling-request&prompt=colour%1b[31m')}' --sampling-ask`,
    )
    await expect.poll(terminal.screen, { timeout: 30_000 }).toMatch(/^>$/m)
    const screen = terminal.screen()
    expect(screen).toContain('mcp-kit: the server asks for a model completion (sampling):')
    expect(screen).toContain('  system prompt: You are a helpful test server.')
    // The server's escape sequence is shown, not obeyed.
    expect(screen).toContain('  [user] Resource trigger-sampling-request context: colour\\x1b[31m')
    expect(screen).toContain('  at most 100 tokens; temperature 0.7')
    typeAnswer(terminal, ['Blue, mostly.', 'Sometimes grey.'])
    await expect.poll(terminal.screen, { timeout: 15_000 }).toMatch(/exit=\d+/)
    expect(terminal.screen()).toMatch(/exit=0/)
    expect(terminal.screen().replace(/\n/g, '')).toContain(
      '\\"text\\": \\"Blue, mostly.\\\\nSometimes grey.\\"',
    )
    expect(terminal.screen()).toContain('\\"model\\": \\"human\\"')
  }, 60_000)

  it('"." alone declines: the call fails saying so', async () => {
    const terminal = onTerminal(`node ${binPath} cat '${ours('tool=summarize&text=x')}' --sampling-ask`)
    await expect.poll(terminal.screen, { timeout: 30_000 }).toMatch(/^>$/m)
    expect(terminal.screen()).toContain('model hints: summarizer')
    expect(terminal.screen()).toContain('(it asks to include context from thisServer; mcp-kit includes none)')
    typeAnswer(terminal, [])
    await expect.poll(terminal.screen, { timeout: 15_000 }).toMatch(/exit=\d+/)
    expect(terminal.screen()).toContain('the sampling request was declined at the terminal')
    expect(terminal.screen()).toMatch(/exit=1/)
  }, 60_000)

  it("a warm session's sampling comes to the terminal of the command that caused it; other answerers get other servers", async () => {
    const env = runtime()
    const tracePath = join(directory, 'warm.trace')
    const warm = (extra: string) =>
      `node ${binPath} cat '${ours('tool=summarize&text=warm')}' --protocol 2025-11-25 --keep-alive 60s ${extra}`
    const first = onTerminal(warm('--sampling-ask'), env)
    await expect.poll(first.screen, { timeout: 30_000 }).toMatch(/^>$/m)
    expect(first.screen()).toContain('[user] Summarize: warm')
    typeAnswer(first, ['Warm and typed.'])
    await expect.poll(first.screen, { timeout: 15_000 }).toMatch(/exit=\d+/)
    expect(first.screen()).toMatch(/exit=0/)
    expect(first.screen()).toContain('"answer":"Warm and typed."')
    expect(await sessions(env)).toHaveLength(1)

    // A command answering with a program declares what --sampling-ask does: the same server,
    // its exchange in its own trace (2025 stdio: asked outside any call, routed to it). The
    // commands run on terminals alike: a server's environment (TERM) is part of its launch too.
    const second = onTerminal(warm(`--sampling-command 'node ${answer}' --trace ${tracePath}`), env)
    await expect.poll(second.screen, { timeout: 30_000 }).toMatch(/exit=\d+/)
    expect(second.screen()).toMatch(/exit=0/)
    expect(second.screen()).toContain(
      '{"answer":"Answered by a program.","model":"node answer.mjs","stopReason":"endTurn"}',
    )
    expect(readFileSync(tracePath, 'utf8')).toContain('"kind":"sampling"')
    const shared = await sessions(env)
    expect(shared).toHaveLength(1)
    expect(shared[0]?.calls).toBe(2)

    // Without sampling the client declares less: a server of its own.
    const third = onTerminal(warm(''), env)
    await expect.poll(third.screen, { timeout: 30_000 }).toMatch(/exit=\d+/)
    expect(third.screen()).toContain('the client does not support sampling')
    expect(third.screen()).toMatch(/exit=1/)
    expect(await sessions(env)).toHaveLength(2)
  }, 90_000)
})
