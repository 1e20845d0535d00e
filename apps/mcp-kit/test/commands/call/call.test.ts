// @module-tag integration
// cat, head and tail: records, raw results, argument coercion and validation.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fixtureServers, npmServers } from '@mcp-kit/fixtures'
import { afterAll, describe, expect, it } from 'vitest'
import { binPath, records, runCli } from '../../helpers/helpers.js'

const basic = `mcp+node://${fixtureServers.basic}`
const scratch = mkdtempSync(join(tmpdir(), 'mcp-kit-call-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

describe('cat', () => {
  it('prints one NDJSON record per content item', async () => {
    const result = await runCli(['cat', `${basic}?tool=mixed`])
    expect(result.code).toBe(0)
    expect(records(result.stdout)).toEqual([
      { type: 'text', text: 'plain words' },
      { answer: 42 },
      { value: 7 },
      { type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' },
      { type: 'resource', uri: 'fixture://r', mimeType: 'text/plain', text: 'embedded' },
    ])
  })

  it('structuredContent is the record; --raw prints the MCP result', async () => {
    expect(records((await runCli(['cat', `${basic}?tool=add&a=2&b=3`])).stdout)).toEqual([{ sum: 5 }])
    const raw = await runCli(['cat', `${basic}?tool=add&a=2&b=3`, '--raw'])
    expect(JSON.parse(raw.stdout)).toEqual({
      content: [{ type: 'text', text: '5' }],
      structuredContent: { sum: 5 },
    })
  })

  it('coerces query and key=value strings to the schema types; strings stay strings', async () => {
    const result = await runCli([
      'cat',
      `${basic}?tool=types&pin=000123&count=7&tags=a&tags=b`,
      'ratio=0.5',
      'flag=true',
      'options={"deep":[1]}',
    ])
    expect(result.code).toBe(0)
    expect(records(result.stdout)).toEqual([
      {
        pin: { value: '000123', type: 'string' },
        count: { value: 7, type: 'number' },
        tags: { value: ['a', 'b'], type: 'array' },
        ratio: { value: 0.5, type: 'number' },
        flag: { value: true, type: 'boolean' },
        options: { value: { deep: [1] }, type: 'object' },
      },
    ])
  })

  it('--raw-strings sends strings untouched; --args adds typed JSON; key=value wins over the query', async () => {
    const raw = await runCli(['cat', `${basic}?tool=types&count=7`, '--raw-strings', '--no-validate'])
    expect(records(raw.stdout)).toEqual([{ count: { value: '7', type: 'string' } }])
    const merged = await runCli([
      'cat',
      `${basic}?tool=types&count=7`,
      '--args',
      '{"count": 8, "flag": false}',
      'count=9',
    ])
    expect(records(merged.stdout)).toEqual([
      { count: { value: 9, type: 'number' }, flag: { value: false, type: 'boolean' } },
    ])
  })

  it('invalid arguments: exit 2, every problem named, and the tool is never called', async () => {
    const trace = join(scratch, 'invalid.ndjson')
    const result = await runCli(['cat', `${basic}?tool=add&a=one`, 'extra=1', '--trace', trace])
    expect(result.code).toBe(2)
    expect(result.stdout).toBe('')
    expect(result.stderr).toBe(
      "mcp-kit: invalid arguments for tool 'add':\n  missing required parameter 'b'\n  a: must be a number (got \"one\")\n",
    )
    expect(() => readFileSync(trace, 'utf8')).toThrow() // no call, so no trace entry
  })

  it('an unknown tool: exit 2 with a suggestion', async () => {
    const result = await runCli(['cat', `${basic}?tool=ecko&message=x`])
    expect(result.code).toBe(2)
    expect(result.stderr).toBe("mcp-kit: the server has no tool 'ecko'; did you mean 'echo'?\n")
  })

  it('a tool error is an error record and exit 1', async () => {
    const result = await runCli(['cat', `${basic}?tool=fail`])
    expect(result.code).toBe(1)
    expect(records(result.stdout)).toEqual([
      { error: { code: 'tool_error', message: 'this tool always fails' } },
    ])
    expect(result.stderr).toBe('mcp-kit: the tool reported an error: this tool always fails\n')
  })

  it('reads resources and gets prompts', async () => {
    expect(records((await runCli(['cat', `${basic}?resource=fixture://two`])).stdout)).toEqual([
      { uri: 'fixture://two#1', text: 'one' },
      { uri: 'fixture://two#2', blob: 'AAE=', mimeType: 'application/octet-stream' },
    ])
    expect(records((await runCli(['cat', `${basic}?prompt=greet`, 'name=Ada'])).stdout)).toEqual([
      { role: 'user', type: 'text', text: 'Hello, Ada!' },
    ])
  })

  it('a resource the server does not have: a resource_not_found record and exit 2', async () => {
    const result = await runCli(['cat', `${basic}?resource=fixture://nothing`])
    expect(result.code).toBe(2)
    expect(records(result.stdout)).toEqual([
      {
        error: {
          code: 'resource_not_found',
          message: "resources/read 'fixture://nothing': Resource fixture://nothing not found",
          details: { rpcCode: -32002 },
        },
      },
    ])
  })

  it('list= prints one record per item', async () => {
    const tools = records((await runCli(['cat', `${basic}?list=tools`])).stdout) as Array<{ name: string }>
    expect(tools.map((tool) => tool.name)).toContain('echo')
    const prompts = records((await runCli(['cat', `${basic}?list=prompts`])).stdout)
    expect(prompts).toEqual([
      { name: 'greet', description: 'A greeting', arguments: [{ name: 'name', required: true }] },
    ])
  })

  it('writes a trace entry per call', async () => {
    const trace = join(scratch, 'trace.ndjson')
    await runCli(['cat', `${basic}?tool=echo&message=traced`, '--trace', trace])
    const [entry] = records(readFileSync(trace, 'utf8')) as Array<Record<string, unknown>>
    expect(entry).toMatchObject({ kind: 'tool_call', name: 'echo', ok: true, args: { message: 'traced' } })
  })
})

describe('words and reserved names', () => {
  // A registry served by mcp-kit itself: `generate` has a parameter named like a reserved key.
  const registry = join(scratch, 'generate.mjs')
  writeFileSync(
    registry,
    `export default ({ createToolRegistry }) =>
  createToolRegistry()
    .tool({
      name: 'generate',
      inputSchema: { type: 'object', properties: { prompt: { type: 'string' }, style: { type: 'string' } }, required: ['prompt'] },
      handler: (args) => JSON.stringify(args),
    })
    .tool({ name: 'plain', inputSchema: { type: 'object', properties: { text: { type: 'string' } } }, handler: (args) => JSON.stringify(args) })
`,
  )
  const server = `mcp+node://${binPath}?arg=serve&arg=${encodeURIComponent(registry)}&arg=--stdio`

  it('the reference is the word that names a server, wherever it is; key=value words are arguments', async () => {
    const before = await runCli(['cat', '--tool', 'echo', 'message=hi', basic])
    expect(before.stderr).toBe('')
    expect(records(before.stdout)).toEqual([{ type: 'text', text: 'hi' }])
    const between = await runCli(['cat', '--tool', 'generate', 'style=short', server, 'prompt=hi'])
    expect(between.stderr).toBe('')
    expect(records(between.stdout)).toEqual([{ style: 'short', prompt: 'hi' }])
    const none = await runCli(['cat', '--tool', 'echo', 'message=hi'])
    expect(none.code).toBe(2)
    expect(none.stderr).toMatch(/say which server/)
  })

  it("a parameter named like a reserved key: the tool's argument when it has one, else arg:NAME= is suggested", async () => {
    const expected = [{ prompt: 'hi' }]
    for (const words of [
      ['--tool', 'generate', 'prompt=hi', server],
      [`${server}&tool=generate&prompt=hi`],
      ['--tool', 'generate', `${server}&prompt=hi`],
      [`${server}&tool=generate&arg:prompt=hi`],
      [`${server}&tool=generate`, 'arg:prompt=hi'],
      ['?tool=generate&prompt=hi', '--', process.execPath, binPath, 'serve', registry, '--stdio'],
      ['--tool', 'generate', '?prompt=hi', '--', process.execPath, binPath, 'serve', registry, '--stdio'],
    ]) {
      const result = await runCli(['cat', ...words])
      expect(result.stderr, words.join(' ')).toBe('')
      expect(records(result.stdout)).toEqual(expected)
    }
    const absent = await runCli(['cat', `${server}&tool=plain&prompt=hi`])
    expect(absent.code).toBe(2)
    expect(absent.stdout).toBe('')
    expect(absent.stderr).toMatch(/tool 'plain' has no parameter 'prompt'.*arg:prompt=/)
    // Before connecting (a naked query, a profile path): the message says how to write it.
    const flag = await runCli(['cat', `${server}&tool=plain`, '--prompt', 'hi'])
    expect(flag.code).toBe(2)
    expect(flag.stderr).toMatch(/choose one of tool, prompt.*write arg:prompt=hi/)
  })

  it('a flag and the reference naming the operation differently is a usage error; alike, it is one tool', async () => {
    const differ = await runCli(['cat', `${server}&tool=plain&prompt=hi`, '--tool', 'generate'])
    expect(differ.code).toBe(2)
    expect(differ.stdout).toBe('')
    expect(differ.stderr).toMatch(/the tool is named twice.*tool=plain and --tool generate/)
    const alike = await runCli(['cat', `${server}&tool=generate&prompt=hi`, '--tool', 'generate'])
    expect(alike.stderr).toBe('')
    expect(records(alike.stdout)).toEqual([{ prompt: 'hi' }])
  })
})

describe('head and tail', () => {
  it('head -n prints the first records, tail -n the last', async () => {
    const head = await runCli(['head', '-n', '2', `${basic}?tool=items&n=50`])
    expect(records(head.stdout)).toEqual([{ index: 0 }, { index: 1 }])
    const tail = await runCli(['tail', '-n', '3', `${basic}?tool=items&n=50`])
    expect(records(tail.stdout)).toEqual([{ index: 47 }, { index: 48 }, { index: 49 }])
    const defaults = await runCli(['head', `${basic}?tool=items&n=50`])
    expect(records(defaults.stdout)).toHaveLength(10)
  })

  it('head stops listing pages once it has enough', async () => {
    const result = await runCli(['head', '-n', '1', `mcp+node://${npmServers.everything}?list=resources`])
    expect(records(result.stdout)).toHaveLength(1)
  })
})

describe('the status line', () => {
  it('shows connecting and progress on a terminal, then clears itself', async () => {
    const { execFile } = await import('node:child_process')
    const { promisify } = await import('node:util')
    const { binPath } = await import('../../helpers/helpers.js')
    // `script` gives the CLI a pseudo-terminal, as a user's shell would.
    const command = `stty cols 120; ${process.execPath} ${binPath} cat '${basic}?tool=progress&steps=3&step_ms=150'`
    const { stdout } = await promisify(execFile)('script', ['-qec', command, '/dev/null'], {
      env: { ...process.env, NO_COLOR: '' },
    })
    expect(stdout).toContain('\r\u001b[2Kconnecting to node ')
    expect(stdout).toContain('\r\u001b[2Kprogress: 1/3 step 1 of 3')
    expect(stdout).toMatch(/\r\u001b\[2K\{"type":"text","text":"done after 3 steps"\}/)
  })
})
