// The operator's controls, end to end over HTTP with in-process upstreams: named tokens, a policy
// that hides and refuses, argument conditions, rate limits with the documented error, the audit
// log, and a reload that adds an upstream and changes a rule while sessions go on.

import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { ClientError, connect, type Session } from '@mcp-kit/client'
import { createToolRegistry, type RunningHttpServer, startHttpServer } from '@mcp-kit/server'
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport as HttpTransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { afterEach, expect, test } from 'vitest'
import { createGateway, type GatewayOptions, rateLimitedCode, tokenVerifier } from '../../src/index.js'
import { eventually, temporaryDir } from '../helpers/gateways.js'

const closers: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close()
})

const tokens = [
  { name: 'alice', token: 'alice-token-0123456789', scopes: ['math'], claims: { groups: ['eng'] } },
  { name: 'bob', token: 'bob-token-0123456789ab', scopes: [], claims: {} },
]

async function upstream(name: string): Promise<RunningHttpServer> {
  const registry = createToolRegistry()
    .tool({
      name: 'add',
      inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } },
      annotations: { readOnlyHint: true, destructiveHint: false },
      handler: ({ a, b }) => String(Number(a) + Number(b)),
    })
    .tool({
      name: 'echo',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
      annotations: { readOnlyHint: true, destructiveHint: false },
      handler: ({ text }) => `${name}: ${String(text)}`,
    })
    .tool({ name: 'wipe', annotations: { destructiveHint: true }, handler: () => 'wiped' })
  const server = await startHttpServer(registry)
  closers.push(() => server.close())
  return server
}

async function gatewayOver(
  options: Omit<GatewayOptions, 'upstreams'> & Partial<Pick<GatewayOptions, 'upstreams'>>,
) {
  const first = await upstream('one')
  const gateway = createGateway({
    upstreams: [{ name: 'one', server: { transport: 'http', url: first.url } }],
    ...options,
  })
  await gateway.start()
  closers.push(() => gateway.close())
  const front = await startHttpServer(gateway.registry, { verifyToken: tokenVerifier(tokens) })
  closers.push(() => front.close())
  return { gateway, front, first }
}

async function clientOf(url: string, token: string): Promise<Session> {
  const session = await connect({ transport: 'http', url }, { headers: { Authorization: `Bearer ${token}` } })
  closers.push(() => session.close())
  return session
}

async function legacyClientOf(url: string, token: string): Promise<ClientV1> {
  const client = new ClientV1({ name: 'legacy', version: '1.0.0' })
  await client.connect(
    new HttpTransportV1(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }),
  )
  closers.push(() => client.close())
  return client
}

const names = async (session: Session) => (await session.listTools()).map((tool) => tool.name).sort()

test('a principal without the scope neither sees nor can call a denied tool; another can (both eras)', async () => {
  const { front } = await gatewayOver({
    policy: {
      default: 'allow',
      rules: [
        { effect: 'deny', what: { tools: ['one__add'] }, unless: { scopes: ['math'] } },
        { effect: 'deny', what: { annotations: { destructiveHint: true } }, for: { token: ['bob'] } },
      ],
    },
  })
  const alice = await clientOf(front.url, tokens[0]?.token as string)
  const bob = await clientOf(front.url, tokens[1]?.token as string)
  expect(await names(alice)).toEqual(['one__add', 'one__echo', 'one__wipe'])
  expect(await names(bob)).toEqual(['one__echo'])
  expect((await alice.callTool('one__add', { a: 2, b: 3 })).content).toEqual([{ type: 'text', text: '5' }])
  // Bob's call of a tool he may not see is answered as for a tool that does not exist.
  const denied = await bob.callTool('one__add', { a: 2, b: 3 }).catch((error: unknown) => error)
  const missing = await bob.callTool('one__nothing', {}).catch((error: unknown) => error)
  expect(ClientError.isInstance(denied) && denied.details?.rpcCode).toBe(-32602)
  expect((denied as Error).message).toContain('Unknown tool: one__add')
  expect(ClientError.isInstance(missing) && missing.details?.rpcCode).toBe(-32602)
  await expect(bob.callTool('one__wipe', {})).rejects.toThrow(/Unknown tool: one__wipe/)
  // A 2025-11-25 client (the SDK v1, in a session) gets the same.
  const legacyBob = await legacyClientOf(front.url, tokens[1]?.token as string)
  expect((await legacyBob.listTools()).tools.map((tool) => tool.name)).toEqual(['one__echo'])
  await expect(legacyBob.callTool({ name: 'one__add', arguments: { a: 1, b: 1 } })).rejects.toThrow(
    /Unknown tool: one__add/,
  )
  const legacyAlice = await legacyClientOf(front.url, tokens[0]?.token as string)
  expect((await legacyAlice.callTool({ name: 'one__add', arguments: { a: 1, b: 1 } })).content).toEqual([
    { type: 'text', text: '2' },
  ])
})

test('an argument condition ties a call to its caller: echo only your own name', async () => {
  const { front } = await gatewayOver({
    policy: {
      default: 'allow',
      rules: [
        { effect: 'allow', what: { tools: ['one__echo'] }, arguments: { text: { equals: '$token' } } },
        { effect: 'allow', what: { tools: ['one__echo'] }, for: { claims: { groups: ['eng'] } } },
        { effect: 'deny', what: { tools: ['one__echo'] } },
      ],
    },
  })
  const bob = await clientOf(front.url, tokens[1]?.token as string)
  const alice = await clientOf(front.url, tokens[0]?.token as string)
  // Listed (an allow with a condition may match), decided at the call.
  expect(await names(bob)).toContain('one__echo')
  expect((await bob.callTool('one__echo', { text: 'bob' })).content).toEqual([
    { type: 'text', text: 'one: bob' },
  ])
  await expect(bob.callTool('one__echo', { text: 'alice' })).rejects.toThrow(/Unknown tool/)
  // Alice is in the eng group (a claim of her token): any text.
  expect((await alice.callTool('one__echo', { text: 'anyone' })).content).toEqual([
    { type: 'text', text: 'one: anyone' },
  ])
})

test('a rate limit refuses the call past it with the documented error and when to retry', async () => {
  const { front } = await gatewayOver({
    limits: [{ kind: 'rate', rate: 10, perSeconds: 60, burst: 10, by: 'principal', tools: ['one__*'] }],
  })
  const bob = await clientOf(front.url, tokens[1]?.token as string)
  const alice = await clientOf(front.url, tokens[0]?.token as string)
  const outcomes = await Promise.allSettled(
    Array.from({ length: 11 }, (_, index) => bob.callTool('one__add', { a: index, b: 0 })),
  )
  const refused = outcomes.filter((outcome) => outcome.status === 'rejected')
  expect(refused).toHaveLength(1)
  const error = (refused[0] as PromiseRejectedResult).reason
  expect(ClientError.isInstance(error) && error.details?.rpcCode).toBe(rateLimitedCode)
  expect((error as Error).message).toMatch(
    /Rate limited: 10 calls per minute for each principal on one__\*; retry in \d/,
  )
  const data = (error as ClientError).details?.data as {
    retryAfterMs: number
    retryAfter: number
    limit: number
  }
  expect(data.retryAfterMs).toBeGreaterThan(0)
  expect(data.retryAfter).toBeGreaterThanOrEqual(1)
  expect(data.limit).toBe(0)
  // Per principal: alice has her own bucket.
  expect((await alice.callTool('one__add', { a: 1, b: 1 })).isError).not.toBe(true)
})

test('a concurrency cap refuses calls past it while the upstream is busy', async () => {
  let release: (() => void) | undefined
  const gate = new Promise<void>((resolve) => {
    release = resolve
  })
  const slow = await startHttpServer(
    createToolRegistry().tool({
      name: 'wait',
      handler: async () => {
        await gate
        return 'done'
      },
    }),
  )
  closers.push(() => slow.close())
  const gateway = createGateway({
    upstreams: [{ name: 'slow', server: { transport: 'http', url: slow.url } }],
    limits: [{ kind: 'concurrency', concurrency: 2, upstream: ['slow'] }],
  })
  await gateway.start()
  closers.push(() => gateway.close())
  const front = await startHttpServer(gateway.registry)
  closers.push(() => front.close())
  const session = await connect({ transport: 'http', url: front.url })
  closers.push(() => session.close())
  const first = session.callTool('slow__wait', {})
  const second = session.callTool('slow__wait', {})
  await eventually(async () => {
    const third = await session.callTool('slow__wait', {}).catch((error: unknown) => error)
    return ClientError.isInstance(third) && third.details?.rpcCode === rateLimitedCode
  })
  release?.()
  expect((await first).content).toEqual([{ type: 'text', text: 'done' }])
  expect((await second).content).toEqual([{ type: 'text', text: 'done' }])
  expect((await session.callTool('slow__wait', {})).content).toEqual([{ type: 'text', text: 'done' }])
})

test('the audit log has one record per call, refusals included, secrets redacted', async () => {
  const path = join(temporaryDir(), 'audit.ndjson')
  const { front, gateway } = await gatewayOver({
    policy: { default: 'allow', rules: [{ effect: 'deny', what: { tools: ['one__wipe'] } }] },
    limits: [
      { kind: 'rate', rate: 2, perSeconds: 3600, burst: 2, by: 'principal+tool', tools: ['one__add'] },
    ],
    audit: { path, arguments: true, results: true },
  })
  const bob = await clientOf(front.url, tokens[1]?.token as string)
  await bob.callTool('one__echo', { text: 'hello', api_key: 'sk-live-123', note: 'Bearer abc.def' })
  await bob.callTool('one__add', { a: 1, b: 2 })
  await bob.callTool('one__add', { a: 1, b: 2 })
  await bob.callTool('one__add', { a: 1, b: 2 }).catch(() => {})
  await bob.callTool('one__wipe', {}).catch(() => {})
  await gateway.close()
  const records = readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line))
  expect(records.map((record) => [record.name, record.decision, record.outcome])).toEqual([
    ['one__echo', 'allow', 'ok'],
    ['one__add', 'allow', 'ok'],
    ['one__add', 'allow', 'ok'],
    ['one__add', 'limit', 'limited'],
    ['one__wipe', 'deny', 'denied'],
  ])
  const [echo] = records
  expect(echo).toMatchObject({
    principal: 'client:mcp-kit:token|bob',
    token: 'bob',
    upstream: 'one',
    method: 'tools/call',
    arguments: { text: 'hello', api_key: '[redacted]', note: '[redacted]' },
    result: { content: [{ type: 'text', text: 'one: hello' }] },
  })
  expect(echo.request_bytes).toBeGreaterThan(10)
  expect(echo.response_bytes).toBeGreaterThan(10)
  expect(typeof echo.duration_ms).toBe('number')
  expect(Date.parse(echo.time)).not.toBeNaN()
  expect(records[3]).toMatchObject({ limit: 0 })
  expect(records[4]).toMatchObject({ rule: 0 })
})

test('a reload adds an upstream and changes a rule; the sessions of the upstream that stays go on', async () => {
  const { gateway, front, first } = await gatewayOver({
    policy: { default: 'allow', rules: [{ effect: 'deny', what: { tools: ['one__wipe'] } }] },
  })
  const second = await upstream('two')
  const bob = await legacyClientOf(front.url, tokens[1]?.token as string)
  expect((await bob.listTools()).tools.map((tool) => tool.name).sort()).toEqual(['one__add', 'one__echo'])
  await bob.callTool({ name: 'one__echo', arguments: { text: 'before' } })
  const upstreamSessions = first.handler.stats().sessions
  const kept = gateway.upstreams.get('one')
  const changes = await gateway.reconfigure({
    upstreams: [
      { name: 'one', server: { transport: 'http', url: first.url } },
      { name: 'two', server: { transport: 'http', url: second.url } },
    ],
    policy: { default: 'allow', rules: [{ effect: 'deny', what: { tools: ['one__add'] } }] },
  })
  expect(changes).toEqual({ added: ['two'], removed: [], changed: [], kept: ['one'] })
  expect(gateway.upstreams.get('one')).toBe(kept)
  // Bob's session with the gateway goes on: no new initialize, the new lists at once.
  expect((await bob.listTools()).tools.map((tool) => tool.name).sort()).toEqual([
    'one__echo',
    'one__wipe',
    'two__add',
    'two__echo',
    'two__wipe',
  ])
  expect((await bob.callTool({ name: 'two__echo', arguments: { text: 'after' } })).content).toEqual([
    { type: 'text', text: 'two: after' },
  ])
  await expect(bob.callTool({ name: 'one__add', arguments: { a: 1, b: 1 } })).rejects.toThrow(/Unknown tool/)
  expect((await bob.callTool({ name: 'one__echo', arguments: { text: 'still' } })).content).toEqual([
    { type: 'text', text: 'one: still' },
  ])
  // The upstream that stayed kept its session with the gateway: none was opened anew.
  expect(first.handler.stats().sessions).toBe(upstreamSessions)
  // An upstream whose settings changed is restarted as a new one; the other is kept.
  const third = await upstream('three')
  const moved = await gateway.reconfigure({
    upstreams: [
      { name: 'one', server: { transport: 'http', url: first.url } },
      { name: 'two', server: { transport: 'http', url: third.url } },
    ],
    policy: { default: 'allow', rules: [{ effect: 'deny', what: { tools: ['one__add'] } }] },
  })
  expect(moved).toEqual({ added: [], removed: [], changed: ['two'], kept: ['one'] })
  expect(gateway.upstreams.get('one')).toBe(kept)
  await eventually(async () => {
    const answer = await bob
      .callTool({ name: 'two__echo', arguments: { text: 'moved' } })
      .catch(() => undefined)
    return JSON.stringify(answer?.content ?? '').includes('three: moved')
  })
  // A config that cannot be used changes nothing.
  await expect(
    gateway.reconfigure({
      upstreams: [
        { name: 'one', server: { transport: 'http', url: first.url } },
        { name: 'one', server: { transport: 'http', url: second.url } },
      ],
    }),
  ).rejects.toThrow(/two upstreams are named 'one'/)
  expect((await bob.listTools()).tools.map((tool) => tool.name)).toContain('two__echo')
  await expect(bob.callTool({ name: 'one__add', arguments: { a: 1, b: 1 } })).rejects.toThrow(/Unknown tool/)
})

test('under concurrent clients each call is decided for its own principal, limited in its own bucket and audited once', async () => {
  const path = join(temporaryDir(), 'audit.ndjson')
  const { front, gateway } = await gatewayOver({
    policy: {
      default: 'allow',
      rules: [{ effect: 'deny', what: { tools: ['one__add'] }, unless: { scopes: ['math'] } }],
    },
    limits: [{ kind: 'rate', rate: 4, perSeconds: 3600, burst: 4, by: 'principal', tools: ['one__echo'] }],
    audit: { path },
  })
  const clients = await Promise.all([
    clientOf(front.url, tokens[0]?.token as string),
    clientOf(front.url, tokens[1]?.token as string),
    legacyClientOf(front.url, tokens[0]?.token as string),
    legacyClientOf(front.url, tokens[1]?.token as string),
  ])
  const outcome = (promise: Promise<unknown>) =>
    promise.then(
      () => 'ok',
      (error: Error) =>
        /Unknown tool/.test(error.message)
          ? 'denied'
          : /Rate limited/.test(error.message)
            ? 'limited'
            : error.message,
    )
  const calls = clients.flatMap((client, index) => {
    const who = index % 2 === 0 ? 'alice' : 'bob'
    return Array.from({ length: 6 }, (_, round) => {
      const tool = round % 2 === 0 ? 'one__add' : 'one__echo'
      const args = tool === 'one__add' ? { a: 1, b: round } : { text: `${who}-${round}` }
      const call =
        client instanceof ClientV1
          ? client.callTool({ name: tool, arguments: args })
          : client.callTool(tool, args)
      return outcome(call).then((result) => ({ who, tool, result }))
    })
  })
  const results = await Promise.all(calls)
  const count = (who: string, tool: string, result: string) =>
    results.filter((entry) => entry.who === who && entry.tool === tool && entry.result === result).length
  // Alice may add, Bob may not; each principal's 6 echo calls (from two clients) share a bucket of 4.
  expect(count('alice', 'one__add', 'ok')).toBe(6)
  expect(count('bob', 'one__add', 'denied')).toBe(6)
  expect([count('alice', 'one__echo', 'ok'), count('alice', 'one__echo', 'limited')]).toEqual([4, 2])
  expect([count('bob', 'one__echo', 'ok'), count('bob', 'one__echo', 'limited')]).toEqual([4, 2])
  await gateway.close()
  const records = readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line))
  expect(records).toHaveLength(24)
  expect(records.filter((record) => record.token === 'bob' && record.outcome === 'denied')).toHaveLength(6)
  expect(records.filter((record) => record.token === 'alice' && record.outcome === 'ok')).toHaveLength(10)
  expect(records.filter((record) => record.outcome === 'limited')).toHaveLength(4)
})

test('a reload that keeps a limit keeps its counts; a changed limit starts afresh', async () => {
  const limit = { kind: 'rate' as const, rate: 2, perSeconds: 3600, burst: 2, by: 'principal' as const }
  const { gateway, front, first } = await gatewayOver({ limits: [limit] })
  const bob = await clientOf(front.url, tokens[1]?.token as string)
  await bob.callTool('one__echo', { text: '1' })
  await bob.callTool('one__echo', { text: '2' })
  const upstreams = [{ name: 'one', server: { transport: 'http' as const, url: first.url } }]
  await gateway.reconfigure({ upstreams, limits: [limit], policy: { default: 'allow', rules: [] } })
  await expect(bob.callTool('one__echo', { text: '3' })).rejects.toThrow(/Rate limited/)
  await gateway.reconfigure({ upstreams, limits: [{ ...limit, rate: 3, burst: 3 }] })
  expect(text(await bob.callTool('one__echo', { text: '4' }))).toBe('one: 4')
})

function text(result: { content?: unknown }): string {
  return ((result.content as Array<{ text?: string }>)[0]?.text ?? '') as string
}
