// @module-tag integration
// Sampling through a gateway: an upstream's `sampling/createMessage` (with tools) reaches the
// client whose call caused it and no other, in both protocol eras, and the answers (a tool call,
// then text) reach that call; a client that did not declare sampling (or its tools) is never
// asked: the upstream is refused. Real parts: mcp-kit upstreams over stdio and HTTP, the gateway
// over HTTP behind a static token or OAuth from a real authorization server, and the official
// SDK clients of both eras as its clients.

import { fileURLToPath } from 'node:url'
import type { ConnectOptions, ServerSpec } from '@mcp-kit/client'
import { type RunningAuthServer, startAuthServer } from '@mcp-kit/fixtures/auth-server'
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as HttpTransportV2,
} from '@modelcontextprotocol/client'
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport as HttpTransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { CreateMessageRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { identities as identitiesOf, text, token } from '../helpers/callers.js'
import { nodeServer, startGateway, startHttpUpstream } from '../helpers/gateways.js'

const forecaster = fileURLToPath(new URL('../fixtures/forecaster.mjs', import.meta.url))

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

async function httpUpstream(connect: ConnectOptions): Promise<UpstreamSetup> {
  const running = await startHttpUpstream(0, forecaster)
  stops.push(running.stop)
  return { server: { transport: 'http', url: running.url }, connect }
}

const upstreams: Record<string, () => Promise<UpstreamSetup>> = {
  'mcp-kit over stdio (2025-11-25, nothing on the wire names the call)': async () => ({
    server: nodeServer(forecaster),
    connect: { protocol: '2025-11-25' },
  }),
  "mcp-kit over HTTP (2025-11-25, questions on the call's stream)": () =>
    httpUpstream({ protocol: '2025-11-25' }),
  "mcp-kit over HTTP (2026-07-28, questions in the call's result)": () =>
    httpUpstream({ protocol: '2026-07-28' }),
}

/** What one client's model was asked: the first message of each request, and whether tools came. */
interface Asked {
  requests: Array<{ first: string; tools: string[] }>
}

/** A model that calls get_weather for `city`, then says what the tool said. */
function model(city: string, asked: Asked) {
  return async (params: Record<string, unknown>) => {
    const messages = params.messages as Array<{ content: unknown }>
    const first = messages[0]?.content as { text: string }
    const tools = ((params.tools as Array<{ name: string }> | undefined) ?? []).map((tool) => tool.name)
    asked.requests.push({ first: first.text, tools })
    const last = messages.at(-1)?.content
    const result = (Array.isArray(last) ? last : [last]).find(
      (block: { type?: string }) => block?.type === 'tool_result',
    ) as { content: Array<{ text: string }> } | undefined
    if (result === undefined)
      return {
        role: 'assistant',
        model: `model-of-${city}`,
        stopReason: 'toolUse',
        content: [{ type: 'tool_use', id: `call-${city}`, name: 'get_weather', input: { city } }],
      }
    return {
      role: 'assistant',
      model: `model-of-${city}`,
      stopReason: 'endTurn',
      content: { type: 'text', text: `It is ${result.content[0]?.text}` },
    }
  }
}

interface Opened {
  forecast(who: string): Promise<string>
  close(): Promise<void>
}

type Sampling = 'with tools' | 'without tools' | 'none'

type Open = (
  url: string,
  headers: Record<string, string>,
  sampling: Sampling,
  answer: ReturnType<typeof model>,
) => Promise<Opened>

function samplingCapability(sampling: Sampling) {
  return sampling === 'none' ? {} : { sampling: sampling === 'with tools' ? { tools: {} } : {} }
}

/** An outcome as text: the result's, or the error's message. */
async function outcome(call: Promise<unknown>): Promise<string> {
  return call.then(
    (result) => text(result),
    (error: Error) => `error: ${error.message}`,
  )
}

const clients: Record<string, Open> = {
  'SDK v1 clients (2025-11-25 sessions)': async (url, headers, sampling, answer) => {
    const client = new ClientV1(
      { name: 'v1', version: '1.0.0' },
      { capabilities: samplingCapability(sampling) },
    )
    if (sampling !== 'none')
      client.setRequestHandler(CreateMessageRequestSchema, (request) => answer(request.params) as never)
    await client.connect(new HttpTransportV1(new URL(url), { requestInit: { headers } }))
    return {
      forecast: (who) => outcome(client.callTool({ name: 'weather__forecast', arguments: { who } })),
      close: () => client.close(),
    }
  },
  'SDK v2 clients (2026-07-28 calls)': async (url, headers, sampling, answer) => {
    const client = new ClientV2(
      { name: 'v2', version: '1.0.0' },
      { capabilities: samplingCapability(sampling), versionNegotiation: { mode: 'auto' } },
    )
    if (sampling !== 'none')
      client.setRequestHandler(
        'sampling/createMessage',
        (request) => answer(request.params as never) as never,
      )
    await client.connect(new HttpTransportV2(new URL(url), { requestInit: { headers } }))
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28')
    return {
      forecast: (who) => outcome(client.callTool({ name: 'weather__forecast', arguments: { who } })),
      close: () => client.close(),
    }
  },
}

const identities = identitiesOf(() => authServer)
const cities = { alice: 'Paris', bob: 'Oslo' } as const

describe("an upstream's sampling reaches the caller whose call caused it, and no other", () => {
  for (const [upstreamLabel, upstream] of Object.entries(upstreams)) {
    for (const [identityLabel, identity] of Object.entries(identities)) {
      for (const [clientLabel, open] of Object.entries(clients)) {
        // Two 2026 clients of one token are one caller; two calls of one caller at once on a
        // session that names no call cannot be told apart (the gateway's isolation tests).
        const oneCaller = identityLabel.includes('static') && clientLabel.includes('v2')
        if (oneCaller && upstreamLabel.includes('stdio')) continue
        test(`${upstreamLabel}; ${identityLabel}; ${clientLabel}`, async () => {
          const setup = await upstream()
          const { url } = await startGateway(
            { upstreams: [{ name: 'weather', server: setup.server, connect: setup.connect }] },
            identity.serve(),
          )
          const callers = await identity.callers(url)
          const asked: Asked[] = callers.map(() => ({ requests: [] }))
          const opened = await Promise.all(
            callers.map((caller, index) =>
              open(
                url,
                caller.headers,
                'with tools',
                model(cities[caller.who as keyof typeof cities], asked[index] as Asked),
              ),
            ),
          )
          try {
            const results = await Promise.all(
              callers.map((caller, index) => opened[index]?.forecast(caller.who)),
            )
            for (const [index, caller] of callers.entries()) {
              const city = cities[caller.who as keyof typeof cities]
              expect(results[index]).toBe(`${caller.who}: It is sunny in ${city}`)
              // Both rounds of its own call, and nothing of the other's.
              expect(asked[index]?.requests).toEqual([
                { first: `Weather for ${caller.who}'s city?`, tools: ['get_weather'] },
                { first: `Weather for ${caller.who}'s city?`, tools: ['get_weather'] },
              ])
            }
          } finally {
            await Promise.all(opened.map((client) => client.close()))
          }
        })
      }
    }
  }
})

describe('a caller that did not declare sampling (or its tools) is never asked: the upstream is refused', () => {
  const headers = { authorization: `Bearer ${token}` }
  for (const [upstreamLabel, upstream] of Object.entries(upstreams)) {
    for (const [clientLabel, open] of Object.entries(clients)) {
      test(`${upstreamLabel}; ${clientLabel}`, async () => {
        const setup = await upstream()
        const { url } = await startGateway(
          { upstreams: [{ name: 'weather', server: setup.server, connect: setup.connect }] },
          { token },
        )
        for (const sampling of ['none', 'without tools'] as const) {
          const asked: Asked = { requests: [] }
          const client = await open(url, headers, sampling, model('Paris', asked))
          try {
            const said = await client.forecast('carol')
            expect(said).not.toContain('sunny')
            expect(said).toMatch(/sampling|capabilit/i)
            expect(asked.requests).toEqual([])
          } finally {
            await client.close()
          }
        }
      })
    }
  }
})
