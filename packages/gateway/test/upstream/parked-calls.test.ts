// @module-tag integration
// A 2026-07-28 client's call through the gateway whose upstream asks questions stays parked in
// the gateway between rounds. It belongs to the client that started it: the retry finds it by a
// random handle the gateway keeps in the signed requestState, never by what the call looks like,
// so another client sending the same call (here with the same static token and the same client
// name) starts its own, and never sees the first one's questions, answers or result.

import { startHttpServer } from '@mcp-kit/server'
import { afterEach, expect, test } from 'vitest'
import { createGateway, fileDiscoveryCache } from '../../src/index.js'
import { nodeServer, temporaryDir } from '../helpers/gateways.js'

const twoQuestions = new URL('../fixtures/two-questions.mjs', import.meta.url).pathname
const version = '2026-07-28'
const closers: Array<() => Promise<void>> = []

afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close()
})

// biome-ignore lint/suspicious/noExplicitAny: JSON off the wire, which the assertions check
type Wire = Record<string, any>

async function startTokenGateway(token: string): Promise<string> {
  const gateway = createGateway({
    cache: fileDiscoveryCache(temporaryDir()),
    upstreams: [{ name: 'bank', server: nodeServer(twoQuestions) }],
  })
  await gateway.start()
  closers.push(() => gateway.close())
  const server = await startHttpServer(gateway.registry, { token })
  closers.push(() => server.close({ graceMs: 0 }))
  return server.url
}

/** One round of `bank__sign_in` as the client `app` with the shared token. */
async function signIn(url: string, token: string, extra: Record<string, unknown> = {}): Promise<Wire> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${token}`,
      'mcp-protocol-version': version,
      'mcp-method': 'tools/call',
      'mcp-name': 'bank__sign_in',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name: 'bank__sign_in',
        arguments: {},
        ...extra,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': version,
          'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
          'io.modelcontextprotocol/clientInfo': { name: 'app', version: '1.0.0' },
        },
      },
    }),
  })
  expect(response.status).toBe(200)
  return ((await response.json()) as { result: Wire }).result
}

/** The one question of an input_required round: its key and message. */
function question(result: Wire): { key: string; message: string } {
  expect(result.resultType, JSON.stringify(result)).toBe('input_required')
  const [key, request] = Object.entries(result.inputRequests as Wire)[0] as [string, Wire]
  return { key, message: request.params.message }
}

test("with one static token, a second client's identical call does not take over the first one's parked call", async () => {
  const token = 's3cret-token'
  const url = await startTokenGateway(token)

  // Alice answers the first question; the upstream call waits for her confirmation.
  const first = await signIn(url, token)
  const name = question(first)
  expect(name.message).toBe('Your name?')
  const second = await signIn(url, token, {
    requestState: first.requestState,
    inputResponses: { [name.key]: { action: 'accept', content: { name: 'alice' } } },
  })
  const confirm = question(second)
  expect(confirm.message).toBe('Sign in now?')

  // Mallory sends the same call: she gets a call of her own, starting at the first question.
  const intruder = await signIn(url, token)
  expect(question(intruder).message).toBe('Your name?')
  const intruderConfirms = await signIn(url, token, {
    inputResponses: { [confirm.key]: { action: 'accept', content: { yes: true } } },
  })
  expect(JSON.stringify(intruderConfirms)).not.toContain('alice')

  // Alice's call is still hers: her confirmation finishes it.
  const done = await signIn(url, token, {
    requestState: second.requestState,
    inputResponses: { [confirm.key]: { action: 'accept', content: { yes: true } } },
  })
  expect(done.content?.[0]?.text).toBe('signed in as alice')
})

test('a requestState used once more (replayed) does not find the parked call again', async () => {
  const token = 's3cret-token'
  const url = await startTokenGateway(token)
  const first = await signIn(url, token)
  const name = question(first)
  const answer = { [name.key]: { action: 'accept', content: { name: 'alice' } } }
  const second = await signIn(url, token, { requestState: first.requestState, inputResponses: answer })
  expect(question(second).message).toBe('Sign in now?')
  // The same retry again: the parked call moved on under a new handle; this starts afresh, and
  // answers the first question of a new upstream call from the replayed answers.
  const replayed = await signIn(url, token, { requestState: first.requestState, inputResponses: answer })
  expect(question(replayed).message).toBe('Sign in now?')
  const done = await signIn(url, token, {
    requestState: second.requestState,
    inputResponses: { [question(second).key]: { action: 'accept', content: { yes: true } } },
  })
  expect(done.content?.[0]?.text).toBe('signed in as alice')
})
