// @module-tag integration
// Session behaviour: cached and filtered tool discovery, list_changed, pagination, traces,
// and the environment stdio servers start with.

import { describe, expect, it } from 'vitest'
import { connect, type TraceEntry } from '../../src/index.js'
import { buildEnvironment } from '../../src/internal.js'
// Not exported: the tool filter as a function.
import { filterTools } from '../../src/session/lists.js'
import { failureOf, fixture } from '../helpers/processes.js'

describe('tool discovery', () => {
  it('is cached per session: the second list is the first one, not a new request', async () => {
    const session = await connect(fixture('basic'))
    const first = await session.listTools()
    expect(await session.listTools()).toBe(first)
    session.invalidateTools()
    const third = await session.listTools()
    expect(third).not.toBe(first)
    expect(third).toEqual(first)
    await session.close()
  })

  it('filters: null = all, [] = none, names = only those', async () => {
    const all = await connect(fixture('basic'), { toolFilter: null })
    const none = await connect(fixture('basic'), { toolFilter: [] })
    const some = await connect(fixture('basic'), { toolFilter: ['echo', 'add', 'not-a-tool'] })
    expect((await all.listTools()).length).toBeGreaterThan(5)
    expect(await none.listTools()).toEqual([])
    expect((await some.listTools()).map((tool) => tool.name)).toEqual(['echo', 'add'])
    const failure = await failureOf(some.callTool('slow', {}))
    expect(failure.code).toBe('tool_not_found')
    expect(failure.message).toBe("tool 'slow' is not in this session's tools filter")
    await Promise.all([all.close(), none.close(), some.close()])
  })

  it('is invalidated by notifications/tools/list_changed', async () => {
    const session = await connect(fixture('basic'))
    const before = await session.listTools()
    const added = await session.callTool('grow', {})
    const name = (added.content[0] as { text: string }).text
    await expect.poll(async () => (await session.listTools()).map((tool) => tool.name)).toContain(name)
    expect((await session.listTools()).length).toBe(before.length + 1)
    await session.close()
  })

  it('follows every page', async () => {
    const session = await connect(fixture('basic', '--paged'))
    const tools = await session.listTools()
    expect(tools.map((tool) => tool.name)).toEqual([
      'echo',
      'add',
      'types',
      'items',
      'mixed',
      'fail',
      'slow',
      'progress',
      'hang',
      'grow',
    ])
    await session.close()
  })

  it('filterTools is the same rule as a function', () => {
    const tools = [{ name: 'a' }, { name: 'b' }]
    expect(filterTools(tools, null)).toEqual(tools)
    expect(filterTools(tools, [])).toEqual([])
    expect(filterTools(tools, ['b'])).toEqual([{ name: 'b' }])
  })
})

describe('traces', () => {
  it('one entry per tool call, resource read and prompt get, failures included', async () => {
    const entries: TraceEntry[] = []
    const session = await connect(fixture('basic'), { onTrace: (entry) => entries.push(entry) })
    await session.callTool('echo', { message: 'hi' })
    await session.callTool('fail', {})
    await session.readResource('fixture://hello')
    await session.getPrompt('greet', { name: 'Ada' })
    await failureOf(session.callTool('hang', {}, { timeoutMs: 200 }))
    await session.close()
    expect(entries.map(({ kind, name, ok, error_code }) => ({ kind, name, ok, error_code }))).toEqual([
      { kind: 'tool_call', name: 'echo', ok: true, error_code: undefined },
      { kind: 'tool_call', name: 'fail', ok: false, error_code: 'tool_error' },
      { kind: 'resource_read', name: 'fixture://hello', ok: true, error_code: undefined },
      { kind: 'prompt_get', name: 'greet', ok: true, error_code: undefined },
      { kind: 'tool_call', name: 'hang', ok: false, error_code: 'timeout' },
    ])
    expect(entries[0]).toMatchObject({ args: { message: 'hi' }, server: expect.stringContaining('basic.js') })
    expect(entries[1]?.error_message).toBe('this tool always fails')
    expect(entries[2]?.args).toEqual({ uri: 'fixture://hello' })
    for (const entry of entries) {
      expect(typeof entry.ts_ms).toBe('number')
      expect(entry.latency_ms).toBeGreaterThanOrEqual(0)
    }
  })

  it('never writes env values, and redacts argument values on request', async () => {
    const entries: TraceEntry[] = []
    const spec = { ...fixture('basic'), env: { API_KEY: 'sk-very-secret' } }
    const session = await connect(spec, {
      onTrace: (entry) => entries.push(entry),
      redactTraceArguments: true,
    })
    await session.callTool('echo', { message: 'my password' })
    await session.close()
    const text = JSON.stringify(entries)
    expect(text).not.toContain('sk-very-secret')
    expect(text).not.toContain('my password')
    expect(entries[0]?.args).toEqual({ message: '[redacted]' })
  })
})

describe('the environment of stdio servers', () => {
  it('is minimal, plus what is set and passed', () => {
    const { env, inherited, passed, set } = buildEnvironment({
      parent: {
        PATH: '/bin',
        HOME: '/home/a',
        AWS_SECRET_ACCESS_KEY: 'x',
        AWS_REGION: 'eu',
        GITHUB_TOKEN: 'g',
        BASH_FUNC_x: '() { :; }',
        SHELL: '() { evil; }',
      },
      passEnv: ['AWS_REG*'],
      set: { API_KEY: 'k' },
      platform: 'linux',
    })
    expect(env).toEqual({ PATH: '/bin', HOME: '/home/a', AWS_REGION: 'eu', API_KEY: 'k' })
    expect(inherited).toEqual(['HOME', 'PATH'])
    expect(passed).toEqual(['AWS_REGION'])
    expect(set).toEqual(['API_KEY'])
  })

  it('reaches the server: secrets of the parent do not', async () => {
    const previous = process.env.MCP_KIT_TEST_SECRET
    process.env.MCP_KIT_TEST_SECRET = 'do-not-leak'
    try {
      const failure = await failureOf(
        connect(
          {
            transport: 'stdio',
            command: process.execPath,
            args: [
              '-e',
              "process.stdout.write(JSON.stringify({jsonrpc:'2.0',method:'x'})+'\\n'); console.error(JSON.stringify({ extra: process.env.EXTRA, secret: process.env.MCP_KIT_TEST_SECRET ?? null, path: Boolean(process.env.PATH) })); setTimeout(()=>{}, 100)",
            ],
          },
          // The server exits by itself; the limit only bounds a stuck run (a loaded machine starts node slowly).
          { connectTimeoutMs: 10_000, env: { EXTRA: 'yes' } },
        ),
      )
      const line = ((failure.details?.stderr as string[] | undefined) ?? []).find((text) =>
        text.startsWith('{'),
      )
      expect(JSON.parse(line ?? '{}')).toEqual({ extra: 'yes', secret: null, path: true })
    } finally {
      if (previous === undefined) delete process.env.MCP_KIT_TEST_SECRET
      else process.env.MCP_KIT_TEST_SECRET = previous
    }
  })
})
