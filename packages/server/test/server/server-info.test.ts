// Who a server says it is: serverInfo and instructions at 2025 `initialize` and 2026
// `server/discover`, from the registry's options or the serving options, with defaults.

import { readFileSync } from 'node:fs'
import { expect, test } from 'vitest'
import { ServerError } from '../../src/errors.js'
import type { HttpServerOptions } from '../../src/http/server.js'
import { createToolRegistry, type ToolRegistry } from '../../src/registry/registry.js'
import { createRuntime } from '../../src/runtime/runtime.js'
import type { TraceEntry } from '../../src/trace.js'
import { initializeBody, post, serve } from '../helpers/http.js'

const { version: packageVersion } = JSON.parse(
  readFileSync(new URL('../../package.json', import.meta.url), 'utf8'),
) as { version: string }

/** What a client is told at initialize (2025-11-25) and at server/discover (2026-07-28). */
async function announced(registry: ToolRegistry, options: HttpServerOptions = {}) {
  const server = await serve(registry, { ...options, stateless: true })
  const initialized = (await post(server.url, initializeBody)).json as { result: Record<string, unknown> }
  const discovered = (
    await post(
      server.url,
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'server/discover',
        params: {
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientCapabilities': {},
          },
        },
      },
      { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'server/discover' },
    )
  ).json as { result: Record<string, unknown> }
  // 2026-07-28 carries serverInfo in every result's _meta.
  const modern = discovered.result
  expect((modern['_meta'] as Record<string, unknown>)['io.modelcontextprotocol/serverInfo']).toEqual(
    initialized.result['serverInfo'],
  )
  expect(modern['instructions']).toEqual(initialized.result['instructions'])
  return { serverInfo: initialized.result['serverInfo'], instructions: initialized.result['instructions'] }
}

test('by default the server is mcp-kit at the version of this package, without instructions', async () => {
  expect(await announced(createToolRegistry())).toEqual({
    serverInfo: { name: 'mcp-kit', version: packageVersion },
    instructions: undefined,
  })
})

test("the registry's options say who serves it, on every transport", async () => {
  const registry = createToolRegistry({ name: 'word-tools', version: '1.2.0', instructions: 'Counts words.' })
  expect(registry.serverInfo).toEqual({ name: 'word-tools', version: '1.2.0', instructions: 'Counts words.' })
  expect(await announced(registry)).toEqual({
    serverInfo: { name: 'word-tools', version: '1.2.0' },
    instructions: 'Counts words.',
  })
})

test("the serving options win over the registry's, each on its own", async () => {
  const registry = createToolRegistry({ name: 'word-tools', version: '1.2.0', instructions: 'Counts words.' })
  expect(
    await announced(registry, { name: 'words-behind-a-proxy', instructions: 'Ask for counts.' }),
  ).toEqual({
    serverInfo: { name: 'words-behind-a-proxy', version: '1.2.0' },
    instructions: 'Ask for counts.',
  })
})

test("a name without a version is version 0.0.0, not this package's", async () => {
  expect((await announced(createToolRegistry({ name: 'word-tools' }))).serverInfo).toEqual({
    name: 'word-tools',
    version: '0.0.0',
  })
})

test('an empty or non-string name, version or instructions is refused', () => {
  for (const options of [{ name: '' }, { version: 1 as unknown as string }, { instructions: '' }]) {
    expect(() => createToolRegistry(options)).toThrow(ServerError)
  }
  expect(() => createToolRegistry({ name: '' })).toThrow(/^name must be a non-empty string$/)
})

test("trace entries name the registry's server unless the runtime is told otherwise", async () => {
  const traces: TraceEntry[] = []
  const registry = createToolRegistry({ name: 'word-tools' }).tool({ name: 'noop', handler: () => 'ok' })
  await createRuntime(registry, { onTrace: (entry) => traces.push(entry) }).callTool('noop', {})
  await createRuntime(registry, { serverName: 'other', onTrace: (entry) => traces.push(entry) }).callTool(
    'noop',
    {},
  )
  expect(traces.map((entry) => entry.server)).toEqual(['word-tools', 'other'])
})
