// Lists a page at a time, on the wire in both eras: a cursor walk gives every item once and in
// order, no page's JSON passes the byte budget however many tools there are, a small list is one
// page without a cursor, and a cursor that is not ours (or names an item gone) is -32602.

import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { createToolRegistry, type ToolRegistry } from '../../src/registry/registry.js'
import { jsonBytes, listPageBytes } from '../../src/server/list-pages.js'
import { initialize, post, sdkClient, serve } from '../helpers/http.js'

const modern = '2026-07-28'
const meta = {
  'io.modelcontextprotocol/protocolVersion': modern,
  'io.modelcontextprotocol/clientCapabilities': {},
}

/** A registry whose tools list is about `count` × 10 KiB of JSON. */
function bigRegistry(count: number): ToolRegistry {
  const registry = createToolRegistry()
  registry.batch(() => {
    for (let index = 0; index < count; index++) {
      registry.tool({
        name: `tool_${String(index).padStart(4, '0')}`,
        description: `Tool ${index}. ${'Words about what it does. '.repeat(400)}`,
        inputSchema: { type: 'object', properties: { n: { type: 'integer', description: 'é'.repeat(100) } } },
        handler: () => 'ok',
      })
    }
  })
  return registry
}

type Lister = (
  method: string,
  cursor?: string,
) => Promise<{ result?: Record<string, unknown>; error?: { code: number; message: string }; bytes: number }>

/** Lists over 2026-07-28 stateless requests. */
function modernLister(url: string): Lister {
  return async (method, cursor) => {
    const params: Record<string, unknown> = { _meta: meta }
    if (cursor !== undefined) params.cursor = cursor
    const response = await post(
      url,
      { jsonrpc: '2.0', id: 1, method, params },
      { 'mcp-protocol-version': modern, 'mcp-method': method },
    )
    const body = response.json as {
      result?: Record<string, unknown>
      error?: { code: number; message: string }
    }
    return { ...body, bytes: Buffer.byteLength(response.text) }
  }
}

/** Lists in a 2025-11-25 session (JSON answers). */
async function legacyLister(url: string): Promise<Lister> {
  const { headers } = await initialize(url)
  let id = 1
  return async (method, cursor) => {
    const response = await post(
      url,
      { jsonrpc: '2.0', id: id++, method, params: cursor === undefined ? {} : { cursor } },
      { ...headers, accept: 'application/json' },
    )
    const body = response.json as {
      result?: Record<string, unknown>
      error?: { code: number; message: string }
    }
    return { ...body, bytes: Buffer.byteLength(response.text) }
  }
}

async function walk(
  list: Lister,
  method: string,
  key: string,
): Promise<{ items: Array<Record<string, unknown>>; pages: number[] }> {
  const items: Array<Record<string, unknown>> = []
  const pages: number[] = []
  let cursor: string | undefined
  do {
    const page = await list(method, cursor)
    expect(page.error).toBeUndefined()
    const result = page.result as Record<string, unknown>
    items.push(...(result[key] as Array<Record<string, unknown>>))
    pages.push(Buffer.byteLength(JSON.stringify(result[key])))
    cursor = result.nextCursor as string | undefined
    if (cursor !== undefined) expect(typeof cursor).toBe('string')
  } while (cursor !== undefined && pages.length < 100)
  return { items, pages }
}

describe.each([
  ['2026-07-28', (url: string) => Promise.resolve(modernLister(url))],
  ['2025-11-25', legacyLister],
])('tools/list in pages (%s)', (_era, lister) => {
  test('a cursor walk gives every tool once, in order, and no page passes the byte budget', async () => {
    const registry = bigRegistry(300)
    const server = await serve(registry)
    const list = await lister(server.url)
    const { items, pages } = await walk(list, 'tools/list', 'tools')
    expect(items.map((tool) => tool.name)).toEqual([...registry.tools.keys()])
    // About 3.3 MB of tools: several pages, each under the budget (and well under 1 MiB whole).
    expect(pages.length).toBeGreaterThan(5)
    for (const bytes of pages) expect(bytes).toBeLessThanOrEqual(listPageBytes)
    const first = await list('tools/list')
    expect(first.bytes).toBeLessThan(1024 * 1024)
  })

  test('a list that fits is one page without a cursor', async () => {
    const server = await serve(bigRegistry(3))
    const page = await (await lister(server.url))('tools/list')
    expect((page.result?.tools as unknown[] | undefined)?.length).toBe(3)
    expect(page.result).not.toHaveProperty('nextCursor')
  })

  test('an invalid cursor is -32602: not ours, of another list, or after a tool that is gone', async () => {
    const registry = bigRegistry(120)
    const server = await serve(registry)
    const list = await lister(server.url)
    for (const cursor of [
      'nonsense!',
      'eyJ4IjoxfQ',
      Buffer.from('["prompts","tool_0001"]').toString('base64url'),
      'x'.repeat(5000),
    ]) {
      const page = await list('tools/list', cursor)
      expect(page.error?.code, cursor.slice(0, 20)).toBe(-32602)
      expect(page.error?.message).toMatch(/cursor/)
    }
    const next = (await list('tools/list')).result?.nextCursor as string
    expect(typeof next).toBe('string')
    const last = JSON.parse(Buffer.from(next, 'base64url').toString())[1] as string
    registry.removeTool(last)
    const gone = await list('tools/list', next)
    expect(gone.error).toMatchObject({ code: -32602 })
    expect(gone.error?.message).toMatch(/no longer listed/)
  })
})

test('a tool added between pages does not break the walk: the cursor goes on after the last tool sent', async () => {
  const registry = bigRegistry(120)
  const server = await serve(registry)
  const list = modernLister(server.url)
  const first = await list('tools/list')
  const firstNames = ((first.result?.tools ?? []) as Array<{ name: string }>).map((tool) => tool.name)
  registry.tool({ name: 'aaa_added', handler: () => 'ok' })
  const rest = await walk(
    async (method, cursor) => list(method, cursor ?? (first.result?.nextCursor as string)),
    'tools/list',
    'tools',
  )
  const names = [...firstNames, ...rest.items.map((tool) => tool.name as string)]
  expect(new Set(names).size).toBe(names.length)
  expect(names).toEqual(expect.arrayContaining([...registry.tools.keys()]))
})

test('resources, templates and prompts come in pages too', async () => {
  const registry = createToolRegistry()
  const text = 'x'.repeat(20_000)
  for (let index = 0; index < 80; index++) {
    registry.resource({ uri: `notes://${index}`, name: `note ${index}`, description: text, read: () => 'n' })
    registry.resourceTemplate({
      uriTemplate: `notes://${index}/{id}`,
      name: `t${index}`,
      description: text,
      read: () => 'n',
    })
    registry.prompt({ name: `prompt_${index}`, description: text, get: () => 'p' })
  }
  const server = await serve(registry)
  const list = modernLister(server.url)
  for (const [method, key, count] of [
    ['resources/list', 'resources', 80],
    ['resources/templates/list', 'resourceTemplates', 80],
    ['prompts/list', 'prompts', 80],
  ] as const) {
    const { items, pages } = await walk(list, method, key)
    expect(items).toHaveLength(count)
    expect(pages.length, method).toBeGreaterThan(1)
  }
})

test("the official SDK's client lists every tool through the pages", async () => {
  const registry = bigRegistry(200)
  const server = await serve(registry)
  const { client } = await sdkClient(server.url)
  const names: string[] = []
  let cursor: string | undefined
  let pages = 0
  do {
    const page = await client.listTools(cursor === undefined ? {} : { cursor })
    names.push(...page.tools.map((tool) => tool.name))
    cursor = page.nextCursor
    pages += 1
  } while (cursor !== undefined)
  expect(pages).toBeGreaterThan(1)
  expect(names).toEqual([...registry.tools.keys()])
})

describe('page sizes are the bytes of the JSON sent', () => {
  test('for any JSON value, frozen or not, shared or not, jsonBytes is Buffer.byteLength(JSON.stringify)', () => {
    const freezeDeep = (value: unknown): unknown => {
      if (typeof value === 'object' && value !== null) {
        for (const item of Object.values(value)) freezeDeep(item)
        Object.freeze(value)
      }
      return value
    }
    fc.assert(
      fc.property(fc.jsonValue(), fc.boolean(), (value, frozen) => {
        const shared = frozen ? freezeDeep(structuredClone(value)) : value
        // The same object twice, as a shared schema is in many tools.
        const item = { a: shared, b: [shared, 'é\u0001"\\', shared], c: undefined }
        expect(jsonBytes(item)).toBe(Buffer.byteLength(JSON.stringify(item)))
        expect(jsonBytes(item)).toBe(Buffer.byteLength(JSON.stringify(item)))
      }),
      { numRuns: 300 },
    )
  })
})
