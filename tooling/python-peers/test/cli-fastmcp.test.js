// The mcp-kit CLI against a FastMCP server (Python), over stdio and Streamable HTTP, with the
// protocol pinned to each era and left to negotiate: inspect, tool calls (typed arguments,
// structured output), resources and a template, a prompt, and a question the server asks (2025:
// an elicitation request; 2026: input_required), answered with --input. The server's `protocol`
// tool reports the revision it served the call under, so both ends are checked to agree.

import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cacheDirectory, cleanUp, cli, peers, pythonOrWarn, records, startServer } from './helpers.js'

const python = pythonOrWarn('the mcp-kit CLI against FastMCP servers')

const eras = [
  { name: 'negotiated (auto)', flags: [], version: '2026-07-28' },
  { name: 'pinned 2026-07-28', flags: ['--protocol', '2026-07-28'], version: '2026-07-28' },
  { name: 'pinned 2025-11-25', flags: ['--protocol', '2025-11-25'], version: '2025-11-25' },
]

let http
afterAll(async () => {
  await http?.stop()
  cleanUp()
})

const transports = [
  {
    name: 'stdio',
    // The server goes after --, as the last thing on the line.
    command: (command, flags, operation) => [
      command,
      ...flags,
      ...operation,
      '--',
      python.python,
      peers.fastmcpServer,
    ],
  },
  {
    name: 'Streamable HTTP',
    command: (command, flags, operation) => [command, `mcp+${http.url}`, ...flags, ...operation],
  },
]

describe.skipIf(!python.ready)('mcp-kit CLI → FastMCP server', () => {
  beforeAll(async () => {
    http = await startServer(python.python, [peers.fastmcpServer, '--http', '--port', '0'])
  })

  describe.each(transports)('over $name', (transport) => {
    const mcpKit = (command, flags, operation, options) =>
      cli(transport.command(command, flags, operation), options)

    // Over stdio the negotiated era is checked by the last test only: each stdio run starts a
    // Python process (about a second of CPU).
    const erasHere = transport.name === 'stdio' ? eras.filter((era) => era.flags.length > 0) : eras
    describe.concurrent.each(erasHere)('$name', (era) => {
      it(`inspect: speaks ${era.version}, lists the tools, resources, template and prompt`, async () => {
        const result = await mcpKit('inspect', era.flags, ['--format', 'json'])
        expect(result.code, result.stderr).toBe(0)
        const report = JSON.parse(result.stdout)
        expect(report.protocolVersion).toBe(era.version)
        expect(report.server).toMatchObject({ name: 'python-peer', version: '1.0.0' })
        expect(report.tools.map((tool) => tool.name).sort()).toEqual([
          'add',
          'delete_note',
          'protocol',
          'shout',
          'stats',
        ])
        const add = report.tools.find((tool) => tool.name === 'add')
        expect(add.inputSchema.properties).toEqual({ a: { type: 'integer' }, b: { type: 'integer' } })
        expect(report.resources.map((resource) => resource.uri)).toEqual(['python://greeting'])
        expect(report.resourceTemplates.map((template) => template.uriTemplate)).toEqual([
          'python://users/{user_id}',
        ])
        expect(report.prompts.map((prompt) => prompt.name)).toEqual(['review'])
      })

      it('calls a tool with typed arguments from key=value words; the server saw the same era', async () => {
        const [sum, seen] = await Promise.all([
          mcpKit('cat', era.flags, ['--tool', 'add', 'a=2', 'b=40']),
          mcpKit('cat', era.flags, ['--tool', 'protocol']),
        ])
        expect(sum.code, sum.stderr).toBe(0)
        expect(records(sum.stdout)).toEqual([{ result: 42 }])
        expect(seen.code, seen.stderr).toBe(0)
        expect(records(seen.stdout)).toEqual([{ protocolVersion: era.version }])
      })

      // The negotiated era gets the checks above only: past negotiation it is the pinned
      // 2026-07-28 again. And stdio fewer than HTTP: what the rest check does not depend on the
      // transport.
      if (era.flags.length === 0) return

      it('reads a resource and gets a prompt with arguments', async () => {
        const [greeting, prompt] = await Promise.all([
          mcpKit('cat', era.flags, ['--resource', 'python://greeting']),
          mcpKit('cat', era.flags, ['--prompt', 'review', 'code=x = 1', 'language=go']),
        ])
        expect(greeting.code, greeting.stderr).toBe(0)
        expect(records(greeting.stdout)).toEqual([
          { uri: 'python://greeting', mimeType: 'text/plain', text: 'hello from python' },
        ])
        expect(prompt.code, prompt.stderr).toBe(0)
        expect(records(prompt.stdout)).toEqual([
          { role: 'user', type: 'text', text: 'Please review this go code:\nx = 1' },
        ])
      })

      it('answers the question the server asks from --input', async () => {
        const result = await mcpKit('cat', era.flags, [
          '--tool',
          'delete_note',
          'note_id=n1',
          '--input',
          'confirm=true',
        ])
        expect(result.code, result.stderr).toBe(0)
        expect(records(result.stdout)).toEqual([{ result: 'deleted n1' }])
      })

      if (transport.name !== 'stdio') {
        it('prints structured output as the record; refuses bad arguments before calling', async () => {
          const [stats, bad] = await Promise.all([
            mcpKit('cat', era.flags, ['--tool', 'stats', '--args', '{"values":[1,2,3,4]}']),
            mcpKit('cat', era.flags, ['--tool', 'add', 'a=1', 'b=two']),
          ])
          expect(stats.code, stats.stderr).toBe(0)
          expect(records(stats.stdout)).toEqual([{ count: 4, total: 10, mean: 2.5 }])
          expect(bad.code).toBe(2)
          expect(bad.stderr).toContain('b: must be an integer')
        })

        it('reads a resource from a template', async () => {
          const result = await mcpKit('cat', era.flags, ['--resource', 'python://users/7'])
          expect(result.code, result.stderr).toBe(0)
          const [contents] = records(result.stdout)
          expect(contents).toMatchObject({ uri: 'python://users/7', mimeType: 'application/json' })
          expect(JSON.parse(contents.text)).toEqual({ id: '7', name: 'user 7' })
        })

        it('without an answer to the question: exit 6, naming the field and the flag', async () => {
          const result = await mcpKit('cat', era.flags, ['--tool', 'delete_note', 'note_id=n2'])
          expect(result.code, result.stderr).toBe(6)
          expect(records(result.stdout)).toEqual([
            { error: expect.objectContaining({ code: 'input_required', details: { missing: ['confirm'] } }) },
          ])
          expect(result.stderr).toContain('Delete note n2?')
          expect(result.stderr).toContain('--input confirm=')
        })
      }
    })

    it('auto, nothing remembered: the probe is answered, both ends speak 2026-07-28, and it is remembered', async () => {
      const cache = cacheDirectory()
      const result = await mcpKit('cat', ['--verbose'], ['--tool', 'protocol'], {
        env: { MCP_KIT_CACHE_DIR: cache },
      })
      expect(result.code, result.stderr).toBe(0)
      expect(records(result.stdout)).toEqual([{ protocolVersion: '2026-07-28' }])
      expect(result.stderr).not.toMatch(/speaking 2025-11-25/)
      // The verdict, remembered for the next run (README: "The verdict is remembered per server").
      const verdicts = Object.values(JSON.parse(readFileSync(join(cache, 'eras.json'), 'utf8')))
      expect(verdicts.map((entry) => entry.era)).toEqual(['modern'])
    })
  })
})
