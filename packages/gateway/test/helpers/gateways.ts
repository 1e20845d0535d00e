// Starting gateways for tests: upstreams from npm and the fixture, served over HTTP on 127.0.0.1,
// closed (and their processes checked gone) after each test.

import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { groupRunning } from '@mcp-kit/client/internal'
import { npmServers } from '@mcp-kit/fixtures'
import { type HttpServerOptions, type RunningHttpServer, startHttpServer } from '@mcp-kit/server'
import { afterEach, expect } from 'vitest'
import {
  createGateway,
  fileDiscoveryCache,
  type Gateway,
  type GatewayEvent,
  type GatewayOptions,
} from '../../src/index.js'

export const fixtureUpstream = fileURLToPath(new URL('../fixtures/upstream.mjs', import.meta.url))
export const stormUpstream = fileURLToPath(new URL('../fixtures/storm.mjs', import.meta.url))
export const slowUpstream = fileURLToPath(new URL('../fixtures/slow-start.mjs', import.meta.url))

export function nodeServer(script: string, ...args: string[]) {
  return { transport: 'stdio' as const, command: process.execPath, args: [script, ...args] }
}

export const everything = nodeServer(npmServers.everything)
export const memory = nodeServer(npmServers.memory)
export function filesystem(dir: string) {
  return nodeServer(npmServers.filesystem, dir)
}

export function temporaryDir(): string {
  return mkdtempSync(join(tmpdir(), 'mcp-kit-gateway-'))
}

export function marks(file: string): string[] {
  try {
    return readFileSync(file, 'utf8').split('\n').filter(Boolean)
  } catch {
    return []
  }
}

interface Running {
  gateway: Gateway
  server: RunningHttpServer
  url: string
  events: GatewayEvent[]
}

const running: Running[] = []
const pids = new Set<number>()

afterEach(async () => {
  for (const { gateway, server } of running.splice(0)) {
    for (const upstream of gateway.upstreams.values()) if (upstream.pid) pids.add(upstream.pid)
    await server.close()
    await gateway.close()
  }
  for (const pid of pids) expect(groupRunning(pid), `process group ${pid} is gone`).toBe(false)
  pids.clear()
})

/** A gateway over HTTP (with `serve` options: a token, OAuth), with a fresh discovery cache unless one is given. */
export async function startGateway(options: GatewayOptions, serve: HttpServerOptions = {}): Promise<Running> {
  const events: GatewayEvent[] = []
  const gateway = createGateway({
    cache: fileDiscoveryCache(temporaryDir()),
    restartDelayMs: 100,
    ...options,
    onEvent: (event) => {
      events.push(event)
      if (event.type === 'started' && event.pid) pids.add(event.pid)
      options.onEvent?.(event)
    },
  })
  await gateway.start()
  const server = await startHttpServer(gateway.registry, {
    ...serve,
    health: () => ({ upstreams: gateway.health() }),
  })
  const entry = { gateway, server, url: server.url, events }
  running.push(entry)
  return entry
}

/** Starts a fixture upstream over HTTP on a given port (0: any); resolves with its URL. */
export function startHttpUpstream(
  port = 0,
  script = fixtureUpstream,
): Promise<{ url: string; stop(): Promise<void> }> {
  const child = spawn(process.execPath, [script, '--port', String(port)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  return new Promise((resolve, reject) => {
    let text = ''
    child.once('error', reject)
    child.once('exit', (code) => reject(new Error(`the upstream exited (${code}) before listening`)))
    child.stdout.on('data', (chunk: Buffer) => {
      text += chunk.toString()
      const line = text.split('\n')[0]
      if (text.includes('\n') && line) {
        child.removeAllListeners('exit')
        resolve({
          url: line,
          stop: () =>
            new Promise<void>((done) => {
              if (child.exitCode !== null) return done()
              child.once('exit', () => done())
              child.kill('SIGKILL')
            }),
        })
      }
    })
  })
}

export async function eventually(check: () => boolean | Promise<boolean>, limitMs = 15_000): Promise<void> {
  const deadline = Date.now() + limitMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not reached in time')
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}
