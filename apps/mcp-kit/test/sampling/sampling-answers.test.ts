// Who answers sampling and what their answers become: the flags and the profile's `sampling`
// (one answerer, no shell syntax, a URL without credentials, the model only with a URL); a
// command's or a person's answer as a JSON result or plain text, checked against the request;
// stop sequences applied.

import type { SamplingRequest } from '@mcp-kit/client'
import type { Profile } from '@mcp-kit/profiles'
import { describe, expect, it } from 'vitest'
import { applyStopSequences, parseAnswer } from '../../src/sampling/sampling-answer.js'
import { samplingChoice } from '../../src/sampling/sampling-choice.js'

const plain: SamplingRequest = {
  messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }],
  maxTokens: 9,
}
const withTools = {
  ...plain,
  tools: [{ name: 'get_weather', inputSchema: { type: 'object' } }],
} as SamplingRequest

function profile(sampling: unknown): Profile {
  return { meta: { sampling }, location: { metaPath: '/p/_meta.json' } } as unknown as Profile
}

describe('the sampling choice', () => {
  it('from the flags: a command split into words, an endpoint, or the person', () => {
    expect(samplingChoice({ 'sampling-command': `python3 "my answer.py" --fast` })).toEqual({
      kind: 'command',
      argv: ['python3', 'my answer.py', '--fast'],
    })
    expect(
      samplingChoice({ 'sampling-url': 'http://127.0.0.1:11434/v1/', 'sampling-model': 'llama3' }),
    ).toEqual({ kind: 'endpoint', base: 'http://127.0.0.1:11434/v1', model: 'llama3', keySecret: undefined })
    expect(samplingChoice({ 'sampling-url': 'https://api.example.com/v1/chat/completions' })).toMatchObject({
      base: 'https://api.example.com/v1',
    })
    expect(samplingChoice({ 'sampling-ask': true })).toEqual({ kind: 'person' })
    expect(samplingChoice({})).toBeUndefined()
  })

  it('refuses two answerers, shell syntax, a URL with credentials or another scheme, a model without a URL', () => {
    expect(() => samplingChoice({ 'sampling-command': 'x', 'sampling-ask': true })).toThrow(
      'give one sampling answerer, not --sampling-command and --sampling-ask',
    )
    expect(() => samplingChoice({ 'sampling-command': 'llm prompt | jq .text' })).toThrow(/no shell runs it/)
    expect(() => samplingChoice({ 'sampling-command': '$(whoami)' })).toThrow(/no shell runs it/)
    expect(() => samplingChoice({ 'sampling-command': '-e x' })).toThrow(/looks like an option/)
    expect(() => samplingChoice({ 'sampling-command': 'say "unclosed' })).toThrow(/unclosed double quote/)
    expect(() => samplingChoice({ 'sampling-url': 'http://user:key@host/v1' })).toThrow(
      /must not carry credentials/,
    )
    expect(() => samplingChoice({ 'sampling-url': 'file:///etc/passwd' })).toThrow(/http:\/\/ or https:\/\//)
    expect(() => samplingChoice({ 'sampling-model': 'llama3' })).toThrow(
      '--sampling-model goes with --sampling-url',
    )
    for (const bad of [{ 'sampling-command': '' }, { 'sampling-url': 'not a url' }])
      expect(() => samplingChoice(bad as never)).toThrow(expect.objectContaining({ code: 'usage' }))
  })

  it("from the profile, unless a flag names another answerer; the model and key flags refine the profile's endpoint", () => {
    const endpoint = profile({ url: 'http://127.0.0.1:8080/v1', model: 'qwen', keySecret: 'llm/key' })
    expect(samplingChoice({}, endpoint)).toEqual({
      kind: 'endpoint',
      base: 'http://127.0.0.1:8080/v1',
      model: 'qwen',
      keySecret: 'llm/key',
    })
    expect(samplingChoice({ 'sampling-model': 'llama3' }, endpoint)).toMatchObject({
      model: 'llama3',
      keySecret: 'llm/key',
    })
    expect(samplingChoice({ 'sampling-ask': true }, endpoint)).toEqual({ kind: 'person' })
    expect(samplingChoice({}, profile({ command: ['node', 'answer.mjs'] }))).toEqual({
      kind: 'command',
      argv: ['node', 'answer.mjs'],
    })
    expect(samplingChoice({}, profile({ ask: true }))).toEqual({ kind: 'person' })
  })

  it("refuses a profile's sampling of the wrong shape, naming the file and the field", () => {
    const cases: Array<[unknown, RegExp]> = [
      ['node answer.mjs', /expected \{"command"/],
      [{ command: 'node answer.mjs' }, /"command" must be a list/],
      [{ command: ['node', 'a.mjs'], ask: true }, /exactly one of/],
      [{ url: 'http://127.0.0.1/v1', keySecret: 42 }, /name of an entry of the secret store/],
      [{ command: ['sh', '-c', 'x', '|', 'y'] }, /no shell runs it/],
      [{ ask: 'yes' }, /"ask" must be true/],
    ]
    for (const [sampling, message] of cases) {
      expect(() => samplingChoice({}, profile(sampling))).toThrow(message)
      expect(() => samplingChoice({}, profile(sampling))).toThrow(
        expect.objectContaining({
          code: 'profile_invalid',
          message: expect.stringContaining("/p/_meta.json: 'sampling'"),
        }),
      )
    }
  })
})

describe('an answer', () => {
  it('plain text is the answer as written, without the final line end', () => {
    expect(parseAnswer('Paris.\n', plain, 'answer.sh')).toEqual({
      role: 'assistant',
      content: { type: 'text', text: 'Paris.' },
      model: 'answer.sh',
      stopReason: 'endTurn',
    })
    // JSON that is not a result is text too.
    expect(parseAnswer('{"city": "Paris"}', plain, 'm').content).toEqual({
      type: 'text',
      text: '{"city": "Paris"}',
    })
  })

  it('a JSON result is checked and completed; a tool call needs tools offered, and one of them', () => {
    expect(parseAnswer('{"content": {"type": "text", "text": "ok"}, "model": "mine"}', plain, 'm')).toEqual({
      role: 'assistant',
      content: { type: 'text', text: 'ok' },
      model: 'mine',
      stopReason: 'endTurn',
    })
    const call =
      '{"content": [{"type": "tool_use", "id": "1", "name": "get_weather", "input": {"city": "Oslo"}}]}'
    expect(parseAnswer(call, withTools, 'm')).toMatchObject({
      content: [{ type: 'tool_use', id: '1', name: 'get_weather', input: { city: 'Oslo' } }],
      stopReason: 'toolUse',
    })
    expect(() => parseAnswer(call, plain, 'm')).toThrow(/calls a tool, but the request offered none/)
    expect(() => parseAnswer(call.replace('get_weather', 'rm'), withTools, 'm')).toThrow(
      /not one of the tools offered/,
    )
    expect(() =>
      parseAnswer('{"content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]}', plain, 'm'),
    ).toThrow(/without tools in the request it holds one/)
    expect(() => parseAnswer('{"content": {"type": "resource"}}', plain, 'm')).toThrow(/of type "resource"/)
    expect(() =>
      parseAnswer('{"content": {"type": "text", "text": "x"}, "role": "user"}', plain, 'm'),
    ).toThrow(/role must be "assistant"/)
    expect(() => parseAnswer('{"content": []}', plain, 'm')).toThrow(
      expect.objectContaining({ code: 'sampling_failed', message: 'the answer has no content' }),
    )
  })

  it('ends at the first stop sequence, dropping what follows', () => {
    const request = { ...plain, stopSequences: ['###', 'END'] }
    expect(applyStopSequences(parseAnswer('one END two ### three', request, 'm'), request)).toMatchObject({
      content: { type: 'text', text: 'one ' },
      stopReason: 'stopSequence',
    })
    expect(applyStopSequences(parseAnswer('nothing to stop', request, 'm'), request).stopReason).toBe(
      'endTurn',
    )
  })
})
