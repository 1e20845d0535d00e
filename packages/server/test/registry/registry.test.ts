import { describe, expect, test } from 'vitest'
import { ServerError } from '../../src/errors.js'
import { createToolRegistry, isToolRegistry, type RegistryEvent } from '../../src/registry/registry.js'

const handler = () => 'ok'

function refusal(register: () => unknown): ServerError {
  try {
    register()
  } catch (error) {
    expect(ServerError.isInstance(error)).toBe(true)
    expect((error as ServerError).code).toBe('invalid_definition')
    return error as ServerError
  }
  throw new Error('registration was accepted')
}

describe('registration refuses mistakes at once, with a message naming them', () => {
  test('tool names: empty, too long, spaces, slashes', () => {
    const registry = createToolRegistry()
    expect(refusal(() => registry.tool({ name: '', handler })).message).toMatch(/invalid tool name ""/)
    expect(refusal(() => registry.tool({ name: 'a'.repeat(129), handler })).message).toMatch(/1-128/)
    expect(refusal(() => registry.tool({ name: 'has space', handler })).message).toMatch(/"has space"/)
    expect(refusal(() => registry.tool({ name: 'a/b', handler })).message).toMatch(/"a\/b"/)
    registry.tool({ name: 'ok.name_with-dash', handler })
    expect([...registry.tools.keys()]).toEqual(['ok.name_with-dash'])
  })

  test('duplicates of tools, resources, templates and prompts', () => {
    const registry = createToolRegistry()
      .tool({ name: 'echo', handler })
      .resource({ uri: 'demo://a', name: 'a', read: () => 'a' })
      .resourceTemplate({ uriTemplate: 'demo://items/{id}', name: 'item', read: () => 'item' })
      .prompt({ name: 'greet', get: () => 'hi' })
    expect(refusal(() => registry.tool({ name: 'echo', handler })).message).toBe(
      "tool 'echo' is already registered",
    )
    expect(refusal(() => registry.resource({ uri: 'demo://a', name: 'a', read: () => 'a' })).message).toMatch(
      /already registered/,
    )
    expect(
      refusal(() =>
        registry.resourceTemplate({ uriTemplate: 'demo://items/{id}', name: 'x', read: () => '' }),
      ).message,
    ).toMatch(/already registered/)
    expect(refusal(() => registry.prompt({ name: 'greet', get: () => '' })).message).toMatch(
      /already registered/,
    )
  })

  test('schemas: not an object, not type object, not valid JSON Schema, not plain JSON', () => {
    const registry = createToolRegistry()
    expect(refusal(() => registry.tool({ name: 't', inputSchema: [] as never, handler })).message).toMatch(
      /inputSchema must be a JSON Schema object/,
    )
    expect(
      // @ts-expect-error: the types refuse it too
      refusal(() => registry.tool({ name: 't', inputSchema: { type: 'string' }, handler })).message,
    ).toMatch(/"type": "object"/)
    const invalid = refusal(() =>
      registry.tool({
        name: 't',
        // @ts-expect-error: the types refuse it too
        inputSchema: { type: 'object', properties: { a: { type: 'strnig' } } },
        handler,
      }),
    )
    expect(invalid.message).toMatch(/^tool 't': invalid inputSchema: /)
    expect(
      refusal(() =>
        registry.tool({
          name: 't',
          inputSchema: { type: 'object' },
          // @ts-expect-error: the types refuse it too
          outputSchema: { type: 'object', required: 3 },
          handler,
        }),
      ).message,
    ).toMatch(/invalid outputSchema/)
    expect(
      refusal(() => registry.tool({ name: 't', inputSchema: { type: 'object', default: () => 1 }, handler }))
        .message,
    ).toMatch(/plain JSON/)
    expect(registry.tools.size).toBe(0)
  })

  test('missing handlers, bad URIs and templates, bad ttl, bad prompt arguments', () => {
    const registry = createToolRegistry()
    expect(refusal(() => registry.tool({ name: 't' } as never)).message).toBe(
      "tool 't' needs a handler function",
    )
    expect(refusal(() => registry.resource({ uri: 'no-scheme', name: 'x', read: () => '' })).message).toMatch(
      /needs a scheme/,
    )
    expect(refusal(() => registry.resource({ uri: 'a://b', name: '', read: () => '' })).message).toMatch(
      /needs a name/,
    )
    expect(
      refusal(() => registry.resource({ uri: 'a://b', name: 'b', ttlMs: -1, read: () => '' })).message,
    ).toMatch(/ttlMs/)
    expect(
      refusal(() => registry.resourceTemplate({ uriTemplate: 'a://{unclosed', name: 'x', read: () => '' }))
        .message,
    ).toMatch(/invalid URI template/)
    expect(
      refusal(() =>
        registry.resourceTemplate({
          uriTemplate: 'a://{id}',
          name: 'x',
          read: () => '',
          complete: { other: () => [] },
        }),
      ).message,
    ).toMatch(/unknown variable 'other'/)
    expect(
      refusal(() => registry.prompt({ name: 'p', arguments: [{ name: 'a' }, { name: 'a' }], get: () => '' }))
        .message,
    ).toMatch(/declared twice/)
  })
})

test('a registered schema is a frozen copy: changing the caller object later changes nothing', () => {
  const inputSchema = { type: 'object', properties: { n: { type: 'number' } } }
  const registry = createToolRegistry().tool({ name: 't', inputSchema, handler })
  inputSchema.properties.n.type = 'string'
  const stored = registry.tools.get('t')?.inputSchema as { properties: { n: { type: string } } }
  expect(stored.properties.n.type).toBe('number')
  expect(Object.isFrozen(stored.properties.n)).toBe(true)
})

test('the JSON Schema 2020-12 keywords are kept verbatim', () => {
  const inputSchema = {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    $defs: { address: { type: 'object', properties: { city: { type: 'string' } } } },
    properties: { address: { $ref: '#/$defs/address' } },
    additionalProperties: false,
  }
  const registry = createToolRegistry().tool({ name: 't', inputSchema, handler })
  expect(registry.tools.get('t')?.inputSchema).toEqual(inputSchema)
})

test('every registration and resource update is announced to listeners; unsubscribing stops it', () => {
  const registry = createToolRegistry()
  const events: RegistryEvent[] = []
  const unsubscribe = registry.onChange((event) => events.push(event))
  registry
    .tool({ name: 't', handler })
    .resource({ uri: 'a://r', name: 'r', read: () => '' })
    .resourceTemplate({ uriTemplate: 'a://{x}/y', name: 'y', read: () => '' })
    .prompt({ name: 'p', get: () => '' })
  registry.resourceUpdated('a://r')
  unsubscribe()
  registry.tool({ name: 'u', handler })
  expect(events).toEqual([
    { type: 'list_changed', list: 'tools' },
    { type: 'list_changed', list: 'resources' },
    { type: 'list_changed', list: 'resources' },
    { type: 'list_changed', list: 'prompts' },
    { type: 'resource_updated', uri: 'a://r' },
  ])
})

test('a failing listener does not break registration', () => {
  const registry = createToolRegistry()
  registry.onChange(() => {
    throw new Error('listener bug')
  })
  expect(() => registry.tool({ name: 't', handler })).not.toThrow()
})

test('findResource: static URIs first, then templates in registration order', () => {
  const registry = createToolRegistry()
    .resource({ uri: 'notes://today', name: 'today', read: () => '' })
    .resourceTemplate({ uriTemplate: 'notes://{id}', name: 'note', read: () => '' })
  expect(registry.findResource('notes://today')?.resource.name).toBe('today')
  expect(registry.findResource('notes://42')).toMatchObject({ uri: 'notes://42', variables: { id: '42' } })
  expect(registry.findResource('other://x')).toBeUndefined()
})

test('isToolRegistry recognizes registries only', () => {
  expect(isToolRegistry(createToolRegistry())).toBe(true)
  expect(isToolRegistry({ tools: new Map() })).toBe(false)
  expect(isToolRegistry(null)).toBe(false)
})
