// @module-tag integration
// `mcp-kit serve` as a gateway operators run, with real parts: Debian's Prometheus scraping its
// /metrics and a PromQL query counting the calls made; an OTLP/HTTP receiver getting one trace
// from the test's client span through the gateway's spans, whose context reaches an SDK v1
// upstream in `_meta` and headers; a rate limit shared by two instances on Redis; and a reload
// (--watch, SIGHUP) that adds an upstream and changes a rule under concurrent clients, refusing
// a bad file while the old config serves.

import { spawn } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { ClientError, connect, type Session } from '@mcp-kit/client'
import { prometheusMissing, startPrometheus } from '@mcp-kit/fixtures/prometheus'
import { redisForTests } from '@mcp-kit/fixtures/redis'
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport as HttpTransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http'
import { resourceFromAttributes } from '@opentelemetry/resources'
import { SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace'
import { afterAll, afterEach, expect, test } from 'vitest'
import { runCli, startServe, stopStarted } from '../../helpers/helpers.js'

const closers: Array<() => Promise<unknown>> = []
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close()
  await stopStarted()
})

const redis = await redisForTests({ what: 'apps/mcp-kit/test/commands/serve/gateway-ops.test.ts' })
afterAll(async () => {
  await redis?.stop()
})
const noPrometheus = prometheusMissing({ what: 'apps/mcp-kit/test/commands/serve/gateway-ops.test.ts' })

const fixture = fileURLToPath(
  new URL('../../../../../packages/gateway/test/fixtures/upstream.mjs', import.meta.url),
)
const traceUpstream = fileURLToPath(new URL('../../fixtures/trace-upstream.mjs', import.meta.url))

function scratch(): string {
  return mkdtempSync(join(tmpdir(), 'mcp-kit-gateway-ops-'))
}

const upstreamEntry = { command: process.execPath, args: [fixture] }
const aliceToken = 'alice-token-0123456789'
const bobToken = 'bob-token-0123456789ab'

async function clientOf(url: string, token?: string): Promise<Session> {
  const session = await connect(
    { transport: 'http', url },
    token === undefined ? {} : { headers: { Authorization: `Bearer ${token}` } },
  )
  closers.push(() => session.close())
  return session
}

async function legacyClientOf(url: string): Promise<ClientV1> {
  const client = new ClientV1({ name: 'legacy', version: '1.0.0' })
  await client.connect(new HttpTransportV1(new URL(url)))
  closers.push(() => client.close())
  return client
}

async function until<T>(check: () => Promise<T | undefined> | T | undefined, limitMs = 30_000): Promise<T> {
  const deadline = Date.now() + limitMs
  for (;;) {
    const value = await check()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error('condition not reached in time')
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

const text = (result: { content?: unknown }) =>
  ((result.content as Array<{ text?: string }>)[0]?.text ?? '') as string

test.skipIf(noPrometheus !== undefined)(
  "Prometheus scrapes the gateway's /metrics and a PromQL query returns the per-tool counts of the calls made",
  async () => {
    const dir = scratch()
    const config = join(dir, 'config.json')
    writeFileSync(config, JSON.stringify({ mcpServers: { one: upstreamEntry } }))
    const serving = await startServe(['--config', config, '--port', '0', '--metrics'])
    const session = await clientOf(serving.url)
    for (let index = 0; index < 3; index++) await session.callTool('one__echo', { text: `hi ${index}` })
    for (let index = 0; index < 2; index++) await session.callTool('one__pid', {})
    const origin = new URL(serving.url).origin
    const exposition = await (await fetch(`${origin}/metrics`)).text()
    expect(exposition).toContain(
      'mcp_gateway_calls_total{upstream="one",method="tools/call",name="one__echo",outcome="ok"} 3',
    )
    expect(exposition).toContain('mcp_gateway_upstream_up{upstream="one",state="running"} 1')
    expect(exposition).toMatch(/^mcp_gateway_sessions \d+$/m)
    const prometheus = await startPrometheus({ targets: [new URL(serving.url).host] })
    closers.push(() => prometheus.stop())
    const counts = await until(async () => {
      const result = await prometheus.query(
        'sum by (name) (mcp_gateway_calls_total{upstream="one",outcome="ok"})',
      )
      const byName = Object.fromEntries(result.map((sample) => [sample.metric.name, Number(sample.value[1])]))
      return byName.one__echo === 3 && byName.one__pid === 2 ? byName : undefined
    })
    expect(counts).toEqual({ one__echo: 3, one__pid: 2 })
    const timed = await prometheus.query('sum(mcp_gateway_call_duration_seconds_count{name="one__echo"})')
    expect(Number(timed[0]?.value[1])).toBe(3)
    // The admin endpoint (a local gateway without credentials: open) and the probes.
    const status = (await (await fetch(`${origin}/admin/status`)).json()) as {
      upstreams: Record<string, unknown>
      calls: unknown[]
    }
    expect(status.upstreams.one).toMatchObject({ state: 'running', up: true })
    expect(status.calls).toContainEqual(expect.objectContaining({ name: 'one__echo', calls: 3, errors: 0 }))
    expect((await fetch(`${origin}/healthz`)).status).toBe(200)
    const ready = await fetch(`${origin}/readyz`)
    expect(ready.status).toBe(200)
    expect(await ready.json()).toMatchObject({ ready: true, upstreams: { one: 'running' } })
  },
)

interface ReceivedSpan {
  traceId: string
  spanId: string
  parentSpanId?: string
  name: string
  kind: number
  attributes: Array<{ key: string; value: { stringValue?: string } }>
}

/** An OTLP/HTTP receiver (JSON, as the official @opentelemetry exporter sends it). */
async function otlpReceiver(): Promise<{ url: string; spans: ReceivedSpan[]; metrics: string[] }> {
  const spans: ReceivedSpan[] = []
  const metrics: string[] = []
  const server: Server = createServer((request, response) => {
    let body = ''
    request.setEncoding('utf8').on('data', (chunk: string) => (body += chunk))
    request.on('end', () => {
      const parsed = JSON.parse(body || '{}')
      if (request.url === '/v1/traces') {
        for (const resource of parsed.resourceSpans ?? [])
          for (const scope of resource.scopeSpans ?? []) spans.push(...(scope.spans ?? []))
      } else if (request.url === '/v1/metrics') {
        for (const resource of parsed.resourceMetrics ?? [])
          for (const scope of resource.scopeMetrics ?? [])
            for (const metric of scope.metrics ?? []) metrics.push(metric.name)
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  closers.push(() => new Promise((resolve) => server.close(resolve)))
  const address = server.address() as { port: number }
  return { url: `http://127.0.0.1:${address.port}`, spans, metrics }
}

function startTraceUpstream(): Promise<string> {
  const child = spawn(process.execPath, [traceUpstream], { stdio: ['ignore', 'pipe', 'inherit'] })
  closers.push(async () => {
    if (child.exitCode === null) {
      child.kill('SIGKILL')
      await new Promise((resolve) => child.once('exit', resolve))
    }
  })
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the trace upstream exited (${code})`)))
    child.stdout.setEncoding('utf8').once('data', (line: string) => resolve(line.trim()))
  })
}

const attribute = (span: ReceivedSpan, key: string) =>
  span.attributes.find((entry) => entry.key === key)?.value.stringValue

test('one OTLP trace spans the client, the gateway and the upstream', async () => {
  const receiver = await otlpReceiver()
  const upstreamUrl = await startTraceUpstream()
  const dir = scratch()
  const config = join(dir, 'config.json')
  writeFileSync(config, JSON.stringify({ mcpServers: { trace: { type: 'http', url: upstreamUrl } } }))
  const serving = await startServe(['--config', config, '--port', '0', '--otlp', receiver.url], {
    OTEL_METRIC_EXPORT_INTERVAL: '500',
    OTEL_SERVICE_NAME: 'gateway-under-test',
  })
  // The client's own span, exported by the official SDK to the same receiver.
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'test-client' }),
    spanProcessors: [
      new SimpleSpanProcessor({ exporter: new OTLPTraceExporter({ url: `${receiver.url}/v1/traces` }) }),
    ],
  })
  closers.push(() => provider.shutdown())
  const clientSpan = provider.getTracer('test').startSpan('tools/call trace__whoami', { kind: 2 })
  const own = clientSpan.spanContext()
  const traceparent = `00-${own.traceId}-${own.spanId}-01`
  const session = await clientOf(serving.url)
  const seen = JSON.parse(text(await session.callTool('trace__whoami', {}, { meta: { traceparent } })))
  clientSpan.end()
  await provider.forceFlush()

  const gatewaySpans = await until(() => {
    const mine = receiver.spans.filter((span) => span.traceId === own.traceId && span.spanId !== own.spanId)
    return mine.length >= 2 ? mine : undefined
  })
  const server = gatewaySpans.find((span) => span.kind === 2) as ReceivedSpan // SERVER
  const client = gatewaySpans.find((span) => span.kind === 3) as ReceivedSpan // CLIENT
  expect(receiver.spans.some((span) => span.spanId === own.spanId)).toBe(true)
  expect(server).toMatchObject({ name: 'tools/call trace__whoami', parentSpanId: own.spanId })
  expect(attribute(server, 'mcp.method.name')).toBe('tools/call')
  expect(attribute(server, 'gen_ai.tool.name')).toBe('trace__whoami')
  expect(client).toMatchObject({ name: 'tools/call whoami', parentSpanId: server.spanId })
  expect(attribute(client, 'gen_ai.tool.name')).toBe('whoami')
  // The upstream got the gateway's CLIENT span as its parent, in _meta and in the HTTP header.
  const passedOn = `00-${own.traceId}-${client.spanId}-01`
  expect(seen).toEqual({ meta: passedOn, header: passedOn })
  // And the MCP semantic-convention metrics went out over OTLP too.
  await until(() => (receiver.metrics.includes('mcp.server.operation.duration') ? true : undefined))
})

test.skipIf(redis === undefined)(
  'two instances on Redis share one rate limit: 10 calls a minute, whichever instance',
  async () => {
    const dir = scratch()
    const config = join(dir, 'config.json')
    writeFileSync(config, JSON.stringify({ mcpServers: { one: upstreamEntry } }))
    const policy = join(dir, 'controls.json')
    writeFileSync(
      policy,
      JSON.stringify({
        tokens: { alice: aliceToken, bob: bobToken },
        limits: [{ rate: 10, per: 'minute', by: 'principal' }],
      }),
    )
    const prefix = `gateway-ops-${process.pid}-${Date.now()}:`
    const flags = [
      '--config',
      config,
      '--policy',
      policy,
      '--port',
      '0',
      '--store',
      redis?.url as string,
      '--store-prefix',
      prefix,
    ]
    const [first, second] = await Promise.all([startServe(flags), startServe(flags)])
    const viaFirst = await clientOf(first?.url as string, aliceToken)
    const viaSecond = await clientOf(second?.url as string, aliceToken)
    const outcomes: string[] = []
    for (const session of [viaFirst, viaSecond]) {
      for (let index = 0; index < 6; index++) {
        const outcome = await session.callTool('one__echo', { text: 'x' }).then(
          () => 'ok',
          (error: unknown) => (ClientError.isInstance(error) ? String(error.details?.rpcCode) : 'other'),
        )
        outcomes.push(outcome)
      }
    }
    expect(outcomes).toEqual([...Array(10).fill('ok'), '-32029', '-32029'])
    // Bob's bucket is his own, on either instance.
    expect(
      text(await (await clientOf(second?.url as string, bobToken)).callTool('one__echo', { text: 'b' })),
    ).toBe('echo: b')
  },
)

test('a reload adds an upstream and changes a rule under concurrent clients; a bad file is refused and the old config serves', async () => {
  const dir = scratch()
  const config = join(dir, 'gateway.jsonc')
  const write = (servers: Record<string, unknown>, deny: string) =>
    writeFileSync(
      config,
      `{
  // the team's gateway
  "mcpServers": ${JSON.stringify(servers)},
  "gateway": { "policy": { "rules": [ { "deny": { "tools": ["${deny}"] } } ] } }
}
`,
    )
  write({ one: upstreamEntry }, 'one__crash')
  const serving = await startServe(['--config', config, '--port', '0', '--watch'])
  const legacy = await legacyClientOf(serving.url)
  const listed = async () => (await legacy.listTools()).tools.map((tool) => tool.name)
  expect(await listed()).not.toContain('one__crash')
  const pid = text((await legacy.callTool({ name: 'one__pid', arguments: {} })) as { content: unknown })
  // Clients calling all along the reload: none of their calls may fail.
  const others = await Promise.all([1, 2, 3].map(() => clientOf(serving.url)))
  let calling = true
  const failures: unknown[] = []
  const loops = others.map(async (session, index) => {
    let calls = 0
    while (calling || calls === 0) {
      await session
        .callTool('one__echo', { text: `c${index}` })
        .catch((error: unknown) => failures.push(error))
      calls += 1
    }
    return calls
  })
  write({ one: upstreamEntry, two: upstreamEntry }, 'one__echo_nothing')
  await until(() =>
    /reloaded \(gateway\.jsonc changed\): added two/.test(serving.stderr()) ? true : undefined,
  )
  await until(async () => ((await listed()).includes('two__echo') ? true : undefined))
  calling = false
  expect((await Promise.all(loops)).every((calls) => calls > 0)).toBe(true)
  expect(failures).toEqual([])
  // The same session (no new initialize) sees the new upstream and the new rule.
  expect(await listed()).toContain('one__crash')
  expect(
    text((await legacy.callTool({ name: 'two__echo', arguments: { text: 'new' } })) as { content: unknown }),
  ).toBe('echo: new')
  // The upstream that stayed was not restarted.
  expect(text((await legacy.callTool({ name: 'one__pid', arguments: {} })) as { content: unknown })).toBe(pid)

  writeFileSync(
    config,
    '{ "mcpServers": { "one": {"command": "node"} }, "gateway": { "policy": { "rules": [ { "deny": 5 } ] } } }',
  )
  await until(() =>
    /reload refused \(gateway\.jsonc changed\): .*gateway\.jsonc:1:\d+: gateway\.policy\.rules\[0\]\.deny must be an object; the running config stays/.test(
      serving.stderr(),
    )
      ? true
      : undefined,
  )
  expect(await listed()).toContain('two__echo')
  expect(
    text(
      (await legacy.callTool({ name: 'two__echo', arguments: { text: 'still' } })) as { content: unknown },
    ),
  ).toBe('echo: still')

  // SIGHUP reloads too (here: the same file, fixed, taking the second upstream away).
  write({ one: upstreamEntry }, 'one__pid')
  await until(() =>
    /reloaded \(gateway\.jsonc changed\): removed two/.test(serving.stderr()) ? true : undefined,
  )
  serving.child.kill('SIGHUP')
  await until(() => (/reloaded \(SIGHUP\)/.test(serving.stderr()) ? true : undefined))
  expect(await listed()).not.toContain('two__echo')
  await expect(legacy.callTool({ name: 'one__pid', arguments: {} })).rejects.toThrow(/Unknown tool/)
})

test('controls at start: a bad file is exit 2 naming its line; named tokens gate the endpoint and /admin/status', async () => {
  const dir = scratch()
  const config = join(dir, 'config.json')
  writeFileSync(config, JSON.stringify({ mcpServers: { one: upstreamEntry } }))
  const bad = join(dir, 'bad.jsonc')
  writeFileSync(bad, '{\n  "limits": [\n    { "rate": 10, "per": "fortnight" }\n  ]\n}\n')
  const refused = await runCli(['serve', '--config', config, '--policy', bad, '--port', '0'])
  expect(refused.code).toBe(2)
  expect(refused.stderr).toContain(
    `--policy: ${bad}:3:19: limits[0].per must be second, minute, hour, day or a number of seconds`,
  )
  const notGateway = await runCli(['serve', '--port', '0', '--metrics'])
  expect(notGateway.code).toBe(2)
  expect(notGateway.stderr).toContain('--metrics applies to a gateway')

  const policy = join(dir, 'controls.json')
  writeFileSync(
    policy,
    JSON.stringify({
      tokens: { alice: { token: '${ALICE}', scopes: ['admin'] }, bob: { token: '${BOB}' } },
      policy: { rules: [{ deny: { tools: ['one__pid'] }, unless: { scopes: ['admin'] } }] },
      admin: { scopes: ['admin'] },
    }),
  )
  const serving = await startServe(['--config', config, '--policy', policy, '--port', '0', '--metrics'], {
    ALICE: aliceToken,
    BOB: bobToken,
  })
  expect(serving.stderr()).toContain('named tokens required')
  const origin = new URL(serving.url).origin
  expect((await fetch(serving.url, { method: 'POST', body: '{}' })).status).toBe(401)
  const bob = await clientOf(serving.url, bobToken)
  const alice = await clientOf(serving.url, aliceToken)
  expect((await bob.listTools()).map((tool) => tool.name)).not.toContain('one__pid')
  expect((await alice.listTools()).map((tool) => tool.name)).toContain('one__pid')
  const asBob = await fetch(`${origin}/admin/status`, { headers: { authorization: `Bearer ${bobToken}` } })
  expect(asBob.status).toBe(403)
  expect((await fetch(`${origin}/admin/status`)).status).toBe(401)
  const asAlice = await fetch(`${origin}/admin/status`, {
    headers: { authorization: `Bearer ${aliceToken}` },
  })
  expect(asAlice.status).toBe(200)
  expect(await asAlice.json()).toMatchObject({ upstreams: { one: { up: true } } })
  // A reload may change the tokens, not whether there are any: that would open the endpoint.
  writeFileSync(policy, JSON.stringify({ policy: { rules: [] } }))
  serving.child.kill('SIGHUP')
  await until(() =>
    /reload refused \(SIGHUP\): a reload cannot turn named tokens off/.test(serving.stderr())
      ? true
      : undefined,
  )
  expect((await fetch(serving.url, { method: 'POST', body: '{}' })).status).toBe(401)
  writeFileSync(
    policy,
    JSON.stringify({
      tokens: { alice: { token: '${ALICE}', scopes: ['admin'] } },
      admin: { scopes: ['admin'] },
    }),
  )
  const both = await runCli(
    ['serve', '--config', config, '--policy', policy, '--port', '0', '--token', 'x'],
    {
      env: { ALICE: aliceToken, BOB: bobToken },
    },
  )
  expect(both.code).toBe(2)
  expect(both.stderr).toContain('the tokens of the gateway controls replace --token')
})
