// Shared helpers for client tests: launching fixtures and checking no process is left behind.

import { fixtureServers } from '@mcp-kit/fixtures'
import { groupRunning, processRunning, type ServerSpec } from '../src/index.js'

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
