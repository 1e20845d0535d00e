// @module-tag integration
// Where a command on a profile with `keepAlive` runs (warm/route.ts): the commands that may run
// warm go to the daemon, started for them when none runs; any other command connects directly,
// its server ending with it. Real CLI processes, a real daemon (its own XDG_RUNTIME_DIR), real
// servers; the fixtures write their pids to a file, so where each server ran is seen.

import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { processRunning } from '@mcp-kit/client/internal'
import { fixtureServers } from '@mcp-kit/fixtures'
import { afterEach, describe, expect, it } from 'vitest'
import { pidFile, records, runCli } from '../helpers/helpers.js'

interface Listed {
  daemon: { pid: number } | null
  sessions: { reference: string; calls: number; pid: number | null }[]
}

const cleanups: (() => Promise<void>)[] = []

afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup()
})

/** A home with profile `kept` (keepAlive 30s, and `keepAlive` as given for `bad`) and a runtime directory of its own. */
function setup() {
  const root = mkdtempSync(join(tmpdir(), 'mcp-kit-warm-route-'))
  const home = join(root, 'home')
  const runtime = join(root, 'runtime')
  mkdirSync(join(home, 'profiles'), { recursive: true })
  mkdirSync(runtime, { mode: 0o700 })
  const pids = pidFile()
  const profile = (name: string, keepAlive: string) =>
    writeFileSync(
      join(home, 'profiles', `${name}.json`),
      JSON.stringify({
        command: process.execPath,
        args: [fixtureServers.basic],
        env: { FIXTURE_PID_FILE: pids.path },
        keepAlive,
      }),
    )
  profile('kept', '30s')
  profile('bad', 'soon')
  const env = { MCP_KIT_HOME: home, XDG_RUNTIME_DIR: runtime }
  const daemons = new Set<number>()
  const list = async (): Promise<Listed> => {
    const result = await runCli(['sessions', '--format', 'json'], { env })
    expect(result.code, result.stderr).toBe(0)
    const listed = JSON.parse(result.stdout) as Listed
    if (listed.daemon !== null) daemons.add(listed.daemon.pid)
    return listed
  }
  cleanups.push(async () => {
    await runCli(['sessions', 'stop', '--all'], { env })
    const left = [...daemons, ...pids.pids()]
    await expect.poll(() => left.filter(processRunning), { timeout: 10_000 }).toEqual([])
    pids.remove()
    rmSync(root, { recursive: true, force: true })
  })
  return { root, env, pids, list }
}

describe.skipIf(process.platform !== 'linux')("a profile's keepAlive", () => {
  it('the first cat with no daemon running runs warm: a daemon appears and lists the session', async () => {
    const { env, pids, list } = setup()
    expect((await list()).daemon).toBeNull()
    const result = await runCli(['cat', '@kept/echo', 'message=first'], { env })
    expect(result.code, result.stderr).toBe(0)
    expect(records(result.stdout)).toEqual([{ type: 'text', text: 'first' }])
    const listed = await list()
    expect(listed.daemon).not.toBeNull()
    expect(listed.sessions.map((session) => [session.reference, session.calls])).toEqual([['@kept', 1]])
    // The server outlives the command: it is the warm one.
    expect(pids.running()).toEqual(pids.pids())
    expect(pids.pids()).toHaveLength(1)
    // The profile named later in the line, the daemon running: the same warm server.
    const later = await runCli(['cat', '--tool', 'echo', 'message=later', '@kept'], { env })
    expect(later.code, later.stderr).toBe(0)
    expect(records(later.stdout)).toEqual([{ type: 'text', text: 'later' }])
    expect((await list()).sessions.map((session) => session.calls)).toEqual([2])
    expect(pids.pids()).toHaveLength(1)
  })

  it('a keepAlive that is no duration is an invalid profile, with or without a daemon running', async () => {
    const { env, list } = setup()
    const cold = await runCli(['cat', '@bad/echo', 'message=x'], { env })
    expect(cold.code).toBe(2)
    expect(cold.stderr).toContain("'keepAlive' must be a duration")
    expect((await list()).daemon).toBeNull()
    expect((await runCli(['cat', '@kept/echo', 'message=warm'], { env })).code).toBe(0)
    const warm = await runCli(['cat', '@bad/echo', 'message=x'], { env })
    expect(warm.code).toBe(2)
    expect(warm.stderr).toContain("'keepAlive' must be a duration")
  })

  it('generate, which never runs warm, connects directly: no daemon, and its server ends with it', async () => {
    const { root, env, pids, list } = setup()
    const out = join(root, 'kept.ts')
    const result = await runCli(['generate', '@kept', '--out', out], { env })
    expect(result.code, result.stderr).toBe(0)
    expect(existsSync(out)).toBe(true)
    expect(pids.pids()).toHaveLength(1)
    expect(pids.running()).toEqual([])
    expect((await list()).daemon).toBeNull()
    // --keep-alive too: said to be of no use here, and the server still ends with the command.
    const flagged = await runCli(['generate', '@kept', '--out', out, '--keep-alive', '60s'], { env })
    expect(flagged.code, flagged.stderr).toBe(0)
    expect(flagged.stderr).toContain('warning: --keep-alive keeps the servers of cat, head, tail, put')
    expect(pids.pids()).toHaveLength(2)
    expect(pids.running()).toEqual([])
    expect((await list()).daemon).toBeNull()
  })
})
