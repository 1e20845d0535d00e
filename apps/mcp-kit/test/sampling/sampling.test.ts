// @module-tag integration
// Sampling from the command line, answered by a program (--sampling-command), with real parts:
// server-everything's trigger-sampling-request and a registry of our own whose tool runs a tool
// loop through sampling (both eras, over stdio, and through a gateway); the request on the
// program's stdin; traces; the shell; what fails (the program, the time limit); and exit 6
// naming the flags when nothing answers. The endpoint answerer: sampling-url.test.ts.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { processRunning } from '@mcp-kit/client/internal'
import { afterAll, describe, expect, it } from 'vitest'
import { binPath, records, runCli } from '../helpers/helpers.js'
import { answerProgram, everything, ours } from '../helpers/sampling-fixtures.js'

const directory = mkdtempSync(join(tmpdir(), 'mcp-kit-sampling-'))
afterAll(() => rmSync(directory, { recursive: true, force: true }))
const file = (name: string, text: string) => {
  writeFileSync(join(directory, name), text)
  return join(directory, name)
}

const { flags: answerCommand, requestLog } = answerProgram(directory)
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
        '--verbose',
      ])
      expect(summary.code, summary.stderr).toBe(0)
      expect(summary.stderr).toContain(
        'mcp-kit: the server asks to include context from thisServer in sampling; mcp-kit includes none',
      )
      expect(summary.stderr).toMatch(
        /mcp-kit: sampling answered by node answer\.mjs \(stopSequence\) in \d+ ms/,
      )
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

  for (const protocol of ['auto', '2025-11-25'] as const) {
    it(`answers through a gateway (mcp-kit serve), the upstream's tool loop included (${protocol === 'auto' ? '2026-07-28' : protocol})`, async () => {
      const gateway = ['--', process.execPath, binPath, 'serve', `thinker=${ours('')}`, '--stdio']
      const result = await runCli([
        'cat',
        '?tool=thinker__weather&city=Paris',
        '--protocol',
        protocol,
        ...answerCommand,
        ...gateway,
      ])
      expect(result.code, result.stderr).toBe(0)
      expect(records(result.stdout)).toEqual([
        { answer: 'It is 21 degrees.', rounds: 2, calls: [{ city: 'Paris' }], stopReason: 'endTurn' },
      ])
      const refused = await runCli([
        'cat',
        '?tool=thinker__summarize&text=x',
        '--protocol',
        protocol,
        ...gateway,
      ])
      expect(refused.code).toBe(protocol === 'auto' ? 6 : 1)
      expect(refused.stderr).toMatch(
        protocol === 'auto' ? /--sampling-command CMD/ : /does not support sampling/,
      )
    })
  }

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
