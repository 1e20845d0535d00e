// @module-tag integration
// `mcp-kit inspect` of one tool: everything the server says about it, nothing cut short, and an
// example command line that really calls it.

import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { npmServers } from '@mcp-kit/fixtures'
import { describe, expect, it } from 'vitest'
import { binPath, records, runCli } from '../../helpers/helpers.js'

const run = promisify(execFile)
const everything = ['node', npmServers.everything]

type Schema = Record<string, unknown>
interface Tool {
  name: string
  title?: string
  description?: string
  inputSchema: Schema
  outputSchema?: Schema
  annotations?: Record<string, unknown>
}

/** Runs an example line as a shell would, with `mcp-kit` being this build. */
async function runExample(example: string): Promise<{ code: number; stdout: string; stderr: string }> {
  expect(example.startsWith('mcp-kit ')).toBe(true)
  const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(binPath)} ${example.slice('mcp-kit '.length)}`
  try {
    const { stdout, stderr } = await run('bash', ['-c', command], { env: { ...process.env, NO_COLOR: '1' } })
    return { code: 0, stdout, stderr }
  } catch (error) {
    const failure = error as { code: number; stdout: string; stderr: string }
    return { code: failure.code, stdout: failure.stdout, stderr: failure.stderr }
  }
}

describe('inspect of one tool', () => {
  it('@demo/add: the whole tool, and an example line', async () => {
    const result = await runCli(['inspect', '@demo/add'])
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    const [header, launch, ...rest] = result.stdout.split('\n')
    expect(header).toBe('add — Add')
    expect(launch).toMatch(/^mcp-kit \d+\.\d+\.\d+, MCP 2026-07-28 over stdio: \S+ \S+bin\.js serve --stdio$/)
    expect(`${rest.join('\n')}`).toBe(`
Adds two numbers

Parameters (2)
  a  number  required
      First addend
  b  number  required
      Second addend

Output schema
  {
    "type": "object",
    "properties": {
      "sum": {
        "type": "number"
      }
    },
    "required": [
      "sum"
    ]
  }

Annotations
  readOnlyHint   true
  openWorldHint  false

Example
  mcp-kit cat @demo/add a=1 b=1
`)
    const example = await runExample('mcp-kit cat @demo/add a=1 b=1')
    expect(records(example.stdout)).toEqual([{ sum: 2 }])
    // The other ways to name the tool show the same view.
    for (const args of [['@demo?tool=add'], ['@demo', '--tool', 'add']]) {
      expect((await runCli(['inspect', ...args])).stdout).toBe(result.stdout)
    }
  })

  it("every tool of server-everything, whole: each parameter's type, default, allowed values and description; no …", async () => {
    const listed = await runCli(['inspect', '--format', 'json', '--', ...everything])
    const tools = JSON.parse(listed.stdout).tools as Tool[]
    expect(tools.length).toBeGreaterThan(10)
    let withOutputSchema = 0
    let withEnum = 0
    let withDefault = 0
    // Four at a time: each view starts its own server.
    const views = new Map<string, Awaited<ReturnType<typeof runCli>>>()
    for (let start = 0; start < tools.length; start += 4) {
      const batch = tools.slice(start, start + 4)
      const results = await Promise.all(
        batch.map((tool) => runCli(['inspect', '--tool', tool.name, '--', ...everything])),
      )
      for (const [index, tool] of batch.entries())
        views.set(tool.name, results[index] as Awaited<ReturnType<typeof runCli>>)
    }
    for (const tool of tools) {
      const result = views.get(tool.name) as Awaited<ReturnType<typeof runCli>>
      const text = result.stdout
      expect({ tool: tool.name, code: result.code, stderr: result.stderr }).toEqual({
        tool: tool.name,
        code: 0,
        stderr: '',
      })
      expect(text).not.toContain('…')
      expect(text.startsWith(`${tool.name}${tool.title ? ` — ${tool.title}` : ''}\n`)).toBe(true)
      if (tool.description) expect(text).toContain(`\n${tool.description}\n`)
      const properties = (tool.inputSchema.properties ?? {}) as Record<string, Schema>
      const required = new Set((tool.inputSchema.required ?? []) as string[])
      expect(text).toContain(`Parameters (${Object.keys(properties).length})\n`)
      for (const [name, property] of Object.entries(properties)) {
        const type = String(property.type)
        expect(text).toContain(`\n  ${name}  ${type}  ${required.has(name) ? 'required' : 'optional'}\n`)
        if (property.description) expect(text).toContain(`\n      ${property.description}\n`)
        if ('default' in property) {
          withDefault++
          expect(text).toContain(`\n      default: ${JSON.stringify(property.default)}\n`)
        }
        if (Array.isArray(property.enum)) {
          withEnum++
          expect(text).toContain(
            `\n      one of: ${property.enum.map((value) => JSON.stringify(value)).join(', ')}\n`,
          )
        }
      }
      if (tool.outputSchema) {
        withOutputSchema++
        expect(text).toContain(
          `Output schema\n${JSON.stringify(tool.outputSchema, null, 2).replace(/^/gm, '  ')}\n`,
        )
      } else expect(text).toContain('Output schema\n  (none')
      for (const [name, value] of Object.entries(tool.annotations ?? {}))
        expect(text).toMatch(new RegExp(`\\n  ${name} +${JSON.stringify(value)}\\n`))
      expect(text).toMatch(new RegExp(`\\nExample\\n  mcp-kit cat --tool ${tool.name} .*-- node \\S+\\n$`))
    }
    // The checks above met every kind of detail.
    expect({
      withOutputSchema: withOutputSchema > 0,
      withEnum: withEnum > 0,
      withDefault: withDefault > 0,
    }).toEqual({
      withOutputSchema: true,
      withEnum: true,
      withDefault: true,
    })
  })

  it('server-everything: the example lines run as shown (required parameters filled in from the schema)', async () => {
    const expected: Record<string, unknown> = {
      echo: [{ type: 'text', text: 'Echo: text' }],
      'get-sum': [{ type: 'text', text: 'The sum of 1 and 1 is 2.' }],
      'get-structured-content': [
        { temperature: expect.any(Number), conditions: expect.any(String), humidity: expect.any(Number) },
      ],
    }
    for (const [name, output] of Object.entries(expected)) {
      const view = await runCli(['inspect', '--format', 'json', '--tool', name, '--', ...everything])
      const document = JSON.parse(view.stdout)
      expect(document.tool.name).toBe(name)
      const example = await runExample(document.example)
      expect({ name, example: document.example, code: example.code }).toEqual({
        name,
        example: document.example,
        code: 0,
      })
      expect(records(example.stdout)).toEqual(output)
    }
  })

  it('a naked reference: ?tool= in the reference, and the example names the server the same way', async () => {
    const reference = `mcp+node://${npmServers.everything}?tool=get-structured-content`
    const result = await runCli(['inspect', reference, '--format', 'json'])
    const document = JSON.parse(result.stdout)
    expect(Object.keys(document)).toEqual([
      'reference',
      'server',
      'protocolVersion',
      'transport',
      'launch',
      'tool',
      'example',
    ])
    expect(document.example).toBe(`mcp-kit cat '${reference}' 'location=New York'`)
    const example = await runExample(document.example)
    expect(example.code).toBe(0)
  })

  it('an unknown tool: tool_not_found with suggestions; other operations are for cat', async () => {
    const unknown = await runCli(['inspect', '@demo/ad'])
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toContain("the server has no tool 'ad'; did you mean 'add'?")
    const resource = await runCli(['inspect', '@demo?resource=demo://readme'])
    expect(resource.code).toBe(2)
    expect(resource.stderr).toContain('use cat for resource=')
  })
})
