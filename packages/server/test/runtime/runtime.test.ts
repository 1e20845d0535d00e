import { describe, expect, test } from 'vitest'
import { ServerError } from '../../src/errors.js'
import { createToolRegistry } from '../../src/registry/registry.js'
import { createRuntime } from '../../src/runtime/runtime.js'
import type { TraceEntry } from '../../src/trace.js'

function textOf(result: { content?: Array<{ type: string; text?: string }> }): string {
  return (result.content ?? []).map((item) => item.text ?? '').join('\n')
}

function calculator() {
  return createToolRegistry()
    .tool({
      name: 'add',
      description: 'Adds two numbers',
      inputSchema: {
        type: 'object',
        properties: { a: { type: 'number' }, b: { type: 'number' } },
        required: ['a', 'b'],
        additionalProperties: false,
      },
      outputSchema: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] },
      handler: ({ a, b }: { a: number; b: number }) => ({ sum: a + b }),
    })
    .tool({
      name: 'broken-output',
      inputSchema: { type: 'object' },
      outputSchema: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] },
      // @ts-expect-error: the types refuse it too
      handler: () => ({ total: 'three' }),
    })
    .tool({
      name: 'text-only',
      outputSchema: { type: 'object' },
      // @ts-expect-error: the types refuse it too
      handler: () => 'no structured content',
    })
    .tool({
      name: 'fails',
      handler: () => {
        throw new Error('disk is full')
      },
    })
}

describe('tool calls', () => {
  test('a valid call returns the handler output as JSON text plus structuredContent', async () => {
    const runtime = createRuntime(calculator())
    expect(await runtime.callTool('add', { a: 2, b: 3 })).toEqual({
      content: [{ type: 'text', text: '{"sum":5}' }],
      structuredContent: { sum: 5 },
    })
  })

  test('invalid arguments are an isError result naming every bad parameter (SEP-1303)', async () => {
    const runtime = createRuntime(calculator())
    const result = await runtime.callTool('add', { a: 'two', extra: true })
    expect(result.isError).toBe(true)
    // The problem wording is @mcp-kit/schema's; here it matters that each parameter is named.
    const [heading, ...problems] = textOf(result).split('\n')
    expect(heading).toBe("Invalid arguments for tool 'add':")
    expect(problems).toHaveLength(3)
    expect(problems.find((line) => line.includes("missing required parameter 'b'"))).toBeDefined()
    expect(problems.find((line) => line.includes("unknown parameter 'extra'"))).toBeDefined()
    expect(problems.find((line) => /^a: must be a number/.test(line))).toBeDefined()
  })

  test('a throwing handler is an isError result with its message and no stack', async () => {
    const result = await createRuntime(calculator()).callTool('fails')
    expect(result).toEqual({ isError: true, content: [{ type: 'text', text: 'disk is full' }] })
  })

  test('structuredContent is checked against the outputSchema', async () => {
    const runtime = createRuntime(calculator())
    const mismatch = await runtime.callTool('broken-output')
    expect(mismatch.isError).toBe(true)
    expect(textOf(mismatch)).toMatch(
      /^Tool 'broken-output' returned structuredContent that does not match its outputSchema:\n/,
    )
    expect(textOf(mismatch)).toMatch(/sum/)
    const missing = await runtime.callTool('text-only')
    expect(textOf(missing)).toBe(
      "Tool 'text-only' declares an outputSchema but returned no structuredContent",
    )
  })

  test('an unknown tool throws ServerError tool_not_found', async () => {
    await expect(createRuntime(calculator()).callTool('nope')).rejects.toSatisfy(
      (error) =>
        ServerError.isInstance(error) &&
        error.code === 'tool_not_found' &&
        error.message === 'Unknown tool: nope',
    )
  })

  test('a call for a missing tool waits for the missing-tool waiter, then looks again', async () => {
    const registry = createToolRegistry()
    const asked: string[] = []
    const stop = registry.onMissingTool(async (name) => {
      asked.push(name)
      await new Promise((resolve) => setTimeout(resolve, 20))
      if (name === 'late') registry.tool({ name: 'late', handler: () => 'arrived' })
      if (name === 'guarded') registry.tool({ name: 'guarded', scopes: ['admin'], handler: () => 'no' })
      if (name === 'broken') throw new Error('the upstream never started')
    })
    const runtime = createRuntime(registry)
    expect(textOf(await runtime.callTool('late'))).toBe('arrived')
    // A tool that needs scopes came after the transport checked them: not for this call.
    await expect(runtime.callTool('guarded')).rejects.toThrow('Unknown tool: guarded')
    await expect(runtime.callTool('broken')).rejects.toThrow('Unknown tool: broken')
    expect(asked).toEqual(['late', 'guarded', 'broken'])
    stop()
    await expect(runtime.callTool('other')).rejects.toThrow('Unknown tool: other')
    expect(asked).toHaveLength(3)
  })

  test('handlers get progress, logging and cancellation from the caller', async () => {
    const registry = createToolRegistry().tool({
      name: 'work',
      handler: async (_args, context) => {
        await context.progress(1, 2, 'half')
        await context.log('info', { step: 1 }, 'worker')
        await new Promise((resolve) => context.signal.addEventListener('abort', resolve, { once: true }))
        throw new Error('stopped')
      },
    })
    const progress: unknown[] = []
    const logs: unknown[] = []
    const controller = new AbortController()
    const call = createRuntime(registry).callTool(
      'work',
      {},
      {
        signal: controller.signal,
        onProgress: (update) => progress.push(update),
        onLog: (message) => logs.push(message),
      },
    )
    await new Promise((resolve) => setTimeout(resolve, 10))
    controller.abort()
    await expect(call).rejects.toSatisfy(
      (error) => ServerError.isInstance(error) && error.code === 'cancelled',
    )
    expect(progress).toEqual([{ progress: 1, total: 2, message: 'half' }])
    expect(logs).toEqual([{ level: 'info', data: { step: 1 }, logger: 'worker' }])
  })

  test('sampling and elicitation are unsupported in-process unless the caller answers them', async () => {
    const registry = createToolRegistry().tool({
      name: 'ask',
      handler: async (_args, context) => {
        const answer = await context.elicit({
          message: 'name?',
          requestedSchema: { type: 'object', properties: {} },
        })
        return answer.action
      },
    })
    const runtime = createRuntime(registry)
    const unsupported = await runtime.callTool('ask')
    expect(unsupported).toEqual({
      isError: true,
      content: [{ type: 'text', text: 'the client does not support elicitation' }],
    })
    const answered = await runtime.callTool('ask', {}, { elicit: async () => ({ action: 'decline' }) })
    expect(textOf(answered)).toBe('decline')
  })
})

describe('traces', () => {
  test('one entry per tool call, resource read and prompt get, in the documented trace shape', async () => {
    const entries: TraceEntry[] = []
    const registry = calculator()
      .resource({ uri: 'demo://readme', name: 'readme', read: () => 'hello' })
      .prompt({
        name: 'greet',
        arguments: [{ name: 'name', required: true }],
        get: ({ name }) => `Hi ${name}`,
      })
    const runtime = createRuntime(registry, { onTrace: (entry) => entries.push(entry), serverName: 'unit' })
    await runtime.callTool('add', { a: 1, b: 2 })
    await runtime.callTool('add', { a: 1 })
    await runtime.callTool('nope', { x: 1 }).catch(() => {})
    await runtime.readResource('demo://readme')
    await runtime.readResource('demo://missing').catch(() => {})
    await runtime.getPrompt('greet', { name: 'Ann' })
    await runtime.getPrompt('greet', {}).catch(() => {})
    for (const entry of entries) {
      expect(typeof entry.ts_ms).toBe('number')
      expect(entry.latency_ms).toBeGreaterThanOrEqual(0)
      expect(entry.server).toBe('unit')
    }
    expect(entries.map(({ ts_ms: _ts, latency_ms: _latency, server: _server, ...rest }) => rest)).toEqual([
      { kind: 'tool_call', name: 'add', ok: true, args: { a: 1, b: 2 } },
      {
        kind: 'tool_call',
        name: 'add',
        ok: false,
        error_code: 'invalid_arguments',
        error_message: expect.stringMatching(
          /^Invalid arguments for tool 'add':\n.*missing required parameter 'b'$/,
        ),
        args: { a: 1 },
      },
      {
        kind: 'tool_call',
        name: 'nope',
        ok: false,
        error_code: 'tool_not_found',
        error_message: 'Unknown tool: nope',
        args: { x: 1 },
      },
      { kind: 'resource_read', name: 'demo://readme', ok: true, args: { uri: 'demo://readme' } },
      {
        kind: 'resource_read',
        name: 'demo://missing',
        ok: false,
        error_code: 'resource_not_found',
        error_message: 'Resource not found: demo://missing',
        args: { uri: 'demo://missing' },
      },
      { kind: 'prompt_get', name: 'greet', ok: true, args: { name: 'Ann' } },
      {
        kind: 'prompt_get',
        name: 'greet',
        ok: false,
        error_code: 'invalid_arguments',
        error_message: "Invalid arguments for prompt 'greet':\nmissing required argument 'name'",
        args: {},
      },
    ])
  })

  test('argument values can be redacted, and a throwing trace sink does not fail the call', async () => {
    const entries: TraceEntry[] = []
    const runtime = createRuntime(calculator(), {
      redactTraceArguments: true,
      onTrace: (entry) => {
        entries.push(entry)
        throw new Error('sink is broken')
      },
    })
    expect((await runtime.callTool('add', { a: 1, b: 2 })).isError).toBeUndefined()
    expect(entries[0]?.args).toEqual({ a: '[redacted]', b: '[redacted]' })
  })
})

describe('resources', () => {
  test('static and templated reads; text, bytes and full results', async () => {
    const registry = createToolRegistry()
      .resource({ uri: 'demo://text', name: 'text', read: () => 'plain' })
      .resource({
        uri: 'demo://bytes',
        name: 'bytes',
        mimeType: 'image/png',
        read: () => new Uint8Array([1, 2, 3]),
      })
      .resourceTemplate({
        uriTemplate: 'users://{id}/profile',
        name: 'profile',
        mimeType: 'application/json',
        read: (uri, { id }) => ({ contents: [{ uri, text: JSON.stringify({ id }) }] }),
      })
    const runtime = createRuntime(registry)
    expect(await runtime.readResource('demo://text')).toEqual({
      contents: [{ uri: 'demo://text', mimeType: 'text/plain', text: 'plain' }],
    })
    expect(await runtime.readResource('demo://bytes')).toEqual({
      contents: [{ uri: 'demo://bytes', mimeType: 'image/png', blob: 'AQID' }],
    })
    expect(await runtime.readResource('users://7/profile')).toEqual({
      contents: [{ uri: 'users://7/profile', text: '{"id":"7"}' }],
    })
    expect(runtime.listResourceTemplates()).toEqual([
      { uriTemplate: 'users://{id}/profile', name: 'profile', mimeType: 'application/json' },
    ])
  })

  test('a TTL cache answers from memory until it expires, with fetched_at, one load for concurrent reads', async () => {
    let clock = Date.parse('2030-01-01T00:00:00.000Z')
    let loads = 0
    const registry = createToolRegistry().resource({
      uri: 'weather://today',
      name: 'today',
      ttlMs: 60_000,
      read: async () => {
        loads += 1
        await new Promise((resolve) => setTimeout(resolve, 5))
        return `forecast ${loads}`
      },
    })
    const runtime = createRuntime(registry, { now: () => clock })
    const [first, concurrent] = await Promise.all([
      runtime.readResource('weather://today'),
      runtime.readResource('weather://today'),
    ])
    expect(loads).toBe(1)
    expect(first).toEqual({
      contents: [{ uri: 'weather://today', mimeType: 'text/plain', text: 'forecast 1' }],
      _meta: { fetched_at: '2030-01-01T00:00:00.000Z' },
    })
    expect(concurrent).toBe(first)
    clock += 59_999
    expect(await runtime.readResource('weather://today')).toBe(first)
    clock += 1
    const refreshed = await runtime.readResource('weather://today')
    expect(loads).toBe(2)
    expect(refreshed._meta).toEqual({ fetched_at: '2030-01-01T00:01:00.000Z' })
    expect(refreshed.contents[0]).toMatchObject({ text: 'forecast 2' })
  })

  test('resourceUpdated drops the cached read; errors are not cached', async () => {
    let version = 0
    let fail = true
    const registry = createToolRegistry().resource({
      uri: 'doc://a',
      name: 'a',
      ttlMs: 60_000,
      read: () => {
        if (fail) throw new Error('backend down')
        version += 1
        return `v${version}`
      },
    })
    const runtime = createRuntime(registry)
    await expect(runtime.readResource('doc://a')).rejects.toSatisfy(
      (error) =>
        ServerError.isInstance(error) && error.code === 'server_error' && /backend down/.test(error.message),
    )
    fail = false
    expect((await runtime.readResource('doc://a')).contents[0]).toMatchObject({ text: 'v1' })
    expect((await runtime.readResource('doc://a')).contents[0]).toMatchObject({ text: 'v1' })
    registry.resourceUpdated('doc://a')
    expect((await runtime.readResource('doc://a')).contents[0]).toMatchObject({ text: 'v2' })
  })
})

describe('prompts and completions', () => {
  const registry = createToolRegistry()
    .prompt({
      name: 'review',
      description: 'Review code',
      arguments: [
        {
          name: 'language',
          required: true,
          complete: (value) => ['go', 'javascript', 'java'].filter((name) => name.startsWith(value)),
        },
        { name: 'focus' },
      ],
      get: ({ language, focus }) => `Review this ${language} code${focus ? ` for ${focus}` : ''}.`,
    })
    .resourceTemplate({
      uriTemplate: 'repo://{owner}/{name}',
      name: 'repo',
      read: () => '',
      complete: { owner: () => Array.from({ length: 150 }, (_, index) => `owner${index}`) },
    })

  test('a prompt with arguments; a missing required argument is invalid_arguments', async () => {
    const runtime = createRuntime(registry)
    expect(await runtime.getPrompt('review', { language: 'go' })).toEqual({
      description: 'Review code',
      messages: [{ role: 'user', content: { type: 'text', text: 'Review this go code.' } }],
    })
    await expect(runtime.getPrompt('review')).rejects.toSatisfy(
      (error) => ServerError.isInstance(error) && error.code === 'invalid_arguments',
    )
    await expect(runtime.getPrompt('nope')).rejects.toSatisfy(
      (error) => ServerError.isInstance(error) && error.code === 'prompt_not_found',
    )
  })

  test('completions for prompt arguments and template variables, at most 100 values', async () => {
    const runtime = createRuntime(registry)
    expect(
      await runtime.complete({ type: 'ref/prompt', name: 'review' }, { name: 'language', value: 'ja' }),
    ).toEqual({
      values: ['javascript', 'java'],
      total: 2,
      hasMore: false,
    })
    expect(
      await runtime.complete({ type: 'ref/prompt', name: 'review' }, { name: 'focus', value: '' }),
    ).toEqual({
      values: [],
      total: 0,
      hasMore: false,
    })
    const many = await runtime.complete(
      { type: 'ref/resource', uri: 'repo://{owner}/{name}' },
      { name: 'owner', value: '' },
    )
    expect(many.values).toHaveLength(100)
    expect(many).toMatchObject({ total: 150, hasMore: true })
  })
})

test('listings follow late registrations', () => {
  const registry = createToolRegistry().tool({ name: 'a', description: 'A', handler: () => '' })
  const runtime = createRuntime(registry)
  expect(runtime.listTools().map((tool) => tool.name)).toEqual(['a'])
  registry.tool({ name: 'b', description: 'B', handler: () => '' })
  expect(runtime.listTools().map((tool) => tool.name)).toEqual(['a', 'b'])
  expect(runtime.listTools()[0]).toEqual({
    name: 'a',
    description: 'A',
    inputSchema: { type: 'object', properties: {} },
  })
})
