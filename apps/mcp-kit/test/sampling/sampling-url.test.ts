// @module-tag integration
// Sampling answered by an OpenAI-compatible endpoint (--sampling-url), a fake on 127.0.0.1
// (chat-endpoint.ts) whose requests are compared with what the official `openai` npm client
// sends for the same conversations (run on Node 22, as it asks): server-everything and our
// tool-loop registry in both eras, the model by flag or by the server's hints, the key from the
// secret store or the environment and shown nowhere, a profile's `sampling` and one saved from
// the flags.

import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { node22Path } from '@mcp-kit/fixtures'
import { writeSecrets } from '@mcp-kit/profiles'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { type ChatEndpoint, type ChatRequest, startChatEndpoint } from '../helpers/chat-endpoint.js'
import { binPath, records, runCli } from '../helpers/helpers.js'
import {
  answerProgram,
  everything,
  ours,
  samplingRegistry as registry,
} from '../helpers/sampling-fixtures.js'

const directory = mkdtempSync(join(tmpdir(), 'mcp-kit-sampling-url-'))
afterAll(() => rmSync(directory, { recursive: true, force: true }))
const { flags: answerCommand } = answerProgram(directory)

const endpoints: ChatEndpoint[] = []
afterEach(async () => {
  for (const endpoint of endpoints.splice(0)) await endpoint.close()
})
async function endpoint(key?: string): Promise<ChatEndpoint> {
  const started = await startChatEndpoint({ key })
  endpoints.push(started)
  return started
}
const chat = (requests: ChatRequest[]) =>
  requests.filter((request) => request.path.endsWith('/chat/completions'))

describe('--sampling-url (an OpenAI-compatible endpoint)', () => {
  const home = mkdtempSync(join(tmpdir(), 'mcp-kit-sampling-home-'))
  afterAll(() => rmSync(home, { recursive: true, force: true }))
  const key = 'sk-test-0123456789abcdef'
  const env = { MCP_KIT_HOME: home }

  it("answers server-everything with the endpoint's model; the key comes from the secret store and is shown nowhere", async () => {
    await writeSecrets({ 'llm/key': key }, { env })
    const chatEndpoint = await endpoint(key)
    const tracePath = join(home, 'trace.ndjson')
    const result = await runCli(
      [
        'cat',
        everything('tool=trigger-sampling-request&prompt=hello'),
        '--sampling-url',
        chatEndpoint.base,
        '--sampling-model',
        'general-7b',
        '--sampling-key-secret',
        'llm/key',
        '--trace',
        tracePath,
        '--verbose',
      ],
      { env },
    )
    expect(result.code, result.stderr).toBe(0)
    const [record] = records(result.stdout) as Array<{ text: string }>
    expect(record?.text).toContain('"text": "A one-line summary."')
    expect(record?.text).toContain('"model": "general-7b"')
    expect(result.stderr).toContain('sampling answered by general-7b (endTurn)')
    const [sent] = chat(chatEndpoint.requests)
    expect(sent?.headers.authorization).toBe(`Bearer ${key}`)
    expect(sent?.body).toEqual({
      model: 'general-7b',
      messages: [
        { role: 'system', content: 'You are a helpful test server.' },
        { role: 'user', content: 'Resource trigger-sampling-request context: hello' },
      ],
      max_tokens: 100,
      temperature: 0.7,
    })
    for (const text of [result.stdout, result.stderr, readFileSync(tracePath, 'utf8')])
      expect(text).not.toContain(key)
    // The same key from the environment; a wrong one is the endpoint's 401, told.
    const fromEnvironment = await runCli(
      ['cat', everything('tool=trigger-sampling-request&prompt=hello'), '--sampling-url', chatEndpoint.base],
      { env: { ...env, MCP_KIT_SAMPLING_KEY: key } },
    )
    expect(fromEnvironment.code, fromEnvironment.stderr).toBe(0)
    const wrong = await runCli(
      ['cat', everything('tool=trigger-sampling-request&prompt=hello'), '--sampling-url', chatEndpoint.base],
      { env: { ...env, MCP_KIT_SAMPLING_KEY: 'sk-wrong' } },
    )
    expect(wrong.code).toBe(1)
    expect(wrong.stdout).toContain('answered HTTP 401: Incorrect API key provided (is the API key right?')
  })

  it('sends what the official openai client sends for the same conversations, a tool loop included (both eras)', async () => {
    const ours2026 = await endpoint()
    for (const [tool, protocol] of [
      ['summarize&text=the MCP spec', 'auto'],
      ['weather&city=Paris', 'auto'],
      ['weather&city=Paris', '2025-11-25'],
    ] as const) {
      const result = await runCli(
        ['cat', ours(`tool=${tool}`), '--protocol', protocol, '--sampling-url', ours2026.base],
        {
          env: { MCP_KIT_SAMPLING_KEY: key },
        },
      )
      expect(result.code, result.stderr).toBe(0)
      expect(records(result.stdout)[0]).toMatchObject(
        tool.startsWith('summarize')
          ? { answer: 'A one-line summary.', model: 'summarizer-mini', stopReason: 'endTurn' }
          : {
              answer: 'It is 21 degrees in Paris.',
              rounds: 2,
              calls: [{ city: 'Paris' }],
              stopReason: 'endTurn',
            },
      )
    }
    // Without --sampling-model the server's hint ("summarizer") chose among the models listed.
    expect(ours2026.requests[0]).toMatchObject({ method: 'GET', path: '/v1/models' })
    const [summary, firstRound, secondRound, , legacySecondRound] = chat(ours2026.requests)
    expect(firstRound?.body?.tools).toBeDefined()
    expect(legacySecondRound?.body).toEqual(secondRound?.body)

    const official = await endpoint()
    // The fake answers in this process: the client runs beside it (Node 22, as openai asks).
    await promisify(execFile)(
      node22Path,
      [
        fileURLToPath(new URL('../fixtures/openai-requests.mjs', import.meta.url)),
        official.base,
        key,
        'summarizer-mini',
      ],
      { encoding: 'utf8', timeout: 60_000 },
    )
    const [officialSummary, officialRound] = chat(official.requests)
    expect(summary?.body).toEqual(officialSummary?.body)
    expect(secondRound?.body).toEqual({ ...officialRound?.body, model: secondRound?.body?.model })
    for (const [mine, theirs] of [
      [summary, officialSummary],
      [secondRound, officialRound],
    ]) {
      expect([mine?.method, mine?.path]).toEqual([theirs?.method, theirs?.path])
      expect(mine?.headers['content-type']).toBe(theirs?.headers['content-type'])
      expect(mine?.headers.authorization).toBe(theirs?.headers.authorization)
      expect(mine?.headers.accept).toBe(theirs?.headers.accept)
    }
  })

  it("a profile's `sampling` chooses the endpoint, its key by name in the secret store", async () => {
    await writeSecrets({ 'llm/key': key }, { env })
    const chatEndpoint = await endpoint(key)
    mkdirSync(join(home, 'profiles'), { recursive: true })
    writeFileSync(
      join(home, 'profiles', 'thinker.json'),
      JSON.stringify({
        command: process.execPath,
        args: [binPath, 'serve', registry, '--stdio'],
        sampling: { url: chatEndpoint.base, model: 'general-7b', keySecret: 'llm/key' },
      }),
    )
    const result = await runCli(['cat', '@thinker/summarize', 'text=profiles'], { env })
    expect(result.code, result.stderr).toBe(0)
    expect(records(result.stdout)).toEqual([
      { answer: 'A one-line summary.', model: 'general-7b', stopReason: 'endTurn' },
    ])
    expect(readFileSync(join(home, 'profiles', 'thinker.json'), 'utf8')).not.toContain(key)
    // A flag naming another answerer wins.
    const flagged = await runCli(['cat', '@thinker/summarize', 'text=profiles', ...answerCommand], { env })
    expect(records(flagged.stdout)).toEqual([
      { answer: 'The answer is 42. ', model: 'node answer.mjs', stopReason: 'stopSequence' },
    ])
  })

  it('a profile saved from a command keeps its sampling flags: the endpoint, the model and the secret by name', async () => {
    await writeSecrets({ 'llm/key': key }, { env })
    const chatEndpoint = await endpoint(key)
    const saved = await runCli(
      [
        'profile',
        'create',
        'saved-thinker',
        '--from',
        ours(''),
        '--sampling-url',
        chatEndpoint.base,
        '--sampling-model',
        'general-7b',
        '--sampling-key-secret',
        'llm/key',
      ],
      { env },
    )
    expect(saved.code, saved.stderr).toBe(0)
    const meta = readFileSync(join(home, 'profiles', 'saved-thinker', '_meta.json'), 'utf8')
    expect(JSON.parse(meta).sampling).toEqual({
      url: chatEndpoint.base,
      model: 'general-7b',
      keySecret: 'llm/key',
    })
    expect(meta).not.toContain(key)
    const result = await runCli(['cat', '@saved-thinker/weather', 'city=Paris'], { env })
    expect(result.code, result.stderr).toBe(0)
    expect(records(result.stdout)).toEqual([
      { answer: 'It is 21 degrees in Paris.', rounds: 2, calls: [{ city: 'Paris' }], stopReason: 'endTurn' },
    ])
  })
})
