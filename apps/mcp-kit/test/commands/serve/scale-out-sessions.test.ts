// @module-tag integration
// 2025-11-25 sessions on three `mcp-kit serve --store redis://…` instances behind a round-robin
// proxy (no affinity): a session opened on one instance keeps working when its next requests land
// on the others, questions answered through a different instance than the one that asked; after
// the instance holding the client's stream is killed, the client resumes with Last-Event-ID on
// another and gets every message once; a request whose instance is killed mid-stream ends with
// an error answer on resume, never a hang.

import { randomUUID } from 'node:crypto'
import { fileURLToPath } from 'node:url'
import { redisForTests } from '@mcp-kit/fixtures/redis'
import { readSse, type SseReader } from '@mcp-kit/fixtures/sse'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, afterEach, expect, test } from 'vitest'
import { type Serving, startServe, stopStarted } from '../../helpers/helpers.js'
import { openLegacySession } from '../../helpers/legacy-session.js'
import { pollUntil } from '../../helpers/poll.js'
import { closeProxies, roundRobin } from '../../helpers/round-robin.js'

const registry = fileURLToPath(new URL('../../fixtures/scale-registry.mjs', import.meta.url))
const redis = await redisForTests({ what: 'apps/mcp-kit/test/commands/serve/scale-out-sessions.test.ts' })
const redisUrl = redis?.url ?? 'redis://unavailable'
const accept = 'application/json, text/event-stream'

afterAll(async () => {
  await redis?.stop()
})

afterEach(async () => {
  await closeProxies()
  await stopStarted()
})

async function threeInstances(): Promise<{ instances: Serving[]; url: string; log: ProxyLog[] }> {
  const prefix = `mcp-kit-test:${randomUUID()}:`
  const instances = await Promise.all(
    [1, 2, 3].map(() => startServe([registry, '--port', '0', '--store', redisUrl, '--store-prefix', prefix])),
  )
  const log: ProxyLog[] = []
  const url = await roundRobin(
    instances.map((instance) => instance.url),
    (target, body) => log.push({ target, body }),
  )
  return { instances, url, log }
}

interface ProxyLog {
  target: string
  body: string
}

function post(url: string, body: unknown, headers: Record<string, string>, accepts = accept) {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: accepts, ...headers },
    body: JSON.stringify(body),
  })
}

function get(url: string, headers: Record<string, string>, lastEventId?: string) {
  const controller = new AbortController()
  const response = fetch(url, {
    signal: controller.signal,
    headers: {
      accept: 'text/event-stream',
      ...headers,
      ...(lastEventId ? { 'last-event-id': lastEventId } : {}),
    },
  })
  return { response, close: () => controller.abort() }
}

function killed(instance: Serving) {
  instance.child.kill('SIGKILL')
  return instance.exited
}

test.skipIf(redis === undefined)(
  'an SDK v1 client behind the balancer: its session is served by all three instances, and each question is answered through another instance than the one that asked',
  async () => {
    const { url, log } = await threeInstances()
    const client = new Client({ name: 'scale-2025', version: '1.0.0' }, { capabilities: { elicitation: {} } })
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { ok: true } }))
    const transport = new StreamableHTTPClientTransport(new URL(url))
    await client.connect(transport)
    try {
      expect(client.getServerVersion()?.name).toBe('mcp-kit')
      const pids = new Set<string>()
      for (let index = 0; index < 6; index++) {
        const result = await client.callTool({ name: 'whoami', arguments: {} })
        pids.add((result.content as Array<{ text: string }>)[0]?.text as string)
      }
      expect(pids.size).toBe(3)
      for (let index = 0; index < 3; index++) {
        const result = await client.callTool({ name: 'confirm', arguments: {} })
        expect((result.content as Array<{ text: string }>)[0]?.text).toMatch(/^confirmed by \d+$/)
      }
    } finally {
      await transport.terminateSession()
      await client.close()
    }
    // Where each call went, and where its answer to the question went.
    const calls = log.filter((entry) => entry.body.includes('"name":"confirm"'))
    const answers = log.filter((entry) => entry.body.includes('"action":"accept"'))
    expect(calls.length).toBe(3)
    expect(answers.length).toBe(3)
    for (const [index, call] of calls.entries()) expect(answers[index]?.target).not.toBe(call.target)
  },
)

test.skipIf(redis === undefined)(
  'the instance holding the GET stream is killed: the client resumes with Last-Event-ID on another and gets every message once',
  async () => {
    const { instances, url } = await threeInstances()
    const [holder, asker] = instances as [Serving, Serving, Serving]
    const headers = await openLegacySession(url, { elicitation: {} })
    const stream = get(holder.url, headers)
    const first = readSse(await stream.response)
    // JSON-only calls: their questions go out on the session's GET stream, wherever it is held.
    const call = (id: number) =>
      post(
        asker.url,
        { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'confirm', arguments: {} } },
        headers,
        'application/json',
      ).then(
        (response) =>
          response.json() as Promise<{ id: number; result?: { content: Array<{ text: string }> } }>,
      )
    const answer = (questionId: string | number) =>
      post(
        url,
        { jsonrpc: '2.0', id: questionId, result: { action: 'accept', content: { ok: true } } },
        headers,
      )
    const questions = (reader: SseReader) =>
      reader.messages().filter((message) => message.method === 'elicitation/create')
    const one = call(1)
    await pollUntil('the first question on the held stream', () => questions(first).length === 1 || undefined)
    expect((await answer(questions(first)[0].id)).status).toBe(202)
    expect((await one).result?.content[0]?.text).toMatch(/^confirmed by/)
    const lastSeen = first.events().at(-1)?.id as string
    await killed(holder)
    stream.close()
    // Asked while no stream is held anywhere.
    const two = call(2)
    const three = call(3)
    const resumed = get(url, headers, lastSeen)
    const second = readSse(await resumed.response)
    await pollUntil(
      'the two questions asked meanwhile, replayed',
      () => questions(second).length === 2 || undefined,
    )
    for (const question of questions(second)) expect((await answer(question.id)).status).toBe(202)
    expect((await two).result?.content[0]?.text).toMatch(/^confirmed by/)
    expect((await three).result?.content[0]?.text).toMatch(/^confirmed by/)
    resumed.close()
    const eventIds = [...first.events(), ...second.events()].map((event) => event.id)
    expect(new Set(eventIds).size).toBe(eventIds.length)
    const questionIds = [...questions(first), ...questions(second)].map((question) => question.id)
    expect(new Set(questionIds).size).toBe(3)
  },
)

test.skipIf(redis === undefined)(
  "a request's instance is killed mid-stream: resumed on another, the client gets the rest of what was sent and an error answer, not a hang",
  async () => {
    const { instances, url } = await threeInstances()
    const runner = instances[0] as Serving
    const headers = await openLegacySession(url, { elicitation: {} })
    const response = await post(
      runner.url,
      {
        jsonrpc: '2.0',
        id: 5,
        method: 'tools/call',
        params: { name: 'crawl', arguments: {}, _meta: { progressToken: 'c' } },
      },
      headers,
    )
    const first = readSse(response)
    await pollUntil('progress from the running call', () => first.messages().length >= 3 || undefined)
    await killed(runner)
    await first.done
    const seen = first.messages().map((message) => message.params?.progress)
    let lastId = first.events().at(-1)?.id as string
    let final: { id?: number; error?: { message: string } } | undefined
    const replayed: number[] = []
    const deadline = Date.now() + 20_000
    while (final === undefined) {
      if (Date.now() > deadline) throw new Error('no answer after the instance died')
      const again = readSse(await get(url, headers, lastId).response)
      await again.done
      for (const message of again.messages()) {
        if (message.method === 'notifications/progress') replayed.push(message.params.progress)
        else final = message
      }
      lastId = again.events().at(-1)?.id ?? lastId
      if (final === undefined) await new Promise((resolve) => setTimeout(resolve, 250))
    }
    expect(final.id).toBe(5)
    expect(final.error?.message).toMatch(/went away/)
    // No progress seen twice, none skipped: what was seen, then what was replayed, counts up by one.
    const all = [...seen, ...replayed]
    expect(all).toEqual(all.map((_, index) => index + 1))
  },
)
