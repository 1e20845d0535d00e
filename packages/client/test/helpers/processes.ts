// Shared helpers for client tests: launching fixtures and checking no process is left behind.

import { fixtureServers } from '@mcp-kit/fixtures'
import type { ServerSpec } from '../../src/index.js'
import { groupRunning, processRunning } from '../../src/internal.js'

export function fixture(name: keyof typeof fixtureServers, ...args: string[]): ServerSpec {
  return { transport: 'stdio', command: process.execPath, args: [fixtureServers[name], ...args] }
}

/** True while a (non-zombie) process of the group led by `pid` exists. */
export function groupAlive(pid: number): boolean {
  return groupRunning(pid)
}

/** True while `pid` runs (zombies count as gone: they are dead, only unreaped). */
export function processAlive(pid: number): boolean {
  return processRunning(pid)
}

export async function failureOf(
  promise: Promise<unknown>,
): Promise<{ code: string; message: string; details?: Record<string, unknown> }> {
  try {
    await promise
  } catch (error) {
    return error as { code: string; message: string; details?: Record<string, unknown> }
  }
  throw new Error('expected the promise to reject')
}

import { type ChildProcess, spawn } from 'node:child_process'
import { createServer } from 'node:net'

/** A free TCP port on 127.0.0.1 (for servers that cannot listen on port 0 and report it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0))
    })
  })
}

/** Starts a server process and waits until its output matches `ready`. */
export async function startProcess(
  args: string[],
  options: { env?: Record<string, string>; ready: RegExp },
): Promise<{ child: ChildProcess; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      if (options.ready.test(output)) resolve()
    }
    child.stdout?.on('data', onData)
    child.stderr?.on('data', onData)
    child.once('exit', (code) => reject(new Error(`server exited (${code}) before it was ready: ${output}`)))
  })
  return {
    child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve()
        child.once('exit', () => resolve())
        child.kill('SIGTERM')
      }),
  }
}

import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'

/** A fixture server of tooling/fixtures/servers by file name (for those not in fixtureServers). */
export function fixtureFile(name: string): string {
  return join(dirname(fixtureServers.basic), name)
}

/** A temp file the fixtures append their pids to (env FIXTURE_PID_FILE). */
export function pidFile(): {
  path: string
  pids: () => number[]
  running: () => number[]
  remove: () => void
} {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-kit-pids-'))
  const path = join(dir, 'pids')
  const pids = () => {
    try {
      return readFileSync(path, 'utf8').split('\n').filter(Boolean).map(Number)
    } catch {
      return []
    }
  }
  return {
    path,
    pids,
    running: () => pids().filter(processRunning),
    remove: () => {
      // A failed test must not leave its processes behind either.
      for (const pid of pids().filter(processRunning)) {
        try {
          process.kill(pid, 'SIGKILL')
        } catch {}
      }
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

/** The watchdogs `parent` started that still run. */
export function watchdogsOf(parent: number): number[] {
  const found: number[] = []
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry)
    if (!Number.isInteger(pid)) continue
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      if (Number(fields[1]) !== parent || fields[0] === 'Z') continue
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('mcp-kit-watchdog')) found.push(pid)
    } catch {
      // gone meanwhile
    }
  }
  return found
}
