// @module-tag integration
// An upstream's question and log message sent outside any call, after the call that caused them
// is over and while another caller's call is in flight. A 2026-07-28 upstream's one session
// serves every caller, so they belong to none of them: the question is refused upstream and the
// log message goes to the operator only; what names its call (its own `input_required` result)
// still reaches that call's client. A 2025-11-25 upstream gives each caller (each client session,
// even of one static token) a session of its own, whose late questions and logs are that
// caller's. Real parts: the upstream over stdio (mcp-kit's server, sending a question and a log
// message outside its calls), the gateway over HTTP behind OAuth from a real authorization
// server or a static token, and the official SDK clients of both protocol eras.

import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { type RunningAuthServer, startAuthServer } from '@mcp-kit/fixtures/auth-server'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  answerWith,
  clients,
  identities as identitiesOf,
  nothingSeen,
  type Opened,
  token,
} from '../helpers/callers.js'
import { marks, nodeServer, startGateway, temporaryDir } from '../helpers/gateways.js'

const lateTeller = fileURLToPath(new URL('../fixtures/late-teller.mjs', import.meta.url))

let authServer: RunningAuthServer
beforeAll(async () => {
  authServer = await startAuthServer()
})
afterAll(async () => {
  await authServer?.close()
})

const identities = identitiesOf(() => authServer)

describe("a shared 2026 upstream's question and log message outside any call reach no caller", () => {
  for (const [identityLabel, identity] of Object.entries(identities)) {
    for (const [clientLabel, open] of Object.entries(clients)) {
      test(`${identityLabel}; ${clientLabel}`, async () => {
        const markFile = join(temporaryDir(), 'marks')
        const { url, events } = await startGateway(
          {
            upstreams: [
              {
                name: 'bank',
                server: { ...nodeServer(lateTeller), env: { MARK_FILE: markFile } },
                connect: { protocol: '2026-07-28' },
              },
            ],
          },
          identity.serve(),
        )
        const [alice, bob] = await identity.callers(url)
        const seen = [nothingSeen(), nothingSeen()] as const
        const opened: Opened[] = []
        try {
          opened.push(await open(url, alice.headers, seen[0], answerWith(alice.pin)))
          opened.push(await open(url, bob.headers, seen[1], answerWith(bob.pin)))
          const [aliceClient, bobClient] = opened as [Opened, Opened]
          // alice's call is over; the upstream asks for her PIN (and logs her secret) while bob's
          // call is the only one in flight.
          expect(await aliceClient.call('alice', 'later')).toBe('noted for alice')
          const result = await bobClient.call('bob')
          expect(result).toMatch(/^PIN for bob: 2222 \(late question for alice refused \(/)
          expect(result).toMatch(/cannot tell which call it is for \(its session serves every caller/)
          expect(marks(markFile)).toEqual([expect.stringMatching(/^late question for alice refused/)])
          // bob was asked his own question (in his call's input_required result) and nothing else.
          expect(seen[1].questions).toEqual(['Enter the bank PIN for bob'])
          expect(seen[0].questions).toEqual([])
          for (const one of seen) expect(one.logs).not.toContain('secret of alice')
          expect(events).toContainEqual({
            type: 'log',
            upstream: 'bank',
            level: 'info',
            data: 'secret of alice',
          })
          // alice's own question in her own call still reaches her.
          expect(await aliceClient.call('alice')).toMatch(
            /^PIN for alice: 1111 \(late question for alice refused/,
          )
        } finally {
          await Promise.all(opened.map((client) => client.close()))
        }
      })
    }
  }
})

test("a 2025 upstream's late question and log message reach the client session that caused them, not another client of its token", async () => {
  const markFile = join(temporaryDir(), 'marks')
  const { url, events } = await startGateway(
    {
      upstreams: [
        {
          name: 'bank',
          server: { ...nodeServer(lateTeller), env: { MARK_FILE: markFile } },
          connect: { protocol: '2025-11-25' },
        },
      ],
    },
    { token },
  )
  const headers = { authorization: `Bearer ${token}` }
  const open = clients['SDK v1 clients (2025-11-25 sessions)'] as (typeof clients)[string]
  const seen = [nothingSeen(), nothingSeen()] as const
  const alice = await open(url, headers, seen[0], answerWith('1111'))
  const bob = await open(url, headers, seen[1], answerWith('2222'))
  try {
    expect(await alice.call('alice', 'later')).toBe('noted for alice')
    // bob's call runs on a session of his own: nothing of alice's is asked there.
    expect(await bob.call('bob')).toBe('PIN for bob: 2222')
    expect(seen[1].questions).toEqual(['Enter the bank PIN for bob'])
    // alice's next call comes to her session, which asks her, and logs to her.
    expect(await alice.call('alice')).toMatch(/^PIN for alice: 1111 \(late question for alice answered/)
    expect(marks(markFile)).toEqual([expect.stringMatching(/^late question for alice answered .*1111/)])
    expect(seen[0].questions).toEqual(['Enter the bank PIN for alice', 'Enter the bank PIN for alice'])
    expect(seen[0].logs).toContain('secret of alice')
    expect(seen[1].logs).not.toContain('secret of alice')
    expect(seen[1].questions).toEqual(['Enter the bank PIN for bob'])
    expect(events.filter((event) => event.type === 'log')).toEqual([])
  } finally {
    await alice.close()
    await bob.close()
  }
})
