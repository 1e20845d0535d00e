// @module-tag integration
// Sampling from the command line, with real parts: server-everything's trigger-sampling-request
// and a registry of our own whose tool runs a tool loop through sampling (both eras, over stdio),
// answered by a program (--sampling-command) and by an OpenAI-compatible endpoint on 127.0.0.1
// (--sampling-url) whose requests match what the official `openai` client sends; the key from
// the secret store, never shown; traces; a profile's `sampling`; the shell; what fails (the
// program, the time limit) and exit 6 naming the flags when nothing answers.

import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { processRunning } from '@mcp-kit/client/internal'
import { node22Path, npmServers } from '@mcp-kit/fixtures'
import { writeSecrets } from '@mcp-kit/profiles'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { type ChatEndpoint, type ChatRequest, startChatEndpoint } from './chat-endpoint.js'
import { binPath, records, runCli } from './helpers.js'

const directory = mkdtempSync(join(tmpdir(), 'mcp-kit-sampling-'))
afterAll(() => rmSync(directory, { recursive: true, force: true }))
const file = (name: string, text: string) => {
  writeFileSync(join(directory, name), text)
  return join(directory, name)
}

const registry = fileURLToPath(new URL('./fixtures/sampling-registry.mjs', import.meta.url))
const ours = (query: string) =>
  `mcp+node://${binPath}?arg=serve&arg=${encodeURIComponent(registry)}&arg=--stdio&${query}`
const everything = (query: string) => `mcp+node://${npmServers.everything}?${query}`

// A model as a program: it logs each request, calls get_weather when offered tools, reads the
// tool's result, and otherwise summarizes (with a stop sequence in what it prints).
const requestLog = join(directory, 'requests.ndjson')
file(
  'answer.mjs',
  `import { appendFileSync } from 'node:fs'
let input = ''
process.stdin.on('data', (chunk) => (input += chunk)).on('end', () => {
  appendFileSync(${JSON.stringify(requestLog)}, input)
  const { params } = JSON.parse(input)
  const last = params.messages.at(-1)
  const result = (Array.isArray(last.content) ? last.content : [last.content]).find((block) => block.type === 'tool_result')
  if (params.tools && !result)
    console.log(JSON.stringify({ content: [{ type: 'tool_use', id: 'c1', name: 'get_weather', input: { city: 'Paris' } }], model: 'answer-bot' }))
  else if (result) console.log('It is ' + JSON.parse(result.content[0].text).celsius + ' degrees.')
  else console.log('The answer is 42. END of the answer')
})
`,
)
file('fail.mjs', `console.error('model server down')\nconsole.error('giving up')\nprocess.exit(3)\n`)
const slowPid = join(directory, 'slow.pid')
file(
  'slow.mjs',
  `import { writeFileSync } from 'node:fs'
writeFileSync(${JSON.stringify(slowPid)}, String(process.pid))
setInterval(() => {}, 1000)
`,
)
// A 2025-11-25 server that asks for sampling whatever the client declared.
const sloppy = file(
  'sloppy.mjs',
  `import { createInterface } from 'node:readline'
const send = (message) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...message }) + '\\n')
let call
createInterface({ input: process.stdin }).on('line', (line) => {
  const message = JSON.parse(line)
  if (message.method === 'initialize')
    send({ id: message.id, result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'sloppy', version: '1' } } })
  else if (message.method === 'tools/list') send({ id: message.id, result: { tools: [{ name: 'think', inputSchema: { type: 'object' } }] } })
  else if (message.method === 'tools/call') {
    call = message.id
    send({ id: 'q1', method: 'sampling/createMessage', params: { messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 5 } })
  } else if (message.id === 'q1')
    send({ id: call, result: { content: [{ type: 'text', text: JSON.stringify(message.error ?? message.result) }] } })
  else if (message.id !== undefined && message.method !== undefined) send({ id: message.id, error: { code: -32601, message: 'no' } })
})
`,
)

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
const answerCommand = ['--sampling-command', `node ${join(directory, 'answer.mjs')}`]
const trace = (path: string) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>)

describe('--sampling-command', () => {
  it("answers server-everything's trigger-sampling-request; the request on its stdin; the exchange in the trace", async () => {
    rmSync(requestLog, { force: true })
    const tracePath = join(directory, 'everything.trace')
    const result = await runCli([
      'cat',
      everything('tool=trigger-sampling-request&prompt=the meaning of life'),
      ...answerCommand,
      '--trace',
      tracePath,
    ])
    expect(result.code, result.stderr).toBe(0)
    const [record] = records(result.stdout) as Array<{ text: string }>
    expect(record?.text).toContain('"text": "The answer is 42. END of the answer"')
    expect(record?.text).toContain('"model": "node answer.mjs"')
    expect(JSON.parse(readFileSync(requestLog, 'utf8'))).toEqual({
      method: 'sampling/createMessage',
      params: {
        messages: [
          {
            role: 'user',
            content: { type: 'text', text: 'Resource trigger-sampling-request context: the meaning of life' },
          },
        ],
        systemPrompt: 'You are a helpful test server.',
        maxTokens: 100,
        temperature: 0.7,
      },
    })
    const [sampling, call] = trace(tracePath)
    expect(sampling).toMatchObject({
      kind: 'sampling',
      name: 'sampling/createMessage',
      ok: true,
      model: 'node answer.mjs',
      stop_reason: 'endTurn',
      args: { systemPrompt: 'You are a helpful test server.', maxTokens: 100 },
      answer: { type: 'text', text: 'The answer is 42. END of the answer' },
    })
    expect(call).toMatchObject({ kind: 'tool_call', name: 'trigger-sampling-request', ok: true })
    const redacted = join(directory, 'redacted.trace')
    const again = await runCli([
      'cat',
      everything('tool=trigger-sampling-request&prompt=secret plans'),
      ...answerCommand,
      '--trace',
      redacted,
      '--trace-redact-args',
    ])
    expect(again.code, again.stderr).toBe(0)
    expect(readFileSync(redacted, 'utf8')).not.toContain('secret plans')
    expect(trace(redacted)[0]).toMatchObject({
      kind: 'sampling',
      args: { messages: '[redacted]' },
      model: 'node answer.mjs',
    })
    expect(trace(redacted)[0]).not.toHaveProperty('answer')
  })

  for (const protocol of ['auto', '2025-11-25'] as const) {
    it(`runs a tool loop through sampling, and heeds the stop sequence (${protocol === 'auto' ? '2026-07-28' : protocol})`, async () => {
      const weather = await runCli([
        'cat',
        ours('tool=weather&city=Paris'),
        '--protocol',
        protocol,
        ...answerCommand,
      ])
      expect(weather.code, weather.stderr).toBe(0)
      expect(records(weather.stdout)).toEqual([
        { answer: 'It is 21 degrees.', rounds: 2, calls: [{ city: 'Paris' }], stopReason: 'endTurn' },
      ])
      const summary = await runCli([
        'cat',
        ours('tool=summarize&text=MCP'),
        '--protocol',
        protocol,
        ...answerCommand,
      ])
      expect(summary.code, summary.stderr).toBe(0)
      expect(records(summary.stdout)).toEqual([
        { answer: 'The answer is 42. ', model: 'node answer.mjs', stopReason: 'stopSequence' },
      ])
    })
  }

  it("a program that fails is told with its exit code and last stderr lines (2026: the call's error, exit 1)", async () => {
    const failing = ['--sampling-command', `node ${join(directory, 'fail.mjs')}`]
    const modern = await runCli(['cat', ours('tool=summarize&text=x'), ...failing])
    expect(modern.code).toBe(1)
    expect(records(modern.stdout)).toEqual([
      {
        error: {
          code: 'sampling_failed',
          message:
            'the sampling command node fail.mjs exited with code 3; its last stderr lines:\n  model server down\n  giving up',
          details: { exitCode: 3 },
        },
      },
    ])
    // 2025-11-25: the server is told, and its tool reports it.
    const legacy = await runCli([
      'cat',
      ours('tool=summarize&text=x'),
      '--protocol',
      '2025-11-25',
      ...failing,
    ])
    expect(legacy.code).toBe(1)
    expect(legacy.stderr).toContain('the sampling command node fail.mjs exited with code 3')
  })

  it('a program that outlives --input-timeout is ended with its process group; the command exits 4', async () => {
    rmSync(slowPid, { force: true })
    const result = await runCli([
      'cat',
      ours('tool=summarize&text=x'),
      '--sampling-command',
      `node ${join(directory, 'slow.mjs')}`,
      '--input-timeout',
      '1',
    ])
    expect(result.code).toBe(4)
    expect(result.stderr).toContain(
      'input question timed out after 1 s: the server asked for a model completion (sampling)',
    )
    const pid = Number(readFileSync(slowPid, 'utf8'))
    await expect.poll(() => processRunning(pid), { timeout: 5000 }).toBe(false)
  })

  it('answers in mcp-kit shell', async () => {
    const result = await runCli(['shell', ours(''), ...answerCommand], {
      input: 'summarize text=abc\nweather city=Oslo\n',
    })
    expect(result.code, result.stderr).toBe(0)
    expect(records(result.stdout)).toEqual([
      { answer: 'The answer is 42. ', model: 'node answer.mjs', stopReason: 'stopSequence' },
      { answer: 'It is 21 degrees.', rounds: 2, calls: [{ city: 'Paris' }], stopReason: 'endTurn' },
    ])
  })
})

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
        fileURLToPath(new URL('./fixtures/openai-requests.mjs', import.meta.url)),
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
})

describe('nobody to answer', () => {
  const hint =
    '(answer sampling with --sampling-command CMD, --sampling-url URL [--sampling-model NAME] or --sampling-ask)'

  it('mcp-kit declares no sampling: server-everything does not offer its sampling tool', async () => {
    const names = async (extra: string[]) => {
      const result = await runCli(['cat', everything('list=tools'), ...extra])
      expect(result.code, result.stderr).toBe(0)
      return (records(result.stdout) as Array<{ name: string }>).map((tool) => tool.name)
    }
    expect(await names([])).not.toContain('trigger-sampling-request')
    expect(await names(answerCommand)).toContain('trigger-sampling-request')
  })

  it('a server that needs sampling: exit 6 naming the flags (2026-07-28)', async () => {
    const result = await runCli(['cat', ours('tool=summarize&text=x')])
    expect(result.code).toBe(6)
    expect(result.stderr).toContain(
      `mcp-kit: tools/call 'summarize': the server needs the client to support sampling, which this client did not declare`,
    )
    expect(result.stderr).toContain(hint)
  })

  it('a server that asks anyway: exit 6 naming the flags (2025-11-25)', async () => {
    const result = await runCli(['cat', `mcp+node://${sloppy}?tool=think`])
    expect(result.code).toBe(6)
    expect(result.stderr).toContain(
      `the server asked for a model completion (sampling); this client has no model to answer with ${hint}`,
    )
  })

  it('--sampling-ask without a terminal: exit 6 saying so', async () => {
    const result = await runCli(['cat', ours('tool=summarize&text=x'), '--sampling-ask'])
    expect(result.code).toBe(6)
    expect(result.stderr).toContain(
      '--sampling-ask needs a terminal: run it on one, or answer with --sampling-command or --sampling-url',
    )
  })
})
