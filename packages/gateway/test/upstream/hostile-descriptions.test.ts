// @module-tag integration
// A hostile upstream's descriptions and titles reach the gateway's clients without control
// characters: no escape sequence (clear screen, window title, OSC, C1 CSI), no BEL, NUL, DEL or
// carriage return gets through to a client that prints them, and no bidi control, zero-width or
// other invisible format character, soft hyphen or tag character hides or reorders text for the
// people who read it (line separators become spaces), while the text, its line breaks and tabs
// stay. Its JSON-RPC error's message is cleaned the same way, for every client.
// Names were already made safe (naming.ts). The rule itself: upstream-text.property.test.ts.

import { fileURLToPath } from 'node:url'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { McpError } from '@modelcontextprotocol/sdk/types.js'
import { expect, test } from 'vitest'
import { cleanDiscovery, cleanSchema } from '../../src/upstream/upstream-text.js'
import { eventually, nodeServer, startGateway } from '../helpers/gateways.js'

const hostile = fileURLToPath(new URL('../fixtures/hostile-descriptions.mjs', import.meta.url))
const unsafe =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb\u{e0000}-\u{e007f}]/u

/** Every string under a `description`, `title` or `name` key, wherever it is. */
function texts(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) texts(item, found)
  else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      if (typeof item === 'string' && ['description', 'title', 'name'].includes(key)) found.push(item)
      else texts(item, found)
    }
  }
  return found
}

test("a hostile upstream's descriptions and titles lose their control characters, keep their text", async () => {
  const { gateway, url } = await startGateway({
    upstreams: [{ name: 'hostile', server: nodeServer(hostile) }],
  })
  // On a loaded machine the upstream's first start can fail and be retried: list once it is in.
  await eventually(() => gateway.health().hostile?.tools === 2, 60_000)
  const client = new Client({ name: 'descriptions-test', version: '1.0.0' })
  await client.connect(new StreamableHTTPClientTransport(new URL(url)))
  try {
    const lists = {
      tools: (await client.listTools()).tools,
      prompts: (await client.listPrompts()).prompts,
      resources: (await client.listResources()).resources,
      templates: (await client.listResourceTemplates()).resourceTemplates,
    }
    for (const [list, items] of Object.entries(lists)) {
      expect(items.length, list).toBe(list === 'tools' ? 2 : 1)
      const strings = texts(items)
      expect(strings.length, list).toBeGreaterThan(2)
      for (const text of strings) expect(text, `${list}: ${JSON.stringify(text)}`).not.toMatch(unsafe)
    }
    const tool = lists.tools.find((item) => item.name === 'hostile__read_file')
    expect(tool?.description).toBe('[2J]0;pwnedReads a file31m overwritten\nsecond\tline third')
    expect(tool?.annotations?.title).toMatch(/^\[2J\]0;pwnedRead31m/)
    const schema = tool?.inputSchema as {
      properties: Record<
        string,
        { description?: string; properties?: Record<string, { description?: string; default?: string }> }
      >
    }
    expect(schema.properties.path?.description).toMatch(/Which file31m overwritten\nsecond\tline third$/)
    expect(schema.properties.options?.properties?.encoding).toMatchObject({ default: 'utf8' })
    expect(lists.prompts[0]?.arguments?.[0]?.description).toMatch(/The code31m/)
    expect(lists.resources[0]?.uri).toBe('hostile://notes')
    expect(lists.templates[0]?.uriTemplate).toBe('hostile://files/{name}')
    // The tool still works under its name.
    const result = await client.callTool({ name: 'hostile__read_file', arguments: {} })
    expect(result.content).toEqual([{ type: 'text', text: 'ok' }])
    // The upstream's JSON-RPC error: its code as it is, its message cleaned.
    const failure = await client.callTool({ name: 'hostile__fail', arguments: {} }).then(
      () => undefined,
      (error: unknown) => error,
    )
    expect(failure).toBeInstanceOf(McpError)
    expect((failure as McpError).code).toBe(-32001)
    expect((failure as McpError).message).toContain('[2J]0;pwnedIt failed31m overwritten\nsecond\tline third')
    expect((failure as McpError).message).not.toMatch(unsafe)
  } finally {
    await client.close()
  }
})

test('schema data keeps its exact values; a display name of nothing but controls becomes the URI', () => {
  const schema = cleanSchema({
    type: 'object',
    description: 'a\x1bb',
    properties: { mode: { enum: ['\x07bell'], default: '\x07bell', examples: [{ title: '\x07' }] } },
  }) as Record<string, Record<string, Record<string, unknown>>>
  expect(schema.description).toBe('ab')
  expect(schema.properties?.mode).toEqual({
    enum: ['\x07bell'],
    default: '\x07bell',
    examples: [{ title: '\x07' }],
  })
  const lists = cleanDiscovery({
    tools: [],
    prompts: [],
    resources: [{ uri: 'x://a', name: '\x1b\x07' }],
    resourceTemplates: [{ uriTemplate: 'x://{b}', name: '\r' }],
    listedAt: 0,
  })
  expect(lists.resources[0]?.name).toBe('x://a')
  expect(lists.resourceTemplates[0]?.name).toBe('x://{b}')
})
