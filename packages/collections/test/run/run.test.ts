// Running collections against mcp-kit's own server in this process (Streamable HTTP on
// 127.0.0.1): every kind of step and assertion, captures between steps, answers to questions,
// and what bail, grep, skip, time limits and an unreachable server do to a run.

import { randomUUID } from 'node:crypto'
import { createToolRegistry, type RunningHttpServer, startHttpServer } from '@mcp-kit/server'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  CollectionError,
  parseCollection,
  type RunOptions,
  runCollection,
  type StepResult,
} from '../../src/index.js'

let server: RunningHttpServer
let count = 0

beforeAll(async () => {
  const registry = createToolRegistry()
    .tool({
      name: 'add',
      inputSchema: {
        type: 'object',
        properties: { a: { type: 'number' }, b: { type: 'number' } },
        required: ['a', 'b'],
      },
      outputSchema: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] },
      handler: ({ a, b }: { a: number; b: number }) => ({ sum: a + b }),
    })
    .tool({
      name: 'create',
      handler: () => ({ id: `item-${++count}`, at: new Date().toISOString(), token: randomUUID() }),
      outputSchema: { type: 'object' },
    })
    .tool({
      name: 'get',
      inputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
      handler: ({ id }: { id: string }) => `got ${id}`,
    })
    .tool({
      name: 'confirm',
      async handler(_args, context) {
        const answer = await context.elicit({
          message: 'Go ahead?',
          requestedSchema: {
            type: 'object',
            properties: { ok: { type: 'boolean' }, note: { type: 'string', default: 'none' } },
            required: ['ok'],
          },
        })
        return answer.action === 'accept'
          ? `ok=${answer.content?.ok} note=${answer.content?.note}`
          : answer.action
      },
    })
    .tool({
      name: 'fail',
      handler: () => ({ content: [{ type: 'text', text: 'it broke' }], isError: true }),
    })
    .tool({
      name: 'slow',
      inputSchema: { type: 'object', properties: { ms: { type: 'number' } } },
      handler: ({ ms = 100 }: { ms?: number }, context) =>
        new Promise((resolve) => {
          const timer = setTimeout(() => resolve('done'), ms)
          context.signal.addEventListener('abort', () => clearTimeout(timer))
        }),
    })
    .resource({ uri: 'demo://readme', name: 'readme', mimeType: 'text/plain', read: () => 'Read me.' })
    .prompt({
      name: 'greet',
      arguments: [{ name: 'name', required: true }],
      get: ({ name }: { name: string }) => `Say hello to ${name}`,
    })
  server = await startHttpServer(registry, { port: 0, host: '127.0.0.1' })
})
afterAll(() => server.close())

async function run(yaml: string, options: RunOptions = {}) {
  const collection = parseCollection(`servers:\n  demo:\n    url: \${URL}\n${yaml}`, { file: 'suite.yaml' })
  const seen: StepResult[] = []
  const result = await runCollection(collection, {
    env: {},
    variables: { URL: server.url },
    onStep: (step) => {
      seen.push(step)
    },
    ...options,
  })
  expect(seen.map((step) => step.index).sort()).toEqual(result.steps.map((step) => step.index).sort())
  return result
}

const statuses = (steps: readonly StepResult[]) => steps.map((step) => [step.name, step.status])

describe('steps and assertions that hold', () => {
  test('calls, captures, answers, reads, prompts and lists', async () => {
    const result = await run(`steps:
  - name: adds
    call: add
    arguments: { a: 2, b: 3 }
    expect:
      outputSchema: true
      result: { content: [{ type: text, text: '{"sum":5}' }], structuredContent: { sum: 5 } }
      json:
        - { path: $.structuredContent.sum, equals: 5 }
        - { path: $.structuredContent.sum, type: integer, greaterThan: 4, lessThan: 6 }
        - { path: $.content, length: 1 }
        - { path: $.structuredContent, schema: { type: object, required: [sum] } }
  - call: create
    capture: { id: $.structuredContent.id }
    expect:
      json:
        - { path: $.structuredContent.at, matches: '^\\d{4}-' }
        - { path: $.structuredContent.id, matches: '/^ITEM-/i' }
  - call: get
    arguments: { id: '\${id}' }
    expect:
      json:
        - { path: '$.content[0].text', equals: 'got \${id}' }
  - call: confirm
    answers: { ok: true }
    expect:
      json: [{ path: '$.content[0].text', equals: 'ok=true note=none' }]
  - name: declined
    call: confirm
    answers: decline
    expect:
      json: [{ path: '$.content[0].text', contains: 'decline' }]
  - call: fail
    expect:
      error: tool_error
      json: [{ path: $.isError, equals: true }]
  - call: missing
    expect: { error: { code: tool_not_found } }
  - read: demo://readme
    expect:
      json: [{ path: '$.contents[0].text', equals: Read me. }]
  - prompt: greet
    arguments: { name: Ada }
    expect:
      json: [{ path: '$.messages[0].content.text', contains: Ada }]
  - list: tools
    expect:
      json:
        - { path: "$.tools[?@.name == 'add'].inputSchema.required", equals: [a, b] }
        - { path: "$.tools[?@.name == 'nope']", exists: false }
`)
    expect(result.steps.flatMap((step) => step.failures)).toEqual([])
    expect(statuses(result.steps).every(([, status]) => status === 'passed')).toBe(true)
    expect(result.steps[1]?.captured).toEqual({ id: expect.stringMatching(/^item-\d+$/) })
    expect(result.unreachable).toEqual([])
  })

  test('the tools hash and no breaking drift from a baseline', async () => {
    const { hashTools } = await import('@mcp-kit/schema')
    const { connect } = await import('@mcp-kit/client')
    const session = await connect({ transport: 'http', url: server.url })
    const tools = await session.listTools()
    await session.close()
    const baseline = JSON.stringify(tools.filter((tool) => tool.name === 'add' || tool.name === 'get'))
    const passed = await run(`steps:
  - list: tools
    expect:
      schemaHash: ${hashTools(tools)}
      drift: { baseline: ${baseline} }
`)
    expect(passed.steps[0]?.failures).toEqual([])
    const changed = JSON.parse(baseline)
    changed[0].inputSchema.properties.c = { type: 'number' }
    changed[0].inputSchema.required.push('c')
    changed[1].inputSchema.properties.id.type = 'integer'
    const failed = await run(`steps:
  - list: tools
    expect:
      schemaHash: sha256:${'0'.repeat(64)}
      drift: { baseline: ${JSON.stringify(changed)} }
`)
    expect(failed.steps[0]?.failures.map((failure) => [failure.assertion, failure.message])).toEqual([
      [
        'schemaHash',
        expect.stringMatching(/^the tools' schema hash is sha256:[0-9a-f]{64}, expected sha256:0{64}/),
      ],
      ['drift', expect.stringMatching(/^breaking: .*'c'.*'add'|^breaking: .*'add'.*'c'/)],
      ['drift', expect.stringMatching(/^breaking: .*'id'.*integer.*string|^breaking: .*'get'/)],
    ])
  })
})

describe('assertions that do not hold', () => {
  test('a snapshot names each path that differs; masks hide timestamps, UUIDs and paths', async () => {
    const result = await run(`steps:
  - call: add
    arguments: { a: 1, b: 1 }
    expect:
      result: { content: [{ type: text, text: '{"sum":3}' }], structuredContent: { sum: 3, extra: true } }
  - call: create
    expect:
      masks: [{ path: $.structuredContent.id }, { path: '$.content[0].text' }]
      result:
        content: [{ type: text, text: x }]
        structuredContent: { id: item-0, at: '2020-01-01T00:00:00.000Z', token: 00000000-0000-0000-0000-000000000000 }
masks:
  - { name: timestamp, pattern: '\\d{4}-\\d{2}-\\d{2}T[0-9:.]+Z' }
  - { name: uuid, pattern: '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}' }
`)
    expect(result.steps[0]?.failures.map((failure) => failure.message)).toEqual([
      '$.content[0].text: expected "{\\"sum\\":3}", got "{\\"sum\\":2}"',
      '$.structuredContent.sum: expected 3, got 2',
      '$.structuredContent.extra: missing (expected true)',
    ])
    expect(result.steps[1]?.failures).toEqual([])
  })

  test('errors, JSONPaths, latency, tasks and captures', async () => {
    const result = await run(`steps:
  - call: add
    arguments: { a: 1, b: 1 }
    expect:
      error: true
  - call: fail
    expect: { error: { code: tool_error, message: works } }
  - call: fail
  - call: add
    arguments: { a: 1, b: 1 }
    capture: { nothing: $.structuredContent.none }
    expect:
      task: true
      json:
        - { path: $.structuredContent.sum, equals: 3 }
        - { path: $.structuredContent.none, exists: true }
        - { path: $.structuredContent.sum, exists: false }
  - call: slow
    arguments: { ms: 150 }
    expect: { maxLatency: 10ms }
  - call: get
    arguments: { id: '\${nothing}' }
`)
    const messages = result.steps.map((step) =>
      step.failures.map((failure) => `${failure.assertion}: ${failure.message}`),
    )
    expect(messages[0]).toEqual(['error: expected it to fail, but it succeeded'])
    expect(messages[1]).toEqual(['error: expected an error message containing "works", got "it broke"'])
    expect(messages[2]).toEqual(['error: failed with tool_error: it broke'])
    expect(messages[3]).toEqual([
      'json: $.structuredContent.sum: expected 3, got 2',
      'json: $.structuredContent.none matched nothing',
      'json: $.structuredContent.sum: expected nothing at $.structuredContent.sum, got 2',
      'task: expected the call to become a task; it was answered at once',
      "capture: capture 'nothing': $.structuredContent.none matched nothing",
    ])
    expect(messages[4]).toEqual([
      expect.stringMatching(/^maxLatency: took \d+ ms, over the budget of 10 ms$/),
    ])
    expect(result.steps[5]).toMatchObject({
      status: 'skipped',
      skipped: "needs ${nothing}, which step 4 'call add' did not capture",
    })
  })

  test('an unanswered question names the field the step must answer', async () => {
    const result = await run('steps:\n  - call: confirm\n')
    expect(result.steps[0]?.failures[0]?.message).toMatch(
      /failed with input_required: .*the server asks "Go ahead\?" and needs 'ok': give it in the step's answers/,
    )
  })
})

describe('how a run goes', () => {
  test('bail skips what follows a failure; skip and grep choose steps (with what they capture from)', async () => {
    const steps = `steps:
  - name: first
    call: add
    arguments: { a: 1, b: 2 }
    capture: { sum: $.structuredContent.sum }
  - name: broken
    call: fail
  - name: skipped by the file
    call: add
    arguments: { a: 1, b: 2 }
    skip: not today
  - name: uses the sum
    call: get
    arguments: { id: 'sum \${sum}' }
    expect:
      json: [{ path: '$.content[0].text', equals: got sum 3 }]
`
    expect(statuses((await run(steps, { bail: true })).steps)).toEqual([
      ['first', 'passed'],
      ['broken', 'failed'],
      ['skipped by the file', 'skipped'],
      ['uses the sum', 'skipped'],
    ])
    expect(statuses((await run(steps)).steps)).toEqual([
      ['first', 'passed'],
      ['broken', 'failed'],
      ['skipped by the file', 'skipped'],
      ['uses the sum', 'passed'],
    ])
    expect(statuses((await run(steps, { grep: 'USES' })).steps)).toEqual([
      ['first', 'passed'],
      ['uses the sum', 'passed'],
    ])
  })

  test("a step's timeout fails it; the run's signal stops the rest", async () => {
    const timed = await run(
      'steps:\n  - call: slow\n    arguments: { ms: 5000 }\n    timeout: 200ms\n  - call: add\n    arguments: { a: 1, b: 1 }\n',
    )
    expect(timed.steps[0]?.failures).toEqual([
      { assertion: 'timeout', message: "no answer within 200 ms (the step's timeout)" },
    ])
    expect(timed.steps[1]?.status).toBe('passed')
    const stopped = await run(
      'steps:\n  - call: slow\n    arguments: { ms: 5000 }\n  - call: add\n    arguments: { a: 1, b: 1 }\n',
      { signal: AbortSignal.timeout(300) },
    )
    expect(stopped.steps.map((step) => step.status)).toEqual(['failed', 'skipped'])
    expect(stopped.steps[0]?.failures[0]?.message).toMatch(/^the run stopped/)
  })

  test('a variable nothing sets is a bad collection, before anything runs', async () => {
    await expect(run('steps:\n  - call: get\n    arguments: { id: "${NOPE}" }\n')).rejects.toSatisfy(
      (error: unknown) =>
        CollectionError.isInstance(error) &&
        error.code === 'invalid_collection' &&
        error.message.startsWith("suite.yaml:5: step 1 'call get': ${NOPE} is not set"),
    )
  })

  test('parallel servers: each keeps its own captures; a capture across servers is refused', async () => {
    const head = `servers:\n  a: { url: '${'${URL}'}' }\n  b: { url: '${'${URL}'}' }\nsteps:\n`
    const create = (on: string) =>
      `  - { server: ${on}, call: create, capture: { id: $.structuredContent.id } }\n`
    const get = (on: string) =>
      `  - { server: ${on}, call: get, arguments: { id: '${'${id}'}' }, capture: { said: "$.content[0].text" } }\n`
    const options = { env: {}, variables: { URL: server.url }, parallel: true }
    const own = await runCollection(
      parseCollection(head + create('a') + create('b') + get('a'), { file: 'two.yaml' }),
      options,
    )
    expect(own.steps.map((step) => step.status)).toEqual(['passed', 'passed', 'passed'])
    expect(own.steps[2]?.captured?.said).toBe(`got ${own.steps[0]?.captured?.id}`)
    await expect(
      runCollection(parseCollection(head + create('a') + get('b'), { file: 'two.yaml' }), options),
    ).rejects.toThrow(
      "two.yaml:6: step 2 'call get': uses ${id}, which only another server's step captures: servers running in parallel share no captures",
    )
    expect(() =>
      parseCollection(`parallel: true\n${head}${create('a')}${get('b')}`, { file: 'two.yaml' }),
    ).toThrow(
      "two.yaml:7:5: step 2 'call get': uses ${id}, captured by step 1 on server 'a': with 'parallel: true' a step uses only values captured on its own server",
    )
  })

  test('an unreachable server: its steps are errors, other servers run', async () => {
    const collection = parseCollection(
      `servers:\n  up: { url: '${server.url}' }\n  down: { url: 'http://127.0.0.1:9/mcp' }\nsteps:\n  - { server: down, list: tools }\n  - { server: up, call: add, arguments: { a: 1, b: 1 } }\n`,
      { file: 'two.yaml' },
    )
    const result = await runCollection(collection, {
      env: {},
      parallel: true,
      connectOptions: { connectTimeoutMs: 5000 },
    })
    expect(statuses(result.steps)).toEqual([
      ['list tools', 'error'],
      ['call add', 'passed'],
    ])
    expect(result.unreachable).toEqual([
      { server: 'down', code: expect.any(String), message: expect.any(String) },
    ])
  })
})
