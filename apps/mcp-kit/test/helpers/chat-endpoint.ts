// A fake OpenAI-compatible chat-completions endpoint on 127.0.0.1 for the sampling tests: it
// lists two models, records every request, and answers like a model with a weather tool — a
// call of `get_weather` for Paris when tools are offered, the tool's figure once it has the
// tool's result, a one-line summary otherwise. With `key` set, a request without it gets 401.

import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface ChatRequest {
  method: string
  path: string
  headers: IncomingHttpHeaders
  body: Record<string, unknown> | undefined
}

export interface ChatEndpoint {
  /** The base URL, ending in /v1. */
  base: string
  requests: ChatRequest[]
  close(): Promise<void>
}

export const endpointModels = ['general-7b', 'summarizer-mini']

function answer(body: Record<string, unknown>): Record<string, unknown> {
  const messages = body.messages as Array<{ role: string; content: unknown }>
  const last = messages.at(-1)
  let message: Record<string, unknown>
  let finish = 'stop'
  if (Array.isArray(body.tools) && last?.role !== 'tool') {
    message = {
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
      ],
    }
    finish = 'tool_calls'
  } else if (last?.role === 'tool') {
    const { celsius } = JSON.parse(String(last.content)) as { celsius: number }
    message = { role: 'assistant', content: `It is ${celsius} degrees in Paris.` }
  } else message = { role: 'assistant', content: 'A one-line summary.' }
  return {
    id: `chatcmpl-${Math.random().toString(36).slice(2)}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: body.model,
    choices: [{ index: 0, message, finish_reason: finish, logprobs: null }],
    usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
  }
}

export async function startChatEndpoint(options: { key?: string } = {}): Promise<ChatEndpoint> {
  const requests: ChatRequest[] = []
  const server = createServer((request, response) => {
    let text = ''
    request.setEncoding('utf8').on('data', (chunk: string) => (text += chunk))
    request.on('end', () => {
      const body = text === '' ? undefined : (JSON.parse(text) as Record<string, unknown>)
      requests.push({ method: request.method ?? '', path: request.url ?? '', headers: request.headers, body })
      const reply = (status: number, value: unknown) => {
        response.writeHead(status, { 'content-type': 'application/json' })
        response.end(JSON.stringify(value))
      }
      if (options.key !== undefined && request.headers.authorization !== `Bearer ${options.key}`)
        return reply(401, { error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } })
      if (request.method === 'GET' && request.url === '/v1/models')
        return reply(200, { object: 'list', data: endpointModels.map((id) => ({ id, object: 'model' })) })
      if (request.method === 'POST' && request.url === '/v1/chat/completions' && body)
        return reply(200, answer(body))
      reply(404, { error: { message: `no ${request.method} ${request.url}` } })
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}
