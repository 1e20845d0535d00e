// @module-tag integration
// A warm command's questions (--keep-alive): the daemon has no terminal, so a server's question
// is asked on the terminal of the CLI process whose command caused it (a real tmux terminal, a
// real daemon with its own XDG_RUNTIME_DIR, a registry served over stdio by mcp-kit itself), in
// both protocol eras; the answer goes back to the server and the server stays warm. A question
// nobody answers gives up after that command's --input-timeout.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { processRunning } from '@mcp-kit/client/internal'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { binPath, runCli } from '../helpers/helpers.js'
import { openTerminal, type Terminal } from '../helpers/terminal.js'

const directory = mkdtempSync(join(tmpdir(), 'mcp-kit-warm-questions-'))
const registryPath = join(directory, 'notes.mjs')
writeFileSync(
  registryPath,
  `export default ({ createToolRegistry }) => createToolRegistry().tool({
  name: 'delete_note',
  inputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
  handler: async ({ id }, context) => {
    const answer = await context.elicit({
      message: 'Delete note ' + id + '?',
      requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] },
    })
    return (answer.action === 'accept' && answer.content?.confirm === true ? 'deleted ' : 'kept ') + id + ' (server ' + process.pid + ')'
  },
})
`,
)
const reference = (id: string) =>
  `mcp+node://${binPath}?arg=serve&arg=${encodeURIComponent(registryPath)}&arg=--stdio&tool=delete_note&id=${id}`

interface Listed {
  daemon: { pid: number } | null
  sessions: { pid: number | null; calls: number }[]
}

const runtimes: string[] = []
const started = new Set<number>()
const terminals: Terminal[] = []

function runtime(): Record<string, string> {
  const path = mkdtempSync(join(tmpdir(), 'mcp-kit-warm-'))
  runtimes.push(path)
  return { XDG_RUNTIME_DIR: path }
}

async function list(env: Record<string, string>): Promise<Listed> {
  const result = await runCli(['sessions', '--format', 'json'], { env })
  expect(result.code, result.stderr).toBe(0)
  const listed = JSON.parse(result.stdout) as Listed
  if (listed.daemon) started.add(listed.daemon.pid)
  for (const session of listed.sessions) if (session.pid !== null) started.add(session.pid)
  return listed
}

/** A warm `cat` of delete_note on a terminal of its own; the shell says how it exited. */
function warmCat(env: Record<string, string>, id: string, protocol: string, extra = ''): Terminal {
  const terminal = openTerminal(
    `node ${binPath} cat '${reference(id)}' --protocol ${protocol} --keep-alive 60s ${extra}; echo "exit=$?"; sleep 30`,
    { env },
  )
  terminals.push(terminal)
  return terminal
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

describe.skipIf(process.platform !== 'linux').each(['2025-11-25', 'auto'])('--protocol %s', (protocol) => {
  it("a warm command's question is asked on its own terminal; the answer reaches the warm server", async () => {
    const env = runtime()
    const first = warmCat(env, 'w1', protocol)
    await expect.poll(first.screen, { timeout: 20_000 }).toMatch(/confirm \(boolean, required\)/)
    expect(first.screen()).toMatch(/the server asks: Delete note w1\?/)
    first.type('true')
    first.press('Enter')
    await expect.poll(first.screen, { timeout: 10_000 }).toMatch(/Send this answer\?/)
    first.press('Enter')
    await expect.poll(first.screen, { timeout: 10_000 }).toMatch(/exit=\d+/)
    expect(first.screen()).toMatch(/exit=0/)
    const server = /deleted w1 \(server (\d+)\)/.exec(first.screen())?.[1]
    expect(server).toBeDefined()

    // The next command reuses the server, and its question comes to its own terminal.
    const second = warmCat(env, 'w2', protocol)
    await expect.poll(second.screen, { timeout: 20_000 }).toMatch(/confirm \(boolean, required\)/)
    second.type('false')
    second.press('Enter')
    await expect.poll(second.screen, { timeout: 10_000 }).toMatch(/Send this answer\?/)
    second.type('d')
    second.press('Enter')
    await expect.poll(second.screen, { timeout: 10_000 }).toMatch(/exit=\d+/)
    expect(second.screen()).toMatch(new RegExp(`kept w2 \\(server ${server}\\)`))
    expect(second.screen()).toMatch(/exit=0/)
    const listed = await list(env)
    expect(listed.sessions).toHaveLength(1)
    expect(listed.sessions[0]?.pid).toBe(Number(server))
  })

  it('a warm question nobody answers gives up after --input-timeout; the server stays warm', async () => {
    const env = runtime()
    const terminal = warmCat(env, 'w3', protocol, '--input-timeout 1')
    await expect.poll(terminal.screen, { timeout: 20_000 }).toMatch(/exit=\d+/)
    expect(terminal.screen()).toMatch(/confirm \(boolean, required\)/)
    expect(terminal.screen()).toMatch(
      /mcp-kit: (tools\/call 'delete_note': )?input question timed out after 1 s/,
    )
    expect(terminal.screen()).toMatch(/exit=4/)
    const listed = await list(env)
    expect(listed.sessions).toHaveLength(1)
    expect(processRunning(listed.sessions[0]?.pid as number)).toBe(true)
  })
})
