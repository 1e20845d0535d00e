// @module-tag integration
// `mcp-kit serve` as a gateway, run as a user would: upstreams named on the command line or in a
// desktop client's config file, behind one stdio endpoint (SDK v1 and v2 clients spawn it) and one
// HTTP endpoint (SDK client and mcp-kit's own CLI), traces naming the upstream, and no process
// left behind after SIGTERM or the client closing stdin.

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { processRunning } from '@mcp-kit/client/internal'
import { npmServers } from '@mcp-kit/fixtures'
import { redisForTests } from '@mcp-kit/fixtures/redis'
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as HttpTransportV2,
} from '@modelcontextprotocol/client'
import { StdioClientTransport as StdioTransportV2 } from '@modelcontextprotocol/client/stdio'
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport as StdioTransportV1 } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport as HttpTransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { afterAll, afterEach, describe, expect, test } from 'vitest'
import { binPath, records, runCli, startServe, stopStarted } from '../../helpers/helpers.js'

afterEach(stopStarted)

// REDIS_URL, else 127.0.0.1:6379, else a private redis-server; none: the Redis test is skipped.
const redis = await redisForTests({ what: 'apps/mcp-kit/test/commands/serve/gateway.test.ts' })
afterAll(async () => {
  await redis?.stop()
})

const fixture = fileURLToPath(
  new URL('../../../../../packages/gateway/test/fixtures/upstream.mjs', import.meta.url),
)

function scratch(): string {
  return mkdtempSync(join(tmpdir(), 'mcp-kit-gateway-app-'))
}

/** The fixture as a reference that records its pid in `marks`. */
function fixtureReference(marks: string): string {
  return `fixture=mcp+node://${fixture}?env.MARK_FILE=${encodeURIComponent(marks)}`
}

function startedPids(marks: string): number[] {
  try {
    return readFileSync(marks, 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('started '))
      .map((line) => Number(line.slice('started '.length)))
  } catch {
    return []
  }
}

async function gone(pids: readonly number[], limitMs = 5000): Promise<boolean> {
  const deadline = Date.now() + limitMs
  while (pids.some((pid) => processRunning(pid))) {
    if (Date.now() > deadline) return false
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return true
}

function text(result: unknown): string {
  return ((result as { content: Array<{ text?: string }> }).content ?? [])
    .map((item) => item.text ?? '')
    .join('')
}

type Listing = {
  listTools(): Promise<{ tools: Array<{ name: string }> }>
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown>
  readResource(params: { uri: string }): Promise<{ contents: Array<{ text?: string }> }>
  getPrompt(params: { name: string; arguments: Record<string, string> }): Promise<{ messages: unknown[] }>
}

async function exercise(client: Listing): Promise<void> {
  const names = (await client.listTools()).tools.map((tool) => tool.name)
  expect(names).toContain('everything__echo')
  expect(names).toContain('fixture__echo')
  expect(text(await client.callTool({ name: 'everything__echo', arguments: { message: 'a' } }))).toBe(
    'Echo: a',
  )
  expect(text(await client.callTool({ name: 'fixture__echo', arguments: { text: 'b' } }))).toBe('echo: b')
  expect((await client.readResource({ uri: 'fixture://greeting' })).contents[0]?.text).toBe(
    'hello from the fixture',
  )
  expect(
    JSON.stringify((await client.getPrompt({ name: 'fixture__greet', arguments: { who: 'Ada' } })).messages),
  ).toContain('Greet Ada')
}

describe('behind one stdio endpoint', () => {
  for (const peer of ['SDK v1', 'SDK v2 auto'] as const) {
    test(`${peer}: a desktop-style stdio entry reaches every upstream; closing it ends them all`, async () => {
      const dir = scratch()
      const marks = join(dir, 'marks')
      const args = [
        binPath,
        'serve',
        '--stdio',
        `everything=mcp+node://${npmServers.everything}`,
        fixtureReference(marks),
      ]
      const env = { ...(process.env as Record<string, string>), XDG_CACHE_HOME: dir, NO_COLOR: '1' }
      if (peer === 'SDK v1') {
        const client = new ClientV1({ name: 'v1', version: '1.0.0' })
        await client.connect(new StdioTransportV1({ command: process.execPath, args, env, stderr: 'pipe' }))
        await exercise(client as unknown as Listing)
        await client.close()
      } else {
        const client = new ClientV2(
          { name: 'v2', version: '1.0.0' },
          { versionNegotiation: { mode: 'auto' } },
        )
        await client.connect(new StdioTransportV2({ command: process.execPath, args, env, stderr: 'pipe' }))
        expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28')
        await exercise(client as unknown as Listing)
        await client.close()
      }
      const pids = startedPids(marks)
      expect(pids.length).toBeGreaterThan(0)
      expect(await gone(pids)).toBe(true)
    })
  }
})

describe('behind one HTTP endpoint', () => {
  test("mcp-kit's own CLI: inspect lists namespaced tools, cat calls one, the trace names the upstream", async () => {
    const dir = scratch()
    const trace = join(dir, 'trace.ndjson')
    const serving = await startServe(
      [
        `everything=mcp+node://${npmServers.everything}`,
        fixtureReference(join(dir, 'marks')),
        '--port',
        '0',
        '--trace',
        trace,
      ],
      { XDG_CACHE_HOME: dir },
    )
    const inspect = await runCli(['inspect', `mcp+${serving.url}`, '--format', 'json'])
    expect(inspect.code).toBe(0)
    const tools = (JSON.parse(inspect.stdout) as { tools: Array<{ name: string }> }).tools.map(
      (tool) => tool.name,
    )
    expect(tools).toEqual(
      expect.arrayContaining(['everything__echo', 'everything__get-sum', 'fixture__echo']),
    )
    const cat = await runCli(['cat', `mcp+${serving.url}?tool=fixture__echo`, 'text=hello'])
    expect(cat.code).toBe(0)
    expect(cat.stdout).toContain('echo: hello')
    const health = (await (await fetch(new URL('/healthz', serving.url))).json()) as {
      upstreams: Record<string, { state: string }>
    }
    expect(health.upstreams.fixture?.state).toBe('running')
    serving.child.kill('SIGTERM')
    expect((await serving.exited).code).toBe(0)
    const entries = records(readFileSync(trace, 'utf8')) as Array<Record<string, unknown>>
    const call = entries.find((entry) => entry.name === 'fixture__echo')
    expect(call).toMatchObject({
      kind: 'tool_call',
      ok: true,
      upstream: 'fixture',
      server: 'mcp-kit gateway',
    })
    expect(typeof call?.upstream_ms).toBe('number')
    expect(typeof call?.gateway_ms).toBe('number')
  })

  test("a desktop client's config file, unchanged, served as a gateway; SIGTERM leaves no process behind", async () => {
    const dir = scratch()
    const marks = join(dir, 'marks')
    const config = join(dir, 'claude_desktop_config.json')
    writeFileSync(
      config,
      JSON.stringify(
        {
          mcpServers: {
            memory: {
              command: process.execPath,
              args: [npmServers.memory],
              env: { MEMORY_FILE_PATH: join(dir, 'memory.json') },
            },
            fixture: { command: process.execPath, args: [fixture], env: { MARK_FILE: marks } },
          },
        },
        null,
        2,
      ),
    )
    const serving = await startServe(['--config', config, '--port', '0', '--eager'], { XDG_CACHE_HOME: dir })
    const client = new ClientV1({ name: 'desktop', version: '1.0.0' })
    await client.connect(new HttpTransportV1(new URL(serving.url)))
    const names = (await client.listTools()).tools.map((tool) => tool.name)
    expect(names).toEqual(
      expect.arrayContaining(['memory__create_entities', 'memory__read_graph', 'fixture__echo']),
    )
    await client.callTool({
      name: 'memory__create_entities',
      arguments: { entities: [{ name: 'Ada', entityType: 'person', observations: ['first programmer'] }] },
    })
    expect(text(await client.callTool({ name: 'memory__read_graph', arguments: {} }))).toContain('Ada')
    await client.close()
    const pids = startedPids(marks)
    expect(pids.length).toBe(1)
    serving.child.kill('SIGTERM')
    expect((await serving.exited).code).toBe(0)
    expect(await gone(pids)).toBe(true)
  })
})

describe('mistakes', () => {
  test('two upstreams with one name, two modules, an unknown profile: exit 2 naming them', async () => {
    const twice = await runCli(['serve', '--stdio', `a=mcp+node://${fixture}`, `a=mcp+node://${fixture}`])
    expect(twice.code).toBe(2)
    expect(twice.stderr).toMatch(/two upstreams are named 'a'/)
    const modules = await runCli(['serve', 'one.js', 'two.js'])
    expect(modules.code).toBe(2)
    expect(modules.stderr).toMatch(/one registry module, got 2/)
    const unknown = await runCli(['serve', '--stdio', '@no-such-profile'], {
      env: { MCP_KIT_HOME: scratch() },
    })
    expect(unknown.code).not.toBe(0)
    expect(unknown.stderr).toMatch(/no-such-profile/)
    expect(unknown.stderr).not.toMatch(/\n\s+at /)
  })

  test('the same tool names from two upstreams without prefixes: refused at start, naming both', async () => {
    const dir = scratch()
    const config = join(dir, 'mcp.json')
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: {
          one: { command: process.execPath, args: [fixture], prefix: '' },
          two: { command: process.execPath, args: [fixture], prefix: '' },
        },
      }),
    )
    const result = await runCli(['serve', '--stdio', '--config', config], { env: { XDG_CACHE_HOME: dir } })
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(/upstreams 'one' and 'two' both offer tool 'echo'/)
  })
})

/** Starts server-everything's research through the gateway at `url` as a task (--detach): its id. */
async function startResearch(url: string): Promise<string> {
  const reference = `mcp+${url}?tool=everything__simulate-research-query`
  const detached = await runCli(['cat', reference, 'topic=tides', 'ambiguous=true', '--detach'])
  expect(detached.code, detached.stderr).toBe(0)
  const [handle] = records(detached.stdout) as Array<{ taskId: string; status: string }>
  expect(handle?.status).toBe('working')
  return handle?.taskId ?? ''
}

/** Answers the research's question through the gateway at `url` and waits for the report. */
async function expectAnswered(url: string, taskId: string, interpretation: string): Promise<void> {
  const done = await runCli([
    'task',
    'get',
    `mcp+${url}`,
    taskId,
    '--wait',
    '--input',
    `interpretation=${interpretation}`,
  ])
  expect(done.code, done.stderr).toBe(0)
  expect(done.stdout).toContain(`**Clarification**: ${interpretation}`)
}

describe('questions and tasks through the gateway', () => {
  test('a 2026 client that cannot answer an upstream question: refused upstream, the call ends, the gateway goes on', async () => {
    const dir = scratch()
    const serving = await startServe([fixtureReference(join(dir, 'marks')), '--port', '0'], {
      XDG_CACHE_HOME: dir,
    })
    const client = new ClientV2(
      { name: 'no-elicitation', version: '1.0.0' },
      { capabilities: {}, versionNegotiation: { mode: 'auto' } },
    )
    await client.connect(new HttpTransportV2(new URL(serving.url)))
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28')
      // Before, the gateway asked the refused question again and again without yielding: 100% CPU,
      // no request answered, SIGTERM ignored.
      const settled = await Promise.race([
        client.callTool({ name: 'fixture__ask', arguments: {} }).then(
          (result) => ({ result }),
          (error: unknown) => ({ error }),
        ),
        new Promise((resolve) => setTimeout(() => resolve('no answer in 20 s'), 20_000)),
      ])
      expect(settled).not.toBe('no answer in 20 s')
      const health = await fetch(new URL('/healthz', serving.url), { signal: AbortSignal.timeout(5000) })
      expect(health.status).toBe(200)
      const echo = await client.callTool({ name: 'fixture__echo', arguments: { text: 'still here' } })
      expect(text(echo)).toContain('still here')
    } finally {
      await client.close()
    }
  })

  test("an upstream's task tool is a task here too: --detach prints it, its question is answered through task get", async () => {
    const dir = scratch()
    const serving = await startServe([`everything=mcp+node://${npmServers.everything}`, '--port', '0'], {
      XDG_CACHE_HOME: dir,
    })
    const reference = `mcp+${serving.url}?tool=everything__simulate-research-query`
    const taskId = await startResearch(serving.url)
    await expectAnswered(serving.url, taskId, 'technical')
    // A 2025-11-25 client still gets the report in the request (the gateway follows the task).
    const legacy = await runCli(['cat', reference, 'topic=tides', '--protocol', '2025-11-25'])
    expect(legacy.code, legacy.stderr).toBe(0)
    expect(legacy.stdout).toContain('# Research Report: tides')
  })

  test.skipIf(redis === undefined)(
    'two gateway instances on Redis: a task started through one is answered and followed through the other',
    async () => {
      const dir = scratch()
      const shared = [
        '--store',
        redis?.url ?? '',
        '--store-prefix',
        `mcp-kit-test:${Date.now()}-${process.pid}:`,
      ]
      const [first, second] = await Promise.all(
        [1, 2].map(() =>
          startServe([`everything=mcp+node://${npmServers.everything}`, '--port', '0', ...shared], {
            XDG_CACHE_HOME: dir,
          }),
        ),
      )
      const taskId = await startResearch(first?.url ?? '')
      // The upstream's question waits in the first instance; the answer comes through the second.
      await expectAnswered(second?.url ?? '', taskId, 'historical')
    },
    // Two gateways, each launching server-everything, and Redis: 8 s alone, past vitest's 30 s
    // default once inside the whole suite on two cores.
    90_000,
  )
})
