// @module-tag integration
// A gateway in front of real upstreams (server-everything, -filesystem and -memory from npm, and a
// fixture that crashes, grows and asks), served over Streamable HTTP to the official SDK clients
// of both lines and both protocol eras. The stdio endpoint and the CLI are tested in the app.

import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { processRunning } from '@mcp-kit/client/internal'
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as HttpTransportV2,
} from '@modelcontextprotocol/client'
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport as HttpTransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { describe, expect, test } from 'vitest'
import {
  eventually,
  everything,
  filesystem,
  fixtureUpstream,
  marks,
  memory,
  nodeServer,
  slowUpstream,
  startGateway,
  startHttpUpstream,
  stormUpstream,
  temporaryDir,
} from './helpers/gateways.js'

type AnyClient = {
  listTools(): Promise<{ tools: Array<{ name: string }> }>
  listPrompts(): Promise<{ prompts: Array<{ name: string }> }>
  listResources(): Promise<{ resources: Array<{ uri: string }> }>
  callTool(
    params: { name: string; arguments?: Record<string, unknown> },
    ...rest: unknown[]
  ): Promise<unknown>
  readResource(params: { uri: string }): Promise<{ contents: Array<{ uri: string; text?: string }> }>
  getPrompt(params: { name: string; arguments?: Record<string, string> }): Promise<{ messages: unknown[] }>
  close(): Promise<void>
}

const clients = {
  async 'SDK v1 (2025-11-25)'(url: string): Promise<AnyClient> {
    const client = new ClientV1({ name: 'v1', version: '1.0.0' }, { capabilities: { elicitation: {} } })
    const { ElicitRequestSchema } = await import('@modelcontextprotocol/sdk/types.js')
    client.setRequestHandler(ElicitRequestSchema, async () => ({
      action: 'accept',
      content: { name: 'Ada' },
    }))
    await client.connect(new HttpTransportV1(new URL(url)))
    return client as unknown as AnyClient
  },
  'SDK v2 auto (2026-07-28)': (url: string) => v2(url, 'auto'),
  'SDK v2 legacy (2025-11-25)': (url: string) => v2(url, 'legacy'),
}

async function v2(url: string, mode: 'auto' | 'legacy'): Promise<AnyClient> {
  const client = new ClientV2(
    { name: `v2-${mode}`, version: '1.0.0' },
    { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode } },
  )
  client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { name: 'Ada' } }))
  await client.connect(new HttpTransportV2(new URL(url)))
  expect(client.getNegotiatedProtocolVersion()).toBe(mode === 'auto' ? '2026-07-28' : '2025-11-25')
  return client as unknown as AnyClient
}

/** An SDK v1 client of the gateway at `url` that counts the tools/list_changed it hears. */
async function listeningClient(url: string) {
  const client = new ClientV1({ name: 'v1', version: '1.0.0' })
  let changed = 0
  const { ToolListChangedNotificationSchema } = await import('@modelcontextprotocol/sdk/types.js')
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    changed += 1
  })
  await client.connect(new HttpTransportV1(new URL(url)))
  return { client, changes: () => changed }
}

function text(result: unknown): string {
  return ((result as { content: Array<{ text?: string }> }).content ?? [])
    .map((item) => item.text ?? '')
    .join('')
}

describe('real upstreams behind one HTTP endpoint', () => {
  for (const [label, open] of Object.entries(clients)) {
    test(`${label}: list, call, read and get a prompt on each upstream; names namespaced; filters honoured`, async () => {
      const dir = temporaryDir()
      writeFileSync(join(dir, 'hello.txt'), 'hello from disk')
      const { url } = await startGateway({
        upstreams: [
          { name: 'everything', server: everything, tools: ['echo', 'get-*'] },
          { name: 'filesystem', server: filesystem(dir), tools: null },
          { name: 'memory', server: memory },
          { name: 'fixture', server: nodeServer(fixtureUpstream), tools: [] },
        ],
      })
      const client = await open(url)
      try {
        const names = (await client.listTools()).tools.map((tool) => tool.name)
        expect(names).toContain('everything__echo')
        expect(names).toContain('everything__get-sum')
        expect(names).not.toContain('everything__trigger-long-running-operation') // not in the list, no glob matches
        expect(names).toContain('filesystem__list_directory')
        expect(names).toContain('memory__create_entities')
        expect(names.some((name) => name.startsWith('fixture__'))).toBe(false) // [] offers none
        expect(names.every((name) => /^[A-Za-z0-9_-]{1,64}$/.test(name))).toBe(true)

        expect(text(await client.callTool({ name: 'everything__echo', arguments: { message: 'hi' } }))).toBe(
          'Echo: hi',
        )
        expect(
          text(await client.callTool({ name: 'filesystem__list_directory', arguments: { path: dir } })),
        ).toContain('hello.txt')
        await client.callTool({
          name: 'memory__create_entities',
          arguments: { entities: [{ name: 'Ada', entityType: 'person', observations: ['wrote programs'] }] },
        })
        expect(text(await client.callTool({ name: 'memory__read_graph', arguments: {} }))).toContain('Ada')

        const uris = (await client.listResources()).resources.map((resource) => resource.uri)
        expect(uris).toContain('fixture://greeting')
        expect(uris).toContain('demo://resource/static/document/architecture.md')
        const read = await client.readResource({ uri: 'fixture://greeting' })
        expect(read.contents[0]?.text).toBe('hello from the fixture')
        const templated = await client.readResource({ uri: 'demo://resource/dynamic/text/7' })
        expect(templated.contents[0]?.uri).toBe('demo://resource/dynamic/text/7')

        const prompts = (await client.listPrompts()).prompts.map((prompt) => prompt.name)
        expect(prompts).toContain('everything__simple-prompt')
        expect(prompts).toContain('fixture__greet')
        const prompt = await client.getPrompt({ name: 'fixture__greet', arguments: { who: 'Ada' } })
        expect(JSON.stringify(prompt.messages)).toContain('Greet Ada')
        expect(
          (await client.getPrompt({ name: 'everything__simple-prompt' })).messages.length,
        ).toBeGreaterThan(0)
      } finally {
        await client.close()
      }
    })
  }
})

describe('forwarding', () => {
  test("server-everything's long-running operation streams progress through the gateway", async () => {
    const { url } = await startGateway({ upstreams: [{ name: 'everything', server: everything }] })
    const client = await clients['SDK v1 (2025-11-25)'](url)
    try {
      const steps: number[] = []
      await client.callTool(
        { name: 'everything__trigger-long-running-operation', arguments: { duration: 1, steps: 3 } },
        undefined,
        { onprogress: (progress: { progress: number }) => steps.push(progress.progress) },
      )
      expect(steps.length).toBeGreaterThanOrEqual(2)
    } finally {
      await client.close()
    }
  })

  test("a client's cancel reaches the upstream", async () => {
    const markFile = join(temporaryDir(), 'marks')
    const { url } = await startGateway({
      upstreams: [{ name: 'fixture', server: nodeServer(fixtureUpstream) }],
      connect: { env: { MARK_FILE: markFile } },
    })
    const client = await clients['SDK v1 (2025-11-25)'](url)
    try {
      const controller = new AbortController()
      const call = client.callTool({ name: 'fixture__slow', arguments: { ms: 20_000 } }, undefined, {
        signal: controller.signal,
        onprogress: () => controller.abort(),
      })
      await expect(call).rejects.toThrow()
      await eventually(() => marks(markFile).includes('cancelled'))
    } finally {
      await client.close()
    }
  })

  test('an upstream that adds a tool at runtime: list_changed reaches the client, the tool is callable', async () => {
    const { url } = await startGateway({
      upstreams: [{ name: 'fixture', server: nodeServer(fixtureUpstream) }],
    })
    const { client, changes } = await listeningClient(url)
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).not.toContain('fixture__grown')
      await client.callTool({ name: 'fixture__grow', arguments: {} })
      await eventually(() => changes() > 0)
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('fixture__grown')
      expect(text(await client.callTool({ name: 'fixture__grown', arguments: {} }))).toBe('I am new')
    } finally {
      await client.close()
    }
  })

  test('an upstream announcing 2,000 list changes at once is listed a few times, and ends up with its last list', async () => {
    const markFile = join(temporaryDir(), 'marks')
    const { url } = await startGateway({
      upstreams: [{ name: 'storm', server: nodeServer(stormUpstream) }],
      connect: { env: { MARK_FILE: markFile } },
    })
    const { client, changes } = await listeningClient(url)
    try {
      const names = async () => (await client.listTools()).tools.map((tool) => tool.name)
      expect(await names()).toContain('storm__calm')
      const before = marks(markFile).length
      expect(text(await client.callTool({ name: 'storm__storm', arguments: {} }))).toBe('stormed')
      await eventually(async () => (await names()).includes('storm__after'))
      await new Promise((resolve) => setTimeout(resolve, 500))
      expect(await names()).toEqual(['storm__storm', 'storm__after'])
      // One listing per notification was 2,000 listings (and as many list_changed to clients).
      const listings = marks(markFile).length - before
      expect(listings).toBeGreaterThanOrEqual(1)
      expect(listings).toBeLessThanOrEqual(10)
      expect(changes()).toBeLessThanOrEqual(10)
    } finally {
      await client.close()
    }
  })

  test("a client's resource subscription is followed upstream; the upstream's updates reach it", async () => {
    const { url } = await startGateway({
      upstreams: [{ name: 'fixture', server: nodeServer(fixtureUpstream) }],
    })
    const client = new ClientV1({ name: 'v1', version: '1.0.0' })
    const updates: string[] = []
    const { ResourceUpdatedNotificationSchema } = await import('@modelcontextprotocol/sdk/types.js')
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
      updates.push(notification.params.uri)
    })
    await client.connect(new HttpTransportV1(new URL(url)))
    try {
      await client.subscribeResource({ uri: 'fixture://greeting' })
      // The upstream subscription is set up in the background: touch until an update arrives.
      await eventually(async () => {
        await client.callTool({ name: 'fixture__touch', arguments: {} })
        return updates.length > 0
      })
      expect(updates[0]).toBe('fixture://greeting')
    } finally {
      await client.close()
    }
  })

  for (const label of ['SDK v1 (2025-11-25)', 'SDK v2 auto (2026-07-28)'] as const) {
    test(`${label}: an upstream's elicitation reaches the client and the answer goes back; the upstream tool runs once`, async () => {
      const markFile = join(temporaryDir(), 'marks')
      const { url } = await startGateway({
        upstreams: [
          { name: 'fixture', server: nodeServer(fixtureUpstream) },
          { name: 'everything', server: everything, tools: ['trigger-elicitation-request'] },
        ],
        connect: { env: { MARK_FILE: markFile } },
      })
      const client = await clients[label](url)
      try {
        expect(text(await client.callTool({ name: 'fixture__ask', arguments: {} }))).toBe('hello Ada')
        expect(marks(markFile).filter((line) => line.startsWith('asked'))).toEqual(['asked accept'])
        // server-everything (SDK v1) asks its own question through the gateway too.
        const answer = text(
          await client.callTool({ name: 'everything__trigger-elicitation-request', arguments: {} }),
        )
        expect(answer).toMatch(/accept/i)
      } finally {
        await client.close()
      }
    })
  }
})

describe('faults', () => {
  test('an upstream killed mid-call: that call fails clearly, the others keep serving, it comes back with its tools', async () => {
    const { url, gateway, events } = await startGateway({
      upstreams: [
        { name: 'fixture', server: nodeServer(fixtureUpstream) },
        { name: 'memory', server: memory },
      ],
    })
    const { client, changes } = await listeningClient(url)
    try {
      const firstPid = gateway.upstreams.get('fixture')?.pid as number
      // kill -9 the upstream while a call is running on it.
      const running = client.callTool({ name: 'fixture__slow', arguments: { ms: 20_000 } }, undefined, {
        onprogress: () => {
          if (processRunning(firstPid)) process.kill(firstPid, 'SIGKILL')
        },
        resetTimeoutOnProgress: true,
      }) as Promise<{ isError?: boolean; content: Array<{ text: string }> }>
      const crashed = await running
      expect(crashed.isError).toBe(true)
      expect(crashed.content[0]?.text).toMatch(/upstream 'fixture'.*(exit|SIGKILL|killed)/i)
      // The other upstream is not disturbed.
      expect(text(await client.callTool({ name: 'memory__read_graph', arguments: {} }))).toContain('entities')
      // The dead one restarts (backoff), is listed again, and says so.
      await eventually(
        () =>
          gateway.health().fixture?.state === 'running' && gateway.upstreams.get('fixture')?.pid !== firstPid,
      )
      await eventually(() => changes() > 0)
      expect(events.some((event) => event.type === 'failed' && event.upstream === 'fixture')).toBe(true)
      expect(text(await client.callTool({ name: 'fixture__echo', arguments: { text: 'back' } }))).toBe(
        'echo: back',
      )
      const health = (await (await fetch(new URL('/healthz', url))).json()) as {
        upstreams: Record<string, unknown>
      }
      expect(health.upstreams.fixture).toMatchObject({ state: 'running', restarts: 1 })
    } finally {
      await client.close()
    }
  })

  test('an upstream that never starts is reported, not fatal', async () => {
    const { url, gateway } = await startGateway({
      upstreams: [
        { name: 'broken', server: nodeServer('/nonexistent/server.js') },
        { name: 'fixture', server: nodeServer(fixtureUpstream) },
      ],
    })
    const client = await clients['SDK v1 (2025-11-25)'](url)
    try {
      expect(text(await client.callTool({ name: 'fixture__echo', arguments: { text: 'ok' } }))).toBe(
        'echo: ok',
      )
      const health = gateway.health()
      expect(['failed', 'restarting']).toContain(health.broken?.state)
      expect(health.broken?.error).toMatch(/exited|did not start|nonexistent|Cannot find/i)
    } finally {
      await client.close()
    }
  })

  test("an upstream still starting: a 2025 client's first call for its tool waits for its tools, not 'Unknown tool'", async () => {
    const launches = join(temporaryDir(), 'launches')
    // Its first start outlasts the connect limit (the gateway serves without it, and retries); the
    // second answers initialize after a second.
    const slow = {
      ...nodeServer(slowUpstream),
      env: { LAUNCH_FILE: launches, DELAYS_MS: '3000,1000' },
    }
    const { url, gateway } = await startGateway({
      upstreams: [
        { name: 'fixture', server: nodeServer(fixtureUpstream) },
        { name: 'slow', server: slow },
      ],
      connect: { connectTimeoutMs: 2000 },
    })
    expect(gateway.health().slow?.state).not.toBe('running')
    const client = new ClientV1({ name: 'v1', version: '1.0.0' })
    try {
      await client.connect(new HttpTransportV1(new URL(url)))
      // Right after initialize, without listing tools.
      expect(text(await client.callTool({ name: 'slow__echo', arguments: { text: 'hi' } }))).toBe('echo: hi')
      expect(marks(launches)).toHaveLength(2)
      // A name no upstream offers is still unknown once they have listed their tools.
      await expect(client.callTool({ name: 'slow__nope', arguments: {} })).rejects.toThrow(/Unknown tool/)
    } finally {
      await client.close()
    }
  })

  test('an HTTP upstream that restarts (2025 session forgotten) is reconnected without the client noticing', async () => {
    const first = await startHttpUpstream()
    const port = new URL(first.url).port
    const { url } = await startGateway({
      upstreams: [
        {
          name: 'remote',
          server: { transport: 'http', url: first.url },
          connect: { protocol: '2025-11-25' },
        },
      ],
    })
    const client = await clients['SDK v1 (2025-11-25)'](url)
    let second: Awaited<ReturnType<typeof startHttpUpstream>> | undefined
    try {
      expect(text(await client.callTool({ name: 'remote__echo', arguments: { text: 'one' } }))).toBe(
        'echo: one',
      )
      await first.stop()
      second = await startHttpUpstream(Number(port))
      expect(text(await client.callTool({ name: 'remote__echo', arguments: { text: 'two' } }))).toBe(
        'echo: two',
      )
    } finally {
      await client.close()
      await second?.stop()
    }
  })

  test('names two upstreams share are refused at start, naming both', async () => {
    await expect(
      startGateway({
        upstreams: [
          { name: 'a', server: nodeServer(fixtureUpstream), prefix: '' },
          { name: 'b', server: nodeServer(fixtureUpstream), prefix: '' },
        ],
      }),
    ).rejects.toThrow(/upstreams 'a' and 'b' both offer tool 'echo'/)
  })
})

describe('lazy start and idle stop', () => {
  test('with a discovery cache the upstream starts on first use, and stops when idle', async () => {
    const { fileDiscoveryCache } = await import('../src/index.js')
    const cache = fileDiscoveryCache(temporaryDir())
    const upstreams = [{ name: 'fixture', server: nodeServer(fixtureUpstream) }]
    // A first gateway fills the cache.
    const warm = await startGateway({ upstreams, cache })
    expect(warm.gateway.health().fixture?.state).toBe('running')
    const { gateway, url, events } = await startGateway({ upstreams, cache, idleStopMs: 300 })
    expect(gateway.health().fixture?.state).toBe('idle')
    expect(gateway.upstreams.get('fixture')?.pid).toBeUndefined()
    const client = await clients['SDK v1 (2025-11-25)'](url)
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('fixture__echo')
      expect(gateway.upstreams.get('fixture')?.pid).toBeUndefined() // listing needs no process
      expect(text(await client.callTool({ name: 'fixture__echo', arguments: { text: 'x' } }))).toBe('echo: x')
      expect(gateway.health().fixture?.state).toBe('running')
      await eventually(() => events.some((event) => event.type === 'stopped' && event.reason === 'idle'))
      expect(gateway.health().fixture?.state).toBe('idle')
    } finally {
      await client.close()
    }
  })
})
