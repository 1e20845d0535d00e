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
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import {
  type Caller,
  clients,
  identities as identitiesOf,
  nothingSeen,
  type Opened,
  pinAnswers,
  type Seen,
  token,
} from '../helpers/callers.js'
import {
  eventually,
  marks,
  nodeServer,
  startGateway,
  startHttpUpstream,
  temporaryDir,
} from '../helpers/gateways.js'

const teller = fileURLToPath(new URL('../fixtures/teller.mjs', import.meta.url))
const sdkTeller = fileURLToPath(new URL('../fixtures/sdk-teller.mjs', import.meta.url))

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
  "mcp-kit over stdio (2026-07-28, questions in the call's result)": async () => ({
    server: nodeServer(teller),
    connect: { protocol: '2026-07-28' },
  }),
}

const identities = identitiesOf(() => authServer)

describe("each caller gets its own calls' questions and logs, and its answers reach its own calls", () => {
  for (const [upstreamLabel, upstream] of Object.entries(upstreams)) {
    for (const [identityLabel, identity] of Object.entries(identities)) {
      for (const [clientLabel, open] of Object.entries(clients)) {
        // 2026 clients have no session: those of one token are one caller, and its two calls on
        // a session that says nothing about its questions are refused (below).
        const oneCaller = identityLabel.includes('static') && clientLabel.includes('v2')
        if (oneCaller && upstreamLabel.includes('stdio (2025')) continue
        test(`${upstreamLabel}; ${identityLabel}; ${clientLabel}`, async () => {
          const setup = await upstream()
          const { url } = await startGateway(
            { upstreams: [{ name: 'bank', server: setup.server, connect: setup.connect }] },
            identity.serve(),
          )
          const callers = await identity.callers(url)
          const asked = { count: 0 }
          const seen: Seen[] = callers.map(nothingSeen)
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
  // One caller, two calls at once on a session that says nothing about its questions: which
  // call asked cannot be told. A 2026 client has no session, so two of them with one token are
  // one caller; a 2025 client's session is a caller of its own (the matrix above).
  const v1 = clients['SDK v1 clients (2025-11-25 sessions)'] as (typeof clients)[string]
  const v2 = clients['SDK v2 clients (2026-07-28 calls)'] as (typeof clients)[string]
  const cases: Record<string, (url: string, seen: Seen[], asked: { count: number }) => Promise<Opened[]>> = {
    'one SDK v1 client (one session) calling twice at once': async (url, seen, asked) => {
      const one = await v1(url, headers, seen[0] as Seen, pinAnswers('1111', asked))
      return [one, one]
    },
    'two SDK v2 clients of one static token (no sessions: one caller)': (url, seen, asked) =>
      Promise.all([
        v2(url, headers, seen[0] as Seen, pinAnswers('1111', asked)),
        v2(url, headers, seen[1] as Seen, pinAnswers('2222', asked)),
      ]),
  }
  const headers = { authorization: `Bearer ${token}` }
  for (const [label, open] of Object.entries(cases)) {
    test(`${label}, on a stdio 2025 upstream: both questions refused; one call alone is asked`, async () => {
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
      const asked = { count: 0 }
      const seen: Seen[] = [nothingSeen(), nothingSeen()]
      const [alice, bob] = (await open(url, seen, asked)) as [Opened, Opened]
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
        if (bob !== alice) await bob.close()
      }
    })
  }
})

describe('a 2025 upstream keeps a session per caller', () => {
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
        const client = await open(running.url, headers, nothingSeen(), async () => ({
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
