// The OpenAI-compatible mapping of sampling, both ways: MCP messages, system prompt, limits,
// stop sequences and tools as a chat-completions body, and a chat-completions answer (text,
// tool calls, finish reasons) as an MCP sampling result; what the format cannot carry is refused.

import type { SamplingRequest } from '@mcp-kit/client'
import { describe, expect, it } from 'vitest'
import { modelForHints } from '../../src/sampling/endpoint-sampler.js'
import { chatCompletionsBody } from '../../src/sampling/openai-request.js'
import { samplingResult } from '../../src/sampling/openai-response.js'

const getWeather = {
  name: 'get_weather',
  description: 'The weather in a city',
  inputSchema: { type: 'object' as const, properties: { city: { type: 'string' } }, required: ['city'] },
}

describe('a sampling request as a chat-completions body', () => {
  it('carries the system prompt, the messages, max_tokens, temperature and the stop sequences', () => {
    const request: SamplingRequest = {
      systemPrompt: 'Be brief.',
      messages: [
        { role: 'user', content: { type: 'text', text: 'Hi' } },
        { role: 'assistant', content: { type: 'text', text: 'Hello' } },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is this?' },
            { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
            { type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav' },
          ],
        },
      ],
      maxTokens: 64,
      temperature: 0.3,
      stopSequences: ['a', 'b', 'c', 'd', 'e'],
    }
    expect(chatCompletionsBody(request, 'llama3')).toEqual({
      model: 'llama3',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Hello' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is this?' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
            { type: 'input_audio', input_audio: { data: 'UklGRg==', format: 'wav' } },
          ],
        },
      ],
      max_tokens: 64,
      temperature: 0.3,
      // Endpoints take four; the fifth is applied to the answer by mcp-kit.
      stop: ['a', 'b', 'c', 'd'],
    })
  })

  it('maps tools to functions, the tool choice, tool calls to tool_calls and tool results to tool messages', () => {
    const request = {
      messages: [
        { role: 'user', content: { type: 'text', text: 'Weather in Paris and Oslo?' } },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Looking.' },
            { type: 'tool_use', id: 'c1', name: 'get_weather', input: { city: 'Paris' } },
            { type: 'tool_use', id: 'c2', name: 'get_weather', input: { city: 'Oslo' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', toolUseId: 'c1', content: [{ type: 'text', text: 'sunny' }] },
            {
              type: 'tool_result',
              toolUseId: 'c2',
              content: [{ type: 'text', text: 'no data' }],
              isError: true,
            },
          ],
        },
      ],
      maxTokens: 100,
      tools: [getWeather],
      toolChoice: { mode: 'required' },
    } as SamplingRequest
    const body = chatCompletionsBody(request, 'gpt')
    expect(body.tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'get_weather',
          description: 'The weather in a city',
          parameters: getWeather.inputSchema,
        },
      },
    ])
    expect(body.tool_choice).toBe('required')
    expect(body.messages).toEqual([
      { role: 'user', content: 'Weather in Paris and Oslo?' },
      {
        role: 'assistant',
        content: 'Looking.',
        tool_calls: [
          { id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
          { id: 'c2', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'sunny' },
      { role: 'tool', tool_call_id: 'c2', content: 'Error: no data' },
    ])
  })

  it('refuses what the format cannot carry, saying what', () => {
    const audio = {
      messages: [{ role: 'user', content: { type: 'audio', data: 'AAAA', mimeType: 'audio/ogg' } }],
      maxTokens: 5,
    } as SamplingRequest
    expect(() => chatCompletionsBody(audio, 'm')).toThrow(
      /audio\/ogg audio, which chat-completions endpoints do not take/,
    )
    const image = {
      messages: [{ role: 'assistant', content: { type: 'image', data: 'AAAA', mimeType: 'image/png' } }],
      maxTokens: 5,
    } as SamplingRequest
    expect(() => chatCompletionsBody(image, 'm')).toThrow(/take only text and tool calls from the assistant/)
  })
})

describe('a chat-completions answer as a sampling result', () => {
  const plain = { messages: [], maxTokens: 10 } as unknown as SamplingRequest
  const withTools = { messages: [], maxTokens: 10, tools: [getWeather] } as unknown as SamplingRequest
  const answer = (
    message: Record<string, unknown>,
    finish: string | null = 'stop',
    model = 'served-model',
  ) => ({
    id: 'x',
    object: 'chat.completion',
    model,
    choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: finish }],
  })

  it('text, the model that answered, and the finish reason in MCP words', () => {
    expect(samplingResult(answer({ content: 'Hi' }), plain, 'asked')).toEqual({
      role: 'assistant',
      content: { type: 'text', text: 'Hi' },
      model: 'served-model',
      stopReason: 'endTurn',
    })
    expect(samplingResult(answer({ content: 'Hi' }, 'length'), plain, 'asked').stopReason).toBe('maxTokens')
    expect(samplingResult(answer({ content: 'Hi' }, 'content_filter'), plain, 'asked').stopReason).toBe(
      'content_filter',
    )
    expect(samplingResult(answer({ content: 'Hi' }, null, ''), plain, 'asked').model).toBe('asked')
  })

  it('tool calls as tool_use blocks after the text, their arguments parsed', () => {
    const result = samplingResult(
      answer(
        {
          content: 'Let me check.',
          tool_calls: [
            {
              id: 'call_9',
              type: 'function',
              function: { name: 'get_weather', arguments: '{"city":"Oslo"}' },
            },
          ],
        },
        'tool_calls',
      ),
      withTools,
      'asked',
    )
    expect(result).toEqual({
      role: 'assistant',
      model: 'served-model',
      stopReason: 'toolUse',
      content: [
        { type: 'text', text: 'Let me check.' },
        { type: 'tool_use', id: 'call_9', name: 'get_weather', input: { city: 'Oslo' } },
      ],
    })
  })

  it('refuses tool calls of tools not offered, arguments that are not JSON, and answers without a message', () => {
    const call = (name: string, args: string) =>
      answer({
        content: null,
        tool_calls: [{ id: 'c', type: 'function', function: { name, arguments: args } }],
      })
    expect(() => samplingResult(call('rm_rf', '{}'), withTools, 'm')).toThrow(/not one of the tools offered/)
    expect(() => samplingResult(call('get_weather', '{"city":'), withTools, 'm')).toThrow(/not JSON/)
    expect(() => samplingResult(call('get_weather', '{}'), plain, 'm')).toThrow(
      /not one of the tools offered/,
    )
    expect(() => samplingResult({ choices: [] }, plain, 'm')).toThrow(/without a message/)
  })

  it('applies the stop sequences the endpoint was not given', () => {
    const request = {
      messages: [],
      maxTokens: 10,
      stopSequences: ['1', '2', '3', '4', 'STOP'],
    } as SamplingRequest
    expect(samplingResult(answer({ content: 'one STOP two' }), request, 'm')).toMatchObject({
      content: { type: 'text', text: 'one ' },
      stopReason: 'stopSequence',
    })
  })
})

describe("the server's model hints", () => {
  const models = ['llama3.1:8b', 'qwen2.5:7b', 'mistral']
  it('the first hint naming a model wins: its whole id first, else a part of it; else the first model', () => {
    expect(modelForHints(models, [{ name: 'claude' }, { name: 'qwen' }])).toBe('qwen2.5:7b')
    expect(modelForHints(models, [{ name: 'MISTRAL' }, { name: 'llama' }])).toBe('mistral')
    expect(modelForHints(models, [{ name: 'gpt-4o' }])).toBe('llama3.1:8b')
    expect(modelForHints(models, [])).toBe('llama3.1:8b')
    expect(modelForHints([], [{ name: 'x' }])).toBeUndefined()
  })
})
