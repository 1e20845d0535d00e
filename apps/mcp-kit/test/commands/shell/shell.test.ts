// @module-tag integration
// `mcp-kit shell`: driven in a real terminal (tmux) through listing, a call completed with Tab,
// Ctrl-C cancelling a running call, and exit; read from a pipe, it prints the records `cat`
// prints; its history is kept between sessions; the server it started is gone afterwards.

import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fixtureServers } from '@mcp-kit/fixtures'
import { afterAll, describe, expect, it } from 'vitest'
import { binPath, pidFile, records, runCli } from '../../helpers/helpers.js'
import { openTerminal } from '../../helpers/terminal.js'

const basic = `mcp+node://${fixtureServers.basic}`
const directory = mkdtempSync(join(tmpdir(), 'mcp-kit-shell-'))
const stateHome = join(directory, 'state')
afterAll(() => rmSync(directory, { recursive: true, force: true }))

describe('mcp-kit shell on a terminal (tmux)', () => {
  it('lists tools, completes a call with Tab, cancels a slow call with Ctrl-C, and exits', async () => {
    const pids = pidFile()
    const terminal = openTerminal(
      `${process.execPath} ${binPath} shell '${basic}' --env ${pids.flag}; echo "exit=$?"; sleep 60`,
      { env: { XDG_STATE_HOME: stateHome, NO_COLOR: '1' } },
    )
    try {
      await expect.poll(terminal.screen, { timeout: 20_000 }).toMatch(/fixture-basic .*tools\. Type help/)
      terminal.type('tools')
      terminal.press('Enter')
      await expect.poll(terminal.screen, { timeout: 10_000 }).toMatch(/slow\s+Answers after ms milliseconds/)

      // `ad` + Tab → `add`; ` a` + Tab → `a=` (the tool's parameters, from the live schema).
      terminal.type('ad')
      terminal.press('Tab')
      await expect.poll(terminal.screen, { timeout: 10_000 }).toMatch(/> add$/m)
      terminal.type(' a')
      terminal.press('Tab')
      await expect.poll(terminal.screen, { timeout: 10_000 }).toMatch(/> add a=$/m)
      terminal.type('2 b')
      terminal.press('Tab')
      await expect.poll(terminal.screen, { timeout: 10_000 }).toMatch(/> add a=2 b=$/m)
      terminal.type('3')
      terminal.press('Enter')
      await expect.poll(terminal.screen, { timeout: 10_000 }).toMatch(/^\{"sum":5\}$/m)

      // Ctrl-C ends the running call, not the shell.
      terminal.type('slow ms=60000')
      terminal.press('Enter')
      await new Promise((resolve) => setTimeout(resolve, 500))
      terminal.press('C-c')
      await expect.poll(terminal.screen, { timeout: 10_000 }).toMatch(/mcp-kit: cancelled/)
      terminal.type('echo message="still here"')
      terminal.press('Enter')
      await expect.poll(terminal.screen, { timeout: 10_000 }).toMatch(/still here/)

      terminal.type('exit')
      terminal.press('Enter')
      await expect.poll(terminal.screen, { timeout: 15_000 }).toMatch(/exit=0/)
      expect(pids.pids().length).toBeGreaterThan(0)
      expect(pids.running()).toEqual([])

      // The history, for the next session: the lines as typed, readable by the user only.
      const history = join(stateHome, 'mcp-kit', 'shell_history')
      expect(readFileSync(history, 'utf8').split('\n')).toEqual([
        'tools',
        'add a=2 b=3',
        'slow ms=60000',
        'echo message="still here"',
        'exit',
        '',
      ])
      expect(statSync(history).mode & 0o777).toBe(0o600)
    } finally {
      terminal.close()
      pids.remove()
    }
  })

  it('offers the previous session’s lines with Up', async () => {
    const terminal = openTerminal(`${process.execPath} ${binPath} shell '${basic}'; sleep 60`, {
      env: { XDG_STATE_HOME: stateHome, NO_COLOR: '1' },
    })
    try {
      await expect.poll(terminal.screen, { timeout: 20_000 }).toMatch(/Type help/)
      terminal.press('Up', 'Up')
      await expect.poll(terminal.screen, { timeout: 10_000 }).toMatch(/> echo message="still here"$/m)
      terminal.press('Enter')
      await expect.poll(terminal.screen, { timeout: 10_000 }).toMatch(/\{"type":"text","text":"still here"\}/)
    } finally {
      terminal.close()
    }
  })

  it("asks the server's questions in the shell", async () => {
    const registry = join(directory, 'notes.mjs')
    writeFileSync(
      registry,
      `export default ({ createToolRegistry }) =>
  createToolRegistry().tool({
    name: 'delete_note',
    description: 'Deletes a note after the user confirms',
    inputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
    handler: async ({ id }, context) => {
      const answer = await context.elicit({
        message: 'Delete note ' + id + '?',
        requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] },
      })
      return answer.action === 'accept' && answer.content?.confirm === true ? 'deleted ' + id : 'kept ' + id
    },
  })
`,
    )
    const reference = `mcp+node://${binPath}?arg=serve&arg=${encodeURIComponent(registry)}&arg=--stdio`
    const terminal = openTerminal(
      `${process.execPath} ${binPath} shell '${reference}' --no-history; sleep 60`,
      {
        env: { NO_COLOR: '1' },
      },
    )
    try {
      await expect.poll(terminal.screen, { timeout: 20_000 }).toMatch(/1 tool\. Type help/)
      terminal.type('delete_note id=n7')
      terminal.press('Enter')
      await expect.poll(terminal.screen, { timeout: 10_000 }).toMatch(/the server asks: Delete note n7\?/)
      await expect.poll(terminal.screen, { timeout: 10_000 }).toMatch(/confirm \(boolean, required\)/)
      terminal.type('true')
      terminal.press('Enter')
      await expect.poll(terminal.screen, { timeout: 10_000 }).toMatch(/Send this answer\?/)
      terminal.press('Enter')
      await expect
        .poll(terminal.screen, { timeout: 10_000 })
        .toMatch(/^\{"type":"text","text":"deleted n7"\}$/m)
      // The shell goes on.
      terminal.type('delete_note id=n8')
      terminal.press('Enter')
      await expect.poll(terminal.screen, { timeout: 10_000 }).toMatch(/Delete note n8\?/)
    } finally {
      terminal.close()
    }
  })
})

describe('mcp-kit shell from a pipe', () => {
  it('prints the records cat prints, goes on after errors, and exits with the last failure', async () => {
    const script = [
      'add a=2 b=3',
      `types pin=000123 count=7 tags=a tags=b ratio=0.5 flag=true options='{"deep":[1]}'`,
      'mixed',
      'add a=two',
      'fail',
      'read fixture://hello',
      'nope',
      '',
    ].join('\n')
    const result = await runCli(['shell', basic], { input: script, env: { XDG_STATE_HOME: stateHome } })
    const cat = async (...args: string[]) => records((await runCli(['cat', ...args])).stdout)
    expect(records(result.stdout)).toEqual([
      ...(await cat(`${basic}?tool=add&a=2&b=3`)),
      ...(await cat(
        `${basic}?tool=types`,
        'pin=000123',
        'count=7',
        'tags=a',
        'tags=b',
        'ratio=0.5',
        'flag=true',
        'options={"deep":[1]}',
      )),
      ...(await cat(`${basic}?tool=mixed`)),
      // `add a=two` is refused before the call: a message, no record.
      ...(await cat(`${basic}?tool=fail`)),
      ...(await cat(`${basic}?resource=fixture://hello`)),
    ])
    expect(result.stderr).toMatch(/invalid arguments for tool 'add':\n\s+missing required parameter 'b'/)
    expect(result.stderr).toMatch(/the tool reported an error: this tool always fails/)
    expect(result.stderr).toMatch(/no command or tool 'nope'/)
    expect(result.code).toBe(2) // `nope`: tool_not_found, a usage error as for cat
  })

  it('SIGTERM while it waits for the next line: exit 130, the server shut down', async () => {
    const pids = pidFile()
    const child = spawn(process.execPath, [binPath, 'shell', basic, '--env', pids.flag], {
      env: { ...process.env, NO_COLOR: '1', XDG_STATE_HOME: stateHome },
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    try {
      let stdout = ''
      child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text))
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
      child.stdin.write('add a=1 b=2\n')
      await expect.poll(() => stdout, { timeout: 20_000 }).toBe('{"sum":3}\n')
      expect(pids.running().length).toBe(1)
      child.kill('SIGTERM')
      expect(await exited).toBe(130)
      expect(pids.running()).toEqual([])
    } finally {
      child.kill('SIGKILL')
      pids.remove()
    }
  })

  it('takes a server, not an operation', async () => {
    const result = await runCli(['shell', `${basic}?tool=add`])
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(/shell takes a server .* not an operation/)
  })
})
