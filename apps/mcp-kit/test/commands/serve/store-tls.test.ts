// @module-tag integration
// `mcp-kit serve --store rediss://user:password@…` against a real redis-server on TLS only, with
// a throwaway CA made by openssl and an ACL user limited to the store's prefix: two instances
// behind a round-robin proxy share 2025 sessions and tasks through it, one trusting the CA by --store-ca,
// the other by NODE_EXTRA_CA_CERTS; the requestState key comes from a file and the environment,
// so Redis never holds it. A wrong password and an untrusted certificate stop `serve` at start
// with exit 3 and a message saying which.

import { randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startTlsRedisServer, type TlsRedisServer, tlsRedisMissing } from '@mcp-kit/fixtures/redis-tls'
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as HttpTransportV2,
} from '@modelcontextprotocol/client'
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport as HttpTransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest'
import { runCli, startServe, stopStarted } from '../../helpers/helpers.js'
import { describeAnswer, modernRequest } from '../../helpers/modern-request.js'
import { pollUntil } from '../../helpers/poll.js'
import { closeProxies, roundRobin } from '../../helpers/round-robin.js'

const missing = tlsRedisMissing()
if (missing !== undefined) {
  console.warn(
    `\n⚠ SKIPPING the TLS Redis tests of apps/mcp-kit/test/commands/serve/store-tls.test.ts: ${missing}\n`,
  )
}

const user = 'mcp-kit-instance'
const password = 'the-right-password'
const prefix = `mcp-kit-tls:${randomUUID()}:`
const scratch = mkdtempSync(join(tmpdir(), 'mcp-kit-store-tls-'))
const stateKey = 'a-request-state-key-of-more-than-32-bytes'
const keyFile = join(scratch, 'request-state.key')
writeFileSync(keyFile, `${stateKey}\n`, { mode: 0o600 })
// Which process answered, a question (a 2026 retry lands on the other instance), and a task.
const registry = join(scratch, 'registry.mjs')
writeFileSync(
  registry,
  `export default ({ createToolRegistry }) => createToolRegistry()
  .tool({ name: 'whoami', handler: () => String(process.pid) })
  .tool({
    name: 'confirm',
    async handler(_args, context) {
      const answer = await context.elicit({
        message: 'Go ahead?',
        requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
      })
      return answer.content?.ok === true ? 'confirmed by ' + process.pid : 'declined'
    },
  })
  .tool({
    name: 'work',
    taskSupport: 'required',
    handler: async () => {
      await new Promise((resolve) => setTimeout(resolve, 300))
      return { pid: process.pid }
    },
  })
`,
)
let redis: TlsRedisServer | undefined

beforeAll(async () => {
  if (missing !== undefined) return
  // Only the store's keys and channels, and the command groups the README names.
  redis = await startTlsRedisServer({
    users: {
      [user]: {
        password,
        rules: `~${prefix}* &${prefix}* +@read +@write +@pubsub +@scripting +@connection`,
      },
    },
  })
})

afterEach(async () => {
  await closeProxies()
  await stopStarted()
})

afterAll(async () => {
  await redis?.stop()
  rmSync(scratch, { recursive: true, force: true })
})

function text(result: unknown): string {
  return ((result as { content: Array<{ text?: string }> }).content ?? [])
    .map((item) => item.text ?? '')
    .join('')
}

test.skipIf(missing !== undefined)(
  'rediss:// with an ACL user: 2025 sessions, 2026 retries and a task across two instances; the requestState key is not in Redis',
  async () => {
    const tls = redis as TlsRedisServer
    const store = ['--store', tls.url(user, password), '--store-prefix', prefix]
    const [one, two] = await Promise.all([
      startServe([
        registry,
        '--port',
        '0',
        ...store,
        '--store-ca',
        tls.caFile,
        '--request-state-key-file',
        keyFile,
      ]),
      startServe([registry, '--port', '0', ...store], {
        NODE_EXTRA_CA_CERTS: tls.caFile,
        MCP_KIT_REQUEST_STATE_KEY: stateKey,
      }),
    ])
    expect(one?.stderr()).toMatch(/state shared on redis/)
    const url = await roundRobin([one?.url as string, two?.url as string])

    // A 2025 session opened on one instance is served by both: its record is in Redis.
    const legacy = new ClientV1({ name: 'tls', version: '1.0.0' })
    await legacy.connect(new HttpTransportV1(new URL(url)))
    try {
      const pids = new Set<string>()
      for (let index = 0; index < 4; index++)
        pids.add(text(await legacy.callTool({ name: 'whoami', arguments: {} })))
      expect(pids.size).toBe(2)
    } finally {
      await legacy.close()
    }
    const keys = (await tls.command(user, password, ['KEYS', `${prefix}*`])) as string[]
    expect(keys.length).toBeGreaterThan(0)

    // A 2026 question and the retry with its answer reach different instances: both sign with the
    // key of the file and the environment, which Redis never holds.
    const modern = new ClientV2(
      { name: 'tls', version: '1.0.0' },
      { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: 'auto' } },
    )
    modern.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { ok: true } }))
    await modern.connect(new HttpTransportV2(new URL(url)))
    try {
      expect(modern.getNegotiatedProtocolVersion()).toBe('2026-07-28')
      for (let index = 0; index < 2; index++)
        expect(text(await modern.callTool({ name: 'confirm', arguments: {} }))).toMatch(/^confirmed by \d+$/)
    } finally {
      await modern.close()
    }
    expect(await tls.command(user, password, ['EXISTS', `${prefix}request-state-key`])).toBe('0')

    // A task started through one instance is polled to its result through both.
    const created = await modernRequest(url, 'tools/call', { name: 'work', arguments: {} })
    const taskId = created.result?.taskId as string
    expect(created.result?.resultType, describeAnswer(created)).toBe('task')
    const done = await pollUntil(`task ${taskId} completed`, async () => {
      const answer = await modernRequest(url, 'tasks/get', { taskId })
      return answer.result?.status === 'working' ? undefined : answer.result
    })
    expect(done).toMatchObject({ status: 'completed' })
  },
)

test.skipIf(missing !== undefined)(
  'a wrong password and an untrusted certificate stop serve at start: exit 3, saying which',
  async () => {
    const tls = redis as TlsRedisServer
    const wrong = await runCli([
      'serve',
      registry,
      '--port',
      '0',
      '--store',
      tls.url(user, 'not-the-password'),
      '--store-ca',
      tls.caFile,
    ])
    expect(wrong.code).toBe(3)
    expect(wrong.stderr).toMatch(
      /the store at rediss:\/\/mcp-kit-instance:\*\*\*@127\.0\.0\.1:\d+ refused the login: WRONGPASS/,
    )
    expect(wrong.stderr).not.toContain('not-the-password')

    const untrusted = await runCli(['serve', registry, '--port', '0', '--store', tls.url(user, password)])
    expect(untrusted.code).toBe(3)
    expect(untrusted.stderr).toMatch(
      /cannot connect to the store at rediss:\/\/mcp-kit-instance:\*\*\*@127\.0\.0\.1:\d+: its TLS certificate is not trusted \(.*certificate.*\); give the CA that signed it with --store-ca FILE/,
    )

    const short = join(scratch, 'short.key')
    writeFileSync(short, 'too short\n')
    const weak = await runCli(['serve', registry, '--port', '0', '--request-state-key-file', short])
    expect(weak.code).toBe(2)
    expect(weak.stderr).toMatch(/the key must be at least 32 bytes/)
  },
)
