// @module-tag integration
// Server-to-client traffic of a gateway that serves several users at once: each caller sees the
// questions and log messages of its own calls only, and the answer an upstream gets is its
// caller's. Real parts throughout: upstreams (the MCP SDK v1 over HTTP, mcp-kit over stdio and
// HTTP), the gateway over HTTP on 127.0.0.1 behind a static token or OAuth from a real
// authorization server, and the official SDK clients of both protocol eras.

import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { ConnectOptions, ServerSpec } from '@mcp-kit/client'
import { processRunning } from '@mcp-kit/client/internal'
import { obtainToken, type RunningAuthServer, startAuthServer } from '@mcp-kit/fixtures/auth-server'
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as HttpTransportV2,
} from '@modelcontextprotocol/client'
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport as HttpTransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { ElicitRequestSchema, LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { eventually, marks, nodeServer, startGateway, startHttpUpstream, temporaryDir } from './helpers.js'

const teller = fileURLToPath(new URL('./fixtures/teller.mjs', import.meta.url))
const sdkTeller = fileURLToPath(new URL('./fixtures/sdk-teller.mjs', import.meta.url))

let authServer: RunningAuthServer
const stops: Array<() => Promise<void>> = []

beforeAll(async () => {
  authServer = await startAuthServer()
})
afterAll(async () => {
  await authServer?.close()
})
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop()
})

interface UpstreamSetup {
  server: ServerSpec
  connect: ConnectOptions
}

async function httpUpstream(script: string, connect: ConnectOptions): Promise<UpstreamSetup> {
  const running = await startHttpUpstream(0, script)
  stops.push(running.stop)
  return { server: { transport: 'http', url: running.url }, connect }
}

const upstreams: Record<string, () => Promise<UpstreamSetup>> = {
  "the MCP SDK over HTTP (2025-11-25, questions on the call's stream)": () => httpUpstream(sdkTeller, {}),
  'mcp-kit over stdio (2025-11-25, nothing on the wire names the call)': async () => ({
    server: nodeServer(teller),
    connect: { protocol: '2025-11-25' },
  }),
  "mcp-kit over HTTP (2026-07-28, questions in the call's result)": () =>
    httpUpstream(teller, { protocol: '2026-07-28' }),
}

/** What one caller saw. */
interface Seen {
  questions: string[]
  logs: string[]
}

interface Caller {
  who: string
  pin: string
  headers: Record<string, string>
}

type Identities = (gatewayUrl: string) => Promise<[Caller, Caller]>

const token = 'static-token-for-the-isolation-tests'

const identities: Record<string, { serve: () => Record<string, unknown>; callers: Identities }> = {
  'two OAuth users': {
    serve: () => ({ auth: { issuer: authServer.issuer } }),
    callers: async (url) => {
      const [alice, bob] = await Promise.all(
        ['alice', 'bob'].map((login) => obtainToken(authServer.issuer, { resource: url, login })),
      )
      return [
        { who: 'alice', pin: '1111', headers: { authorization: `Bearer ${alice?.access_token}` } },
        { who: 'bob', pin: '2222', headers: { authorization: `Bearer ${bob?.access_token}` } },
      ]
    },
  },
  'two clients of one static token': {
    serve: () => ({ token }),
    callers: async () => [
      { who: 'alice', pin: '1111', headers: { authorization: `Bearer ${token}` } },
      { who: 'bob', pin: '2222', headers: { authorization: `Bearer ${token}` } },
    ],
  },
}

interface Opened {
  call(who: string): Promise<string>
  close(): Promise<void>
}

type Answer = (message: string) => Promise<Record<string, unknown>>

/** Clients of both eras; `answer` answers each elicitation, `seen` records questions and logs. */
const clients: Record<
  string,
  (url: string, headers: Record<string, string>, seen: Seen, answer: Answer) => Promise<Opened>
> = {
  'SDK v1 clients (2025-11-25 sessions)': async (url, headers, seen, answer) => {
    const client = new ClientV1({ name: 'v1', version: '1.0.0' }, { capabilities: { elicitation: {} } })
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      seen.questions.push(request.params.message)
      return (await answer(request.params.message)) as never
    })
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
      seen.logs.push(String(notification.params.data))
    })
    await client.connect(new HttpTransportV1(new URL(url), { requestInit: { headers } }))
    return {
      call: async (who) => text(await client.callTool({ name: 'bank__pin', arguments: { who } })),
      close: () => client.close(),
    }
  },
  'SDK v2 clients (2026-07-28 calls)': async (url, headers, seen, answer) => {
    const client = new ClientV2(
      { name: 'v2', version: '1.0.0' },
      { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: 'auto' } },
    )
    client.setRequestHandler('elicitation/create', async (request) => {
      const message = (request.params as { message: string }).message
      seen.questions.push(message)
      return (await answer(message)) as never
    })
    client.setNotificationHandler('notifications/message', (notification) => {
      seen.logs.push(String(notification.params.data))
    })
    await client.connect(new HttpTransportV2(new URL(url), { requestInit: { headers } }))
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28')
    return {
      call: async (who) => text(await client.callTool({ name: 'bank__pin', arguments: { who } })),
      close: () => client.close(),
    }
  },
}

function text(result: unknown): string {
  const content = (result as { content?: Array<{ text?: string }> }).content ?? []
  return content.map((item) => item.text ?? '').join('')
}

/** Answers hold until both callers were asked (or 5 s passed), so that both calls are in flight. */
function pinAnswers(pin: string, asked: { count: number }): Answer {
  return async () => {
    asked.count += 1
    await eventually(() => asked.count >= 2, 5000).catch(() => {})
    return { action: 'accept', content: { pin } }
  }
}

describe("each caller gets its own calls' questions and logs, and its answers reach its own calls", () => {
  for (const [upstreamLabel, upstream] of Object.entries(upstreams)) {
    for (const [identityLabel, identity] of Object.entries(identities)) {
      // One principal's two calls on a session that says nothing about its questions: refused (below).
      if (identityLabel.includes('static') && upstreamLabel.includes('stdio')) continue
      for (const [clientLabel, open] of Object.entries(clients)) {
        test(`${upstreamLabel}; ${identityLabel}; ${clientLabel}`, async () => {
          const setup = await upstream()
          const { url } = await startGateway(
            { upstreams: [{ name: 'bank', server: setup.server, connect: setup.connect }] },
            identity.serve(),
          )
          const callers = await identity.callers(url)
          const asked = { count: 0 }
          const seen: Seen[] = callers.map(() => ({ questions: [], logs: [] }))
          const opened = await Promise.all(
            callers.map((caller, index) =>
              open(url, caller.headers, seen[index] as Seen, pinAnswers(caller.pin, asked)),
            ),
          )
          try {
            const results = await Promise.all(
              callers.map((caller, index) => (opened[index] as Opened).call(caller.who)),
            )
            for (const [index, caller] of callers.entries()) {
              const other = callers[1 - index] as Caller
              const mine = seen[index] as Seen
              expect(results[index]).toMatch(
                new RegExp(`^PIN for ${caller.who}( \\(call \\d+\\))?: ${caller.pin}$`),
              )
              expect(mine.questions).toHaveLength(1)
              expect(mine.questions[0]).toContain(`Enter the bank PIN for ${caller.who}`)
              expect(mine.logs.filter((log) => log.includes(other.who))).toEqual([])
              // 2026-07-28 upstreams send logs only to clients that ask for a level; the gateway does not.
              if (!upstreamLabel.includes('2026') && clientLabel.includes('v1'))
                expect(mine.logs).toContain(`working for ${caller.who}`)
            }
          } finally {
            await Promise.all(opened.map((client) => client.close()))
          }
        })
      }
    }
  }
})

describe('where the caller cannot be known, the question is refused', () => {
  test('one principal, two calls at once on a stdio 2025 upstream: both questions refused; one call alone is asked', async () => {
    const { url } = await startGateway(
      {
        upstreams: [
          {
            name: 'bank',
            server: { ...nodeServer(teller), env: { TELLER_TOGETHER: '2' } },
            connect: { protocol: '2025-11-25' },
          },
        ],
      },
      { token },
    )
    const headers = { authorization: `Bearer ${token}` }
    const asked = { count: 0 }
    const seen: Seen[] = [
      { questions: [], logs: [] },
      { questions: [], logs: [] },
    ]
    const open = clients['SDK v1 clients (2025-11-25 sessions)'] as (typeof clients)[string]
    const alice = await open(url, headers, seen[0] as Seen, pinAnswers('1111', asked))
    const bob = await open(url, headers, seen[1] as Seen, pinAnswers('2222', asked))
    try {
      const [first, second] = await Promise.all([alice.call('alice'), bob.call('bob')])
      for (const result of [first, second]) expect(result).toMatch(/gateway cannot tell which call/)
      expect(seen.flatMap((one) => one.questions)).toEqual([])
      // Alone, the call is the only one that can have asked.
      asked.count = 1
      expect(await alice.call('alice')).toBe('PIN for alice: 1111')
      expect(seen[0]?.questions).toEqual(['Enter the bank PIN for alice'])
    } finally {
      await alice.close()
      await bob.close()
    }
  })
})

describe('a 2025 upstream keeps a session per user', () => {
  test('each user calls a stdio upstream of its own; the longest idle makes room past maxUserSessions; none outlives the gateway', async () => {
    const markFile = join(temporaryDir(), 'marks')
    const running = await startGateway(
      {
        upstreams: [
          {
            name: 'bank',
            server: nodeServer(teller),
            connect: { protocol: '2025-11-25', env: { MARK_FILE: markFile } },
          },
        ],
        eager: true,
        maxUserSessions: 1,
      },
      identities['two OAuth users']?.serve(),
    )
    const tokens = await Promise.all(
      ['alice', 'bob', 'carol'].map((login) =>
        obtainToken(authServer.issuer, { resource: running.url, login }),
      ),
    )
    const started = () => marks(markFile).map((line) => Number(line.split(' ')[1]))
    expect(started()).toHaveLength(1) // the one discovery started
    const open = clients['SDK v1 clients (2025-11-25 sessions)'] as (typeof clients)[string]
    const opened: Opened[] = []
    try {
      for (const [index, login] of ['alice', 'bob', 'carol'].entries()) {
        const headers = { authorization: `Bearer ${tokens[index]?.access_token}` }
        const client = await open(running.url, headers, { questions: [], logs: [] }, async () => ({
          action: 'accept',
          content: { pin: login },
        }))
        opened.push(client)
        expect(await client.call(login)).toBe(`PIN for ${login}: ${login}`)
      }
      // alice took the session discovery started; bob got a process, which carol's replaced.
      const [first, bob, carol] = started()
      expect(started()).toHaveLength(3)
      await eventually(() => !processRunning(bob as number))
      expect(processRunning(first as number)).toBe(true)
      expect(processRunning(carol as number)).toBe(true)
    } finally {
      await Promise.all(opened.map((client) => client.close()))
    }
    await running.server.close()
    await running.gateway.close()
    for (const pid of started()) expect(processRunning(pid), `upstream ${pid} is gone`).toBe(false)
  })
})
