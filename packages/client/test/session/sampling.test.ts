// Sampling as the client answers it, against mcp-kit's real server over HTTP in both eras: the
// `sampling` capability (and `sampling.tools`) is declared only when the handler answers it; a
// tool loop through sampling works; every exchange is one `sampling` trace entry (messages kept
// unless arguments are redacted); a server that needs sampling from a client without it is
// `input_required`; the answer is checked before it is sent.

import { createToolRegistry, type RunningHttpServer, startHttpServer } from '@mcp-kit/server'
import { afterEach, describe, expect, test } from 'vitest'
import {
  ClientError,
  connect,
  type InputHandler,
  noEraCache,
  type SamplingRequest,
  type SamplingResult,
  type Session,
  type TraceEntry,
} from '../../src/index.js'

const weatherTool = {
  name: 'get_weather',
  inputSchema: { type: 'object' as const, properties: { city: { type: 'string' } } },
}

function registry() {
  return createToolRegistry()
    .tool({
      name: 'capabilities',
      handler: async (_args, context) => JSON.stringify(context.clientCapabilities?.sampling ?? null),
    })
    .tool({
      name: 'summarize',
      handler: async (_args, context) => {
        const answer = await context.sample({
          messages: [{ role: 'user', content: { type: 'text', text: 'Summarize: the sky is blue' } }],
          systemPrompt: 'Be brief.',
          maxTokens: 20,
        })
        return `${answer.model}: ${(answer.content as { text: string }).text}`
      },
    })
    .tool({
      name: 'weather',
      handler: async (_args, context) => {
        const messages: SamplingRequest['messages'] = [
          { role: 'user', content: { type: 'text', text: 'Weather in Paris?' } },
        ]
        for (;;) {
          const answer = await context.sample({ messages, maxTokens: 50, tools: [weatherTool] })
          const blocks = Array.isArray(answer.content) ? answer.content : [answer.content]
          const uses = blocks.filter((block) => block.type === 'tool_use')
          if (uses.length === 0) return (blocks[0] as { text: string }).text
          messages.push({ role: 'assistant', content: uses })
          messages.push({
            role: 'user',
            content: uses.map((use) => ({
              type: 'tool_result' as const,
              toolUseId: (use as { id: string }).id,
              content: [{ type: 'text' as const, text: '21 °C' }],
            })),
          })
        }
      },
    })
}

const cleanups: Array<() => Promise<unknown>> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function serving(): Promise<RunningHttpServer> {
  const server = await startHttpServer(registry(), { port: 0, host: '127.0.0.1' })
  cleanups.push(() => server.close())
  return server
}

async function session(
  server: RunningHttpServer,
  protocol: '2025-11-25' | '2026-07-28',
  input: InputHandler | undefined,
  trace: TraceEntry[] = [],
  redact = false,
): Promise<Session> {
  const opened = await connect(
    { transport: 'http', url: server.url },
    {
      protocol,
      eraCache: noEraCache,
      input,
      onTrace: (entry) => trace.push(entry),
      redactTraceArguments: redact,
    },
  )
  cleanups.push(() => opened.close())
  return opened
}

function text(result: { content: Array<{ type: string; text?: string }> }): string {
  return result.content.map((item) => item.text ?? '').join('')
}

/** Answers like a model that calls get_weather first, then says what the tool said. */
function model(asked: SamplingRequest[]): InputHandler['sample'] {
  return async (request): Promise<SamplingResult> => {
    asked.push(request)
    const last = request.messages.at(-1)
    const blocks = Array.isArray(last?.content) ? last.content : [last?.content]
    const result = blocks.find((block) => block?.type === 'tool_result')
    if (request.tools && result === undefined)
      return {
        role: 'assistant',
        model: 'fake-1',
        stopReason: 'toolUse',
        content: [{ type: 'tool_use', id: 'call-1', name: 'get_weather', input: { city: 'Paris' } }],
      }
    const said =
      result === undefined ? 'brief' : (result as { content: Array<{ text: string }> }).content[0]?.text
    return {
      role: 'assistant',
      model: 'fake-1',
      stopReason: 'endTurn',
      content: { type: 'text', text: `It is ${said}` },
    }
  }
}

describe.each(['2025-11-25', '2026-07-28'] as const)('%s', (protocol) => {
  test('sampling is declared only with an answerer, and sampling.tools only when it takes tools', async () => {
    const server = await serving()
    const capabilities = async (input: InputHandler | undefined) =>
      text((await (await session(server, protocol, input)).callTool('capabilities', {})) as never)
    expect(await capabilities(undefined)).toBe('null')
    expect(await capabilities({ roots: async () => [] })).toBe('null')
    expect(await capabilities({ sample: model([]) })).toBe('{}')
    expect(await capabilities({ sample: model([]), samplingTools: true })).toBe('{"tools":{}}')
  })

  test('a tool loop through sampling: tools offered, a tool call answered, its result sent back', async () => {
    const server = await serving()
    const asked: SamplingRequest[] = []
    const trace: TraceEntry[] = []
    const client = await session(server, protocol, { sample: model(asked), samplingTools: true }, trace)
    const result = await client.callTool('weather', {})
    expect(text(result as never)).toBe('It is 21 °C')
    expect(asked).toHaveLength(2)
    expect(asked[0]?.tools).toEqual([weatherTool])
    expect(asked[1]?.messages.at(-1)?.content).toEqual([
      { type: 'tool_result', toolUseId: 'call-1', content: [{ type: 'text', text: '21 °C' }] },
    ])
    const sampling = trace.filter((entry) => entry.kind === 'sampling')
    expect(sampling.map((entry) => [entry.ok, entry.model, entry.stop_reason])).toEqual([
      [true, 'fake-1', 'toolUse'],
      [true, 'fake-1', 'endTurn'],
    ])
    expect(sampling[0]?.args.messages).toEqual([
      { role: 'user', content: { type: 'text', text: 'Weather in Paris?' } },
    ])
    expect(sampling[1]?.answer).toEqual({ type: 'text', text: 'It is 21 °C' })
    expect(sampling[0]?.name).toBe('sampling/createMessage')
    expect(sampling[0]?.server).toBe(`${new URL(server.url).origin}/mcp`)
    expect(trace.at(-1)?.kind).toBe('tool_call')
  })

  test('with arguments redacted, the trace keeps no message and no answer', async () => {
    const server = await serving()
    const trace: TraceEntry[] = []
    const client = await session(server, protocol, { sample: model([]) }, trace, true)
    expect(text((await client.callTool('summarize', {})) as never)).toBe('fake-1: It is brief')
    const entry = trace.find((item) => item.kind === 'sampling')
    expect(entry?.args).toEqual({
      messages: '[redacted]',
      systemPrompt: '[redacted]',
      maxTokens: '[redacted]',
    })
    expect(entry?.answer).toBeUndefined()
    expect(entry?.model).toBe('fake-1')
  })

  test('an answerer that does not take tools never sees a request with them', async () => {
    const server = await serving()
    const asked: SamplingRequest[] = []
    const client = await session(server, protocol, { sample: model(asked) })
    const outcome = await client.callTool('weather', {}).then(
      (result) => text(result as never),
      (error: ClientError) => error.code,
    )
    // The server does not ask a client that did not declare sampling.tools.
    expect(outcome).toMatch(
      protocol === '2026-07-28' ? /^input_required$/ : /does not support sampling with tools/,
    )
    expect(asked).toEqual([])
  })

  test("an answer that is not a sampling result is the answerer's mistake, not sent as it is", async () => {
    const server = await serving()
    const trace: TraceEntry[] = []
    const client = await session(
      server,
      protocol,
      {
        sample: async () =>
          ({ role: 'assistant', content: { type: 'text', text: 'no model named' } }) as never,
      },
      trace,
    )
    const outcome = await client.callTool('summarize', {}).then(
      (result) => text(result as never),
      (error: ClientError) => error.message,
    )
    expect(outcome).toContain('the sampling answer cannot be sent: it names no model')
    expect(trace.find((entry) => entry.kind === 'sampling')).toMatchObject({
      ok: true,
      answer: { type: 'text', text: 'no model named' },
    })
  })
})

test('2026-07-28: a server that needs sampling from a client without it is input_required, naming the answerer', async () => {
  const server = await serving()
  const client = await session(server, '2026-07-28', { roots: async () => [] })
  const error = (await client.callTool('summarize', {}).catch((caught: unknown) => caught)) as ClientError
  expect(ClientError.isInstance(error)).toBe(true)
  expect(error.code).toBe('input_required')
  expect(error.message).toContain('the server needs the client to support sampling')
  expect(error.message).toContain('(answer sampling with input.sample)')
})
