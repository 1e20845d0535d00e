// @module-tag integration
// Three `mcp-kit serve --store redis://…` instances behind a round-robin proxy (in the test, no
// affinity): 2026 calls spread over all three, a confirmation whose retry lands on another
// instance still completes, a list change made on one instance reaches a subscriptions/listen
// stream held on another, and an unreachable store stops `serve` at start with exit 3.

import { randomUUID } from 'node:crypto'
import { fileURLToPath } from 'node:url'
import { redisForTests } from '@mcp-kit/fixtures/redis'
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as HttpTransportV2,
} from '@modelcontextprotocol/client'
import { afterAll, afterEach, expect, test } from 'vitest'
import { runCli, startServe, stopStarted } from '../../helpers/helpers.js'
import { closeProxies, roundRobin } from '../../helpers/round-robin.js'

const registry = fileURLToPath(new URL('../../fixtures/scale-registry.mjs', import.meta.url))
// REDIS_URL, else 127.0.0.1:6379, else a private redis-server; none: the Redis tests are skipped.
const redis = await redisForTests({ what: 'apps/mcp-kit/test/commands/serve/scale-out.test.ts' })
const redisUrl = redis?.url ?? 'redis://unavailable'

afterEach(async () => {
  await closeProxies()
  await stopStarted()
})

afterAll(async () => {
  await redis?.stop()
})

async function threeInstances(): Promise<string> {
  const prefix = `mcp-kit-test:${randomUUID()}:`
  const instances = await Promise.all(
    [1, 2, 3].map(() => startServe([registry, '--port', '0', '--store', redisUrl, '--store-prefix', prefix])),
  )
  return roundRobin(instances.map((instance) => instance.url))
}

function text(result: unknown): string {
  return ((result as { content: Array<{ text?: string }> }).content ?? [])
    .map((item) => item.text ?? '')
    .join('')
}

test.skipIf(redis === undefined)(
  '2026 calls spread over three instances; a confirmation retried on another instance completes',
  async () => {
    const url = await threeInstances()
    const client = new ClientV2(
      { name: 'scale', version: '1.0.0' },
      { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: 'auto' } },
    )
    client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { ok: true } }))
    await client.connect(new HttpTransportV2(new URL(url)))
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28')
      const pids = new Set<string>()
      for (let index = 0; index < 6; index++)
        pids.add(text(await client.callTool({ name: 'whoami', arguments: {} })))
      expect(pids.size).toBe(3)
      // The question and the retry with its answer are two requests: they reach different instances.
      for (let index = 0; index < 3; index++) {
        expect(text(await client.callTool({ name: 'confirm', arguments: {} }))).toMatch(/^confirmed by \d+$/)
      }
    } finally {
      await client.close()
    }
    const cli = await runCli(['cat', `mcp+${url}?tool=confirm`, '--input', 'ok=true'])
    expect(cli.code).toBe(0)
    expect(cli.stdout).toMatch(/confirmed by/)
  },
)

test.skipIf(redis === undefined)(
  'a list change on one instance reaches a subscriptions/listen stream held on another',
  async () => {
    const url = await threeInstances()
    const controller = new AbortController()
    const stream = await fetch(url, {
      method: 'POST',
      signal: controller.signal,
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'subscriptions/listen',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'subscriptions/listen',
        params: {
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientCapabilities': {},
          },
          notifications: { toolsListChanged: true },
        },
      }),
    })
    let seen = ''
    const reading = (async () => {
      const decoder = new TextDecoder()
      for await (const chunk of stream.body as AsyncIterable<Uint8Array>) {
        seen += decoder.decode(chunk, { stream: true })
        if (seen.includes('notifications/tools/list_changed')) return
      }
    })().catch(() => {})
    // The stream is held on one instance; `grow` runs on the next ones.
    const grown = await runCli(['cat', `mcp+${url}?tool=grow`, '--protocol', '2026-07-28'])
    expect(grown.code).toBe(0)
    await Promise.race([reading, new Promise((resolve) => setTimeout(resolve, 10_000))])
    controller.abort()
    expect(seen).toContain('notifications/tools/list_changed')
  },
)

test('an unreachable store: exit 3 at start, naming it', async () => {
  const result = await runCli(['serve', '--port', '0', '--store', 'redis://127.0.0.1:1'])
  expect(result.code).toBe(3)
  expect(result.stderr).toMatch(/cannot reach the store at redis:\/\/127\.0\.0\.1:1/)
})

test('a store URL that cannot work: exit 2 naming what is wrong, its password hidden', async () => {
  const cases: Array<[string[], Record<string, string>, RegExp]> = [
    [
      ['--store', 'redis://:hunter2@127.0.0.1:6379/abc'],
      {},
      /^mcp-kit: --store "redis:\/\/:\*\*\*@127\.0\.0\.1:6379\/abc": the path must be a database number/,
    ],
    [['--store', 'redis://u:hunter2@[::1'], {}, /^mcp-kit: --store "redis:\/\/\*\*\*@\[::1": not a URL/],
    [['--store', 'redis://127.0.0.1:99999'], {}, /not a URL: expected redis:\/\/\[user:password@\]host:port/],
    [
      ['--store', 'redis://:hun/ter2@127.0.0.1:6379'],
      {},
      /^mcp-kit: --store "redis:\/\/\*\*\*@127\.0\.0\.1:6379": not a URL/,
    ],
    [['--store', 'redis://127.0.0.1:0'], {}, /port 0: expected a port from 1 to 65535/],
    [
      ['--store', 'redis://127.0.0.1:6379/%zz'],
      {},
      /the path must be a database number \(\/0, \/1, …\), not "\/%zz"/,
    ],
    [['--store', 'http://127.0.0.1:6379'], {}, /"http:\/\/127\.0\.0\.1:6379": expected redis:\/\//],
    [[], { MCP_KIT_STORE: 'redis:///0' }, /^mcp-kit: \$MCP_KIT_STORE "redis:\/\/\/0": no host/],
  ]
  for (const [flags, env, message] of cases) {
    const result = await runCli(['serve', '--port', '0', ...flags], { env, timeoutMs: 15_000 })
    expect(result.code, result.stderr).toBe(2)
    expect(result.stderr).toMatch(message)
    expect(result.stderr).not.toMatch(/hunter2|hun\/ter2|\n\s+at /)
  }
})
