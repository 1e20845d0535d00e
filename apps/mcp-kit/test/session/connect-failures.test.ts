// @module-tag integration
// A server that cannot be connected to is exit 3 for every command that connects, whatever broke:
// an `initialize` refused with a JSON-RPC error, a protocol version mcp-kit does not speak, nothing
// listening, a server that exits at start. Each case is one message on stderr, never a stack trace.
// `serve` keeps serving and reports such an upstream instead.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fixtureServers } from '@mcp-kit/fixtures'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { runCliAtHome, startServe, stopStarted } from '../helpers/helpers.js'

const home = mkdtempSync(join(tmpdir(), 'mcp-kit-connect-failures-'))
let refusing: Server
let refusingUrl = ''
let closedUrl = ''

/** A 2025 server that answers the probe "method not found" and refuses `initialize`. */
function startRefusing(): Promise<Server> {
  const server = createServer((request, response) => {
    let body = ''
    request.setEncoding('utf8').on('data', (text: string) => (body += text))
    request.on('end', () => {
      if (request.method !== 'POST') return void response.writeHead(405).end()
      const message = JSON.parse(body) as { id?: number; method?: string }
      const error =
        message.method === 'initialize'
          ? { code: -32000, message: 'Bad Request: this server is closed for maintenance' }
          : { code: -32601, message: 'Method not found' }
      response.writeHead(message.method === 'initialize' ? 400 : 200, { 'content-type': 'application/json' })
      response.end(JSON.stringify({ jsonrpc: '2.0', id: message.id ?? null, error }))
    })
  })
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)))
}

beforeAll(async () => {
  refusing = await startRefusing()
  refusingUrl = `mcp+http://127.0.0.1:${(refusing.address() as AddressInfo).port}/mcp`
  // A port that was just free: nothing listens there.
  const probe = createServer()
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
  closedUrl = `mcp+http://127.0.0.1:${(probe.address() as AddressInfo).port}/mcp`
  await new Promise((resolve) => probe.close(resolve))
})
afterEach(stopStarted)
afterAll(async () => {
  await new Promise((resolve) => refusing.close(resolve))
  rmSync(home, { recursive: true, force: true })
})

/** Each way a connect fails, as a reference and as what a profile's `_meta.json` holds. */
const failures = [
  {
    name: 'initialize refused with a JSON-RPC error (HTTP)',
    reference: () => refusingUrl,
    meta: () => ({ url: refusingUrl.slice('mcp+'.length) }),
    says: /refused to initialize: Bad Request: this server is closed for maintenance/,
  },
  {
    name: 'a protocol version mcp-kit does not speak (stdio)',
    reference: () =>
      `mcp+node://${fixtureServers.basic}?arg=--only-version=1999-01-01&arg=--unknown=method-not-found`,
    meta: () => ({
      command: process.execPath,
      args: [fixtureServers.basic, '--only-version=1999-01-01', '--unknown=method-not-found'],
    }),
    says: /the server speaks MCP 1999-01-01, which this client does not support/,
  },
  {
    name: 'nothing listening (HTTP)',
    reference: () => closedUrl,
    meta: () => ({ url: closedUrl.slice('mcp+'.length) }),
    says: /connection refused/,
  },
  {
    name: 'the server exits at start (stdio)',
    reference: () => `mcp+node://${fixtureServers.crash}?arg=--at-start`,
    meta: () => ({ command: process.execPath, args: [fixtureServers.crash, '--at-start'] }),
    says: /exited with code 7 before it finished initializing/,
  },
]

/** Every command that connects, given the reference and the name of a profile of the same server. */
const commands: Array<{ name: string; args: (reference: string, profile: string) => string[] }> = [
  { name: 'inspect', args: (reference) => ['inspect', reference] },
  { name: 'cat', args: (reference) => ['cat', reference, '--tool', 'echo', 'message=hi'] },
  { name: 'head', args: (reference) => ['head', reference, '--tool', 'echo', 'message=hi'] },
  { name: 'tail', args: (reference) => ['tail', reference, '--tool', 'echo', 'message=hi'] },
  { name: 'put', args: (reference) => ['put', reference, '--tool', 'echo'] },
  { name: 'watch', args: (reference) => ['watch', reference] },
  { name: 'shell', args: (reference) => ['shell', reference] },
  { name: 'task get', args: (reference) => ['task', 'get', reference, 'task-1'] },
  { name: 'generate', args: (reference) => ['generate', reference, '--out', join(home, 'client.ts')] },
  { name: 'profile create', args: (reference) => ['profile', 'create', 'fresh', '--from', reference] },
  { name: 'profile version', args: (reference) => ['profile', 'version', reference] },
  { name: 'profile validate', args: (_reference, profile) => ['profile', 'validate', `@${profile}`] },
  { name: 'profile diff', args: (_reference, profile) => ['profile', 'diff', `@${profile}`] },
  { name: 'profile update', args: (_reference, profile) => ['profile', 'update', `@${profile}`, '--yes'] },
]

/** Writes profile `name` for the failing server (what `profile create` would have saved earlier). */
function writeProfile(name: string, meta: Record<string, unknown>): void {
  const directory = join(home, '.config', 'mcp-kit', 'profiles', name)
  mkdirSync(directory, { recursive: true })
  writeFileSync(
    join(directory, '_meta.json'),
    JSON.stringify({ ...meta, schema_hash: `sha256:${'0'.repeat(64)}`, schema_validation: 'warn' }),
  )
}

describe.each(failures.map((failure, index) => ({ ...failure, profile: `failing${index}` })))(
  '$name',
  (failure) => {
    beforeAll(() => writeProfile(failure.profile, failure.meta()))

    it.concurrent.each(commands)('$name: exit 3 and one message', async (command) => {
      const result = await runCliAtHome(home, home, command.args(failure.reference(), failure.profile), {
        input: '{"message":"hi"}\n',
        env: { XDG_CACHE_HOME: join(home, '.cache') },
      })
      expect(result.code, result.stderr).toBe(3)
      expect(result.stderr).toMatch(failure.says)
      expect(result.stderr).not.toMatch(/\n\s+at /)
      expect(result.stdout).toBe('')
    })
  },
)

it('serve keeps serving and reports an upstream whose initialize is refused', async () => {
  const serving = await startServe(['--port', '0', '--eager', `closed=${refusingUrl}`], {
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
  })
  await expect
    .poll(serving.stderr, { timeout: 20_000 })
    .toMatch(
      /upstream 'closed' failed: .*refused to initialize: Bad Request: this server is closed for maintenance/,
    )
  expect(serving.child.exitCode).toBe(null)
})
