// @module-tag integration
// The watchdog script on its own: fed pids the way the client feeds it, its pipe closed the way a
// dying client closes it. It must end what it was told about (and their descendants), and
// nothing else: not a pid whose start time says it is another process now, not a process it
// never heard of. Both ways of reading processes are run here: /proc, and ps (as on macOS).

import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { fixtureServers } from '@mcp-kit/fixtures'
import { afterEach, describe, expect, it } from 'vitest'
import { readProcessStat } from '../../src/stdio/process-group.js'
import { watchdogScript } from '../../src/stdio/watchdog.js'
import { processAlive } from '../helpers/processes.js'

const started: ChildProcess[] = []
const extraPids: number[] = []

afterEach(() => {
  for (const pid of [...started.map((child) => child.pid), ...extraPids.splice(0)]) {
    try {
      if (pid) process.kill(pid, 'SIGKILL')
    } catch {}
  }
  started.length = 0
})

/** A process that runs until killed; with `child`, it first starts one in a session of its own. */
async function sleeper(
  options: { detached?: boolean; ignoreTerm?: boolean; child?: boolean } = {},
): Promise<{ pid: number; child?: number }> {
  const code = `
    ${options.ignoreTerm ? "process.on('SIGTERM', () => {})" : ''}
    if (${options.child === true}) {
      const c = require('node:child_process').spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { detached: true, stdio: 'ignore' })
      c.unref()
      process.stdout.write(c.pid + '\\n')
    } else process.stdout.write('up\\n')
    setInterval(() => {}, 1000)
  `
  const process_ = spawn(process.execPath, ['-e', code], {
    detached: options.detached ?? true,
    stdio: ['ignore', 'pipe', 'ignore'],
  })
  started.push(process_)
  const [line] = (await once(process_.stdout as NodeJS.ReadableStream, 'data')) as [Buffer]
  const child = options.child ? Number(line.toString().trim()) : undefined
  if (child) extraPids.push(child)
  return { pid: process_.pid as number, child }
}

function startTime(pid: number): string {
  return readProcessStat(pid)?.startTime as string
}

function fdOf(stream: unknown): number | 'ignore' {
  return (stream as { _handle?: { fd: number } } | undefined)?._handle?.fd ?? 'ignore'
}

/**
 * Runs the watchdog with `lines` as its input, then closes its input as a dying client would (or
 * with the all-clear line). `server` is the server whose stdio pipes it holds.
 */
async function runWatchdog(
  mode: 'proc' | 'ps',
  lines: string[],
  options: { allClear?: boolean; graceTenths?: number; server?: ChildProcess } = {},
): Promise<number> {
  const server = options.server
  const watchdog = spawn(
    '/bin/sh',
    ['-c', watchdogScript, 'mcp-kit-watchdog', String(options.graceTenths ?? 3), mode, '-'],
    {
      stdio: ['pipe', 'ignore', 'inherit', fdOf(server?.stdin), fdOf(server?.stdout), fdOf(server?.stderr)],
    },
  )
  // This process's copy of the server's stdin is closed, not ended: as when a client dies.
  server?.stdin?.destroy()
  const exited = once(watchdog, 'exit')
  watchdog.stdin?.write(lines.map((line) => `${line}\n`).join(''))
  // Give it time to take the lines in, as a client that lived a while would.
  await new Promise((resolve) => setTimeout(resolve, 200))
  watchdog.stdin?.end(options.allClear ? '.\n' : '')
  const [code] = (await exited) as [number]
  return code
}

describe.skipIf(process.platform !== 'linux')('the watchdog script', () => {
  for (const mode of ['proc', 'ps'] as const) {
    it(`${mode}: ends what it was told about and its descendants, nothing else`, async () => {
      const told = await sleeper({ child: true })
      const reused = await sleeper() // told with another start time: a pid now used by someone else
      const sameSession = await sleeper({ detached: false }) // never told; in this process's session
      const stranger = await sleeper() // never told
      const code = await runWatchdog(mode, [
        `${told.pid} ${mode === 'proc' ? startTime(told.pid) : '-'} L`,
        `${reused.pid} 12345 L`,
      ])
      expect(code).toBe(0)
      await expect.poll(() => processAlive(told.pid)).toBe(false)
      await expect.poll(() => processAlive(told.child as number)).toBe(false)
      expect(processAlive(reused.pid)).toBe(true)
      expect(processAlive(sameSession.pid)).toBe(true)
      expect(processAlive(stranger.pid)).toBe(true)
    })
  }

  it('SIGKILLs what ignores SIGTERM, after the grace period', async () => {
    const stubborn = await sleeper({ ignoreTerm: true })
    const exited = once(started.at(-1) as ChildProcess, 'exit')
    await runWatchdog('proc', [`${stubborn.pid} ${startTime(stubborn.pid)} L`], { graceTenths: 5 })
    expect(await exited).toEqual([null, 'SIGKILL'])
  })

  it("a dying client's server is first asked to exit by the end of its stdin, the MCP way", async () => {
    const server = spawn(process.execPath, [fixtureServers.basic], { detached: true, stdio: 'pipe' })
    started.push(server)
    await once(server, 'spawn')
    const exited = once(server, 'exit')
    const stamp = startTime(server.pid as number)
    const watchdog = runWatchdog('proc', [`${server.pid} ${stamp} L`], { server, graceTenths: 50 })
    // While the watchdog holds a copy of its stdin, the server does not see it end.
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(processAlive(server.pid as number)).toBe(true)
    await watchdog
    expect(await exited).toEqual([0, null]) // it exited on its own, before any signal
  })

  it('the all-clear line: it exits and signals nothing', async () => {
    const server = await sleeper()
    expect(await runWatchdog('proc', [`${server.pid} ${startTime(server.pid)} L`], { allClear: true })).toBe(
      0,
    )
    expect(processAlive(server.pid)).toBe(true)
  })

  it('ends the members of a told session whose leader is gone', async () => {
    // A leader that started a child in its own session, then died: the child lives on, orphaned.
    const leader = spawn(
      process.execPath,
      [
        '-e',
        `const c = require('node:child_process').spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' })
         c.unref(); process.stdout.write(c.pid + '\\n')`,
      ],
      { detached: true, stdio: ['ignore', 'pipe', 'ignore'] },
    )
    const stamp = await new Promise<string>((resolve) =>
      leader.once('spawn', () => resolve(startTime(leader.pid as number))),
    )
    const [line] = (await once(leader.stdout, 'data')) as [Buffer]
    const orphan = Number(line.toString().trim())
    extraPids.push(orphan)
    await once(leader, 'exit')
    expect(processAlive(orphan)).toBe(true)
    await runWatchdog('proc', [`${leader.pid} ${stamp} L`])
    await expect.poll(() => processAlive(orphan)).toBe(false)
  })
})
