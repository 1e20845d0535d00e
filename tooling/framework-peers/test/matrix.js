// The checks every row of the matrix gets, in `auto` mode (nothing pinned, nothing remembered):
// `mcp-kit inspect` lists it, `mcp-kit cat` makes its safe call, the client library's connect()
// does both, and a gateway (`mcp-kit serve` with every row of the file as an upstream) lists and
// calls it under its namespace. HTTP servers and the gateway start once per file.

import { connect, noEraCache } from '@mcp-kit/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { rowsOf } from '../peers.js'
import {
  cleanUp,
  cli,
  cliTarget,
  records,
  scratch,
  serverSpecOf,
  startGateway,
  startHttpRows,
  warnBroken,
} from './helpers.js'

/** The first text of a result's content items that contains `text`, if any. */
function textContaining(result, text) {
  return result.content?.find((item) => item.type === 'text' && item.text.includes(text))?.text
}

/** Defines the matrix of `peers` (peers.js): a describe block per row, four checks in each. */
export function describeMatrix(title, peers) {
  const rows = rowsOf(peers, scratch())
  warnBroken(rows)
  const working = rows.filter((row) => row.broken === undefined)
  let gateway
  let gatewaySession

  beforeAll(async () => {
    await startHttpRows(working)
    gateway = await startGateway(working)
    // Every upstream running (or given up on) before the rows look at it.
    await gateway.settled()
    gatewaySession = await connect({ transport: 'http', url: gateway.url }, { eraCache: noEraCache })
  })

  afterAll(async () => {
    await gatewaySession?.close()
    await Promise.all([gateway?.stop(), ...working.map((row) => row.stop?.())])
    cleanUp()
  })

  describe(title, () => {
    for (const row of rows) {
      const target = () => cliTarget(row)
      const mcpKit = (command, words = []) => {
        const { reference, program } = target()
        // The CLI's words: `inspect mcp+http://… [flags]` or `inspect [flags] -- node server.js`.
        return cli([command, ...reference, ...words, ...program])
      }

      describe.concurrent.skipIf(row.broken !== undefined)(
        `${row.id} (${row.package} ${row.version})`,
        () => {
          it(`mcp-kit inspect: speaks ${row.era}, lists what it offers`, async () => {
            const result = await mcpKit('inspect', ['--format', 'json'])
            expect(result.code, result.stderr).toBe(0)
            const report = JSON.parse(result.stdout)
            expect(report.protocolVersion).toBe(row.era)
            expect(report.tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(row.tools))
            if (row.resources)
              expect(report.resources.map((resource) => resource.uri)).toEqual(
                expect.arrayContaining(row.resources),
              )
            if (row.prompts)
              expect(report.prompts.map((prompt) => prompt.name)).toEqual(expect.arrayContaining(row.prompts))
          })

          // A server whose tools all reach the network is listed only (README "What is covered").
          if (row.call !== undefined) {
            it(`mcp-kit cat: calls ${row.call.tool}`, async () => {
              const { tool, arguments: args } = row.call
              const result = await mcpKit('cat', ['--tool', tool, '--args', JSON.stringify(args)])
              expect(result.code, result.stderr).toBe(0)
              expect(records(result.stdout)).toEqual(row.call.records)
            })
          }

          const does = [
            'lists',
            row.call && 'calls',
            row.resources && 'reads',
            row.prompts?.includes('greet') && 'gets a prompt',
          ].filter(Boolean)
          it(`connect() from @mcp-kit/client: ${does.join(', ')}`, async () => {
            const session = await connect(serverSpecOf(row), { eraCache: noEraCache })
            try {
              expect(session.protocolVersion).toBe(row.era)
              const tools = await session.listTools()
              expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(row.tools))
              if (row.call) {
                const result = await session.callTool(row.call.tool, row.call.arguments)
                expect(result.isError ?? false, JSON.stringify(result)).toBe(false)
                expect(textContaining(result, row.call.text), JSON.stringify(result)).toBeDefined()
              }
              for (const uri of row.resources ?? []) {
                const read = await session.readResource(uri)
                expect(read.contents[0]).toMatchObject({ uri, text: expect.stringContaining('hello from') })
              }
              if (row.prompts?.includes('greet')) {
                const prompt = await session.getPrompt('greet', { name: 'Ada' })
                expect(prompt.messages).toEqual([
                  { role: 'user', content: { type: 'text', text: 'Hello, Ada!' } },
                ])
              }
            } finally {
              await session.close()
            }
          })

          it(`behind the gateway: running, ${row.call ? 'listed and called' : 'listed'} under its namespace`, async () => {
            const health = (await gateway.health())[row.id]
            expect(health, JSON.stringify(health)).toMatchObject({
              state: 'running',
              protocolVersion: row.era,
            })
            const tools = (await gatewaySession.listTools()).map((tool) => tool.name)
            expect(tools).toEqual(expect.arrayContaining(row.tools.map((name) => `${row.id}__${name}`)))
            if (row.call) {
              const result = await gatewaySession.callTool(`${row.id}__${row.call.tool}`, row.call.arguments)
              expect(result.isError ?? false, JSON.stringify(result)).toBe(false)
              expect(textContaining(result, row.call.text), JSON.stringify(result)).toBeDefined()
            }
            for (const uri of row.resources ?? []) {
              const read = await gatewaySession.readResource(uri)
              expect(read.contents[0]).toMatchObject({ uri, text: expect.stringContaining('hello from') })
            }
          })
        },
      )
    }
  })
}
