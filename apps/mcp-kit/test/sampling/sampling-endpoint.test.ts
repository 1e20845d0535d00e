// The OpenAI-compatible answerer against a chat-completions endpoint on 127.0.0.1 (node:http):
// what it sends (path, headers, the key as a bearer token), the model chosen by the server's
// hints from the endpoint's list (asked once), and the endpoint's failures told without the key:
// error answers, redirects (not followed), answers too large, a key over plain HTTP elsewhere.

import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { InputContext, SamplingRequest } from '@mcp-kit/client'
import { afterEach, describe, expect, it } from 'vitest'
import { endpointSampler } from '../../src/sampling/endpoint-sampler.js'

interface Received {
  method: string
  url: string
  headers: IncomingMessage['headers']
  body: string
}

type Reply = (received: Received) => { status?: number; headers?: Record<string, string>; body: string }

const servers: Server[] = []
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve))
})

async function endpoint(reply: Reply): Promise<{ base: string; received: Received[] }> {
  const received: Received[] = []
  const server = createServer((request, response) => {
    let body = ''
    request.setEncoding('utf8').on('data', (chunk: string) => (body += chunk))
    request.on('end', () => {
      const entry = { method: request.method ?? '', url: request.url ?? '', headers: request.headers, body }
      received.push(entry)
      const answer = reply(entry)
      response.writeHead(answer.status ?? 200, { 'content-type': 'application/json', ...answer.headers })
      response.end(answer.body)
    })
  })
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, received }
}

const completion = (text: string, model = 'served') =>
  JSON.stringify({
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1,
    model,
    choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
  })

const request: SamplingRequest = {
  messages: [{ role: 'user', content: { type: 'text', text: 'Say hi' } }],
  maxTokens: 16,
  modelPreferences: { hints: [{ name: 'claude-3' }, { name: 'qwen' }] },
}
const context: InputContext = { during: "tools/call 'x'", signal: new AbortController().signal }

describe('an OpenAI-compatible endpoint', () => {
  it('gets a POST to {base}/chat/completions with the key as a bearer token; the answer becomes the result', async () => {
    const { base, received } = await endpoint(() => ({ body: completion('Hi!') }))
    const sample = endpointSampler({ base, model: 'llama3', key: async () => 'sk-test-key' })
    expect(await sample(request, context)).toEqual({
      role: 'assistant',
      content: { type: 'text', text: 'Hi!' },
      model: 'served',
      stopReason: 'endTurn',
    })
    expect(received).toHaveLength(1)
    expect(received[0]).toMatchObject({ method: 'POST', url: '/v1/chat/completions' })
    expect(received[0]?.headers).toMatchObject({
      authorization: 'Bearer sk-test-key',
      'content-type': 'application/json',
      accept: 'application/json',
    })
    expect(JSON.parse(received[0]?.body ?? '')).toEqual({
      model: 'llama3',
      messages: [{ role: 'user', content: 'Say hi' }],
      max_tokens: 16,
    })
  })

  it("without --sampling-model, the server's hints choose among the models listed (asked once); no key, no header", async () => {
    const { base, received } = await endpoint((asked) =>
      asked.url === '/v1/models'
        ? { body: JSON.stringify({ object: 'list', data: [{ id: 'llama3.1:8b' }, { id: 'qwen2.5:7b' }] }) }
        : { body: completion('ok', JSON.parse(asked.body).model) },
    )
    const sample = endpointSampler({ base, model: undefined, key: async () => undefined })
    expect((await sample(request, context)).model).toBe('qwen2.5:7b')
    expect((await sample({ ...request, modelPreferences: undefined }, context)).model).toBe('llama3.1:8b')
    expect(received.map((entry) => `${entry.method} ${entry.url}`)).toEqual([
      'GET /v1/models',
      'POST /v1/chat/completions',
      'POST /v1/chat/completions',
    ])
    expect(received.every((entry) => entry.headers.authorization === undefined)).toBe(true)
  })

  it("tells the endpoint's error answer (never the key), and suggests the key on a 401", async () => {
    const { base } = await endpoint(() => ({
      status: 401,
      body: JSON.stringify({
        error: { message: 'Incorrect API key provided', type: 'invalid_request_error' },
      }),
    }))
    const sample = endpointSampler({ base, model: 'm', key: async () => 'sk-secret-value' })
    const error = (await sample(request, context).catch((caught: unknown) => caught)) as Error
    expect(error.message).toBe(
      `the sampling endpoint ${base}/chat/completions answered HTTP 401: Incorrect API key provided (is the API key right? --sampling-key-secret or MCP_KIT_SAMPLING_KEY)`,
    )
    expect(error).toMatchObject({ code: 'sampling_failed' })
    expect(error.message).not.toContain('sk-secret-value')
  })

  it('does not follow a redirect, so the key goes nowhere else', async () => {
    const elsewhere = await endpoint(() => ({ body: completion('stolen') }))
    const { base } = await endpoint(() => ({
      status: 307,
      headers: { location: `${elsewhere.base}/chat/completions` },
      body: '',
    }))
    const sample = endpointSampler({ base, model: 'm', key: async () => 'sk-secret-value' })
    await expect(sample(request, context)).rejects.toThrow(
      /redirects \(HTTP 307\) to .*; give that URL instead/,
    )
    expect(elsewhere.received).toEqual([])
  })

  it('refuses an answer larger than the limit, and a key over plain HTTP to another machine', async () => {
    const { base } = await endpoint(() => ({ body: completion('x'.repeat(5000)) }))
    const small = endpointSampler({ base, model: 'm', key: async () => undefined, maxResponseBytes: 1000 })
    await expect(small(request, context)).rejects.toThrow(
      "the sampling endpoint's answer is larger than 1000 bytes",
    )
    const sent: string[] = []
    const remote = endpointSampler({
      base: 'http://models.example.com/v1',
      model: 'm',
      key: async () => 'sk-secret-value',
      fetch: async (url) => {
        sent.push(url)
        return new Response(completion('no'))
      },
    })
    await expect(remote(request, context)).rejects.toThrow(
      'the API key goes only over https or to this machine, and http://models.example.com is neither',
    )
    expect(sent).toEqual([])
  })

  it('says when the endpoint cannot be reached', async () => {
    const { base } = await endpoint(() => ({ body: '' }))
    await new Promise((resolve) => servers.pop()?.close(resolve))
    const sample = endpointSampler({ base, model: 'm', key: async () => undefined })
    await expect(sample(request, context)).rejects.toThrow(
      `cannot reach the sampling endpoint ${base}/chat/completions: ECONNREFUSED`,
    )
  })
})
