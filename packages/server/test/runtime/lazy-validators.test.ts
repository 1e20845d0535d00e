// Start-up proportional to what is used: registering and listing many tools compiles no
// validator (ajv's compilation count does not move); a tool's first call compiles its own, once.
// Schemas that are deeply frozen already are kept as they are (shared, not copied); the others
// are copied and frozen. A schema only ajv can refuse fails the call that needs it, naming it.

import { validatorCacheStats } from '@mcp-kit/schema/internal'
import { describe, expect, test } from 'vitest'
import { sealJson } from '../../src/internal.js'
import { createToolRegistry, type ToolRegistry } from '../../src/registry/registry.js'
import { createRuntime } from '../../src/runtime/runtime.js'

function manyTools(count: number): ToolRegistry {
  const registry = createToolRegistry()
  registry.batch(() => {
    for (let index = 0; index < count; index++) {
      registry.tool({
        name: `tool_${index}`,
        // Distinct schemas, so that no compiled validator could serve two tools.
        inputSchema: { type: 'object', properties: { [`n${index}`]: { type: 'integer', minimum: index } } },
        outputSchema: { type: 'object', properties: { value: { type: 'integer' } }, required: ['value'] },
        handler: () => ({ value: index }),
      })
    }
  })
  return registry
}

describe('validators are compiled at a tool first call', () => {
  test('a registry of 1,000 tools compiles none until a call; a call compiles its tool, once', async () => {
    const before = validatorCacheStats().compilations
    const registry = manyTools(1000)
    const runtime = createRuntime(registry)
    expect(runtime.listTools()).toHaveLength(1000)
    expect(validatorCacheStats().compilations).toBe(before)

    const result = await runtime.callTool('tool_7', { n7: 8 })
    expect(result.structuredContent).toEqual({ value: 7 })
    // Its inputSchema, and its outputSchema (unless an equal one was compiled before).
    const afterFirst = validatorCacheStats().compilations
    expect(afterFirst - before).toBeGreaterThanOrEqual(1)
    expect(afterFirst - before).toBeLessThanOrEqual(2)

    await runtime.callTool('tool_7', { n7: 9 })
    const refused = await runtime.callTool('tool_7', { n7: 1 })
    expect(refused.isError).toBe(true)
    expect(validatorCacheStats().compilations).toBe(afterFirst)
  })

  test('a schema ajv cannot compile is accepted at registration and fails its call, naming it', async () => {
    const registry = createToolRegistry()
    registry.tool({
      name: 'broken',
      // An unterminated character class: only compiling the pattern finds it.
      inputSchema: { type: 'object', properties: { code: { type: 'string', pattern: '[a-' } } },
      handler: () => 'never',
    })
    const result = await createRuntime(registry).callTool('broken', { code: 'x' })
    expect(result.isError).toBe(true)
    expect(result.content).toEqual([
      {
        type: 'text',
        text: expect.stringMatching(/^Tool 'broken' has an invalid inputSchema: .*regular expression/s),
      },
    ])
  })

  test('the usual mistakes are still refused at registration, without compiling', () => {
    const before = validatorCacheStats().compilations
    const registry = createToolRegistry()
    expect(() =>
      registry.tool({
        name: 'typo',
        // @ts-expect-error: the types refuse it too
        inputSchema: { type: 'object', properties: { a: { anyOf: [{ type: 'strnig' }] } } },
        handler: () => 'x',
      }),
    ).toThrow(/^tool 'typo': invalid inputSchema: \/properties\/a\/anyOf\/0\/type must be one of/)
    expect(() =>
      registry.tool({
        name: 'count',
        inputSchema: { type: 'object', properties: { a: { type: 'string', maxLength: -1 } } },
        handler: () => 'x',
      }),
    ).toThrow(/\/properties\/a\/maxLength must be a whole number/)
    expect(validatorCacheStats().compilations).toBe(before)
  })
})

describe('schemas are kept frozen, without copies of frozen ones', () => {
  test('a deeply frozen schema shared by many tools is the same object in each', () => {
    const shared = Object.freeze({
      type: 'object',
      properties: Object.freeze({ id: Object.freeze({ type: 'string' }) }),
    })
    const registry = createToolRegistry()
    registry.tool({ name: 'a', inputSchema: shared, outputSchema: shared, handler: () => ({ id: 'x' }) })
    registry.tool({ name: 'b', inputSchema: shared, handler: () => 'x' })
    expect(registry.tools.get('a')?.inputSchema).toBe(shared)
    expect(registry.tools.get('a')?.outputSchema).toBe(shared)
    expect(registry.tools.get('b')?.inputSchema).toBe(shared)
  })

  test("a schema that is not deeply frozen is copied and frozen, so the caller's later changes do not reach it", async () => {
    const properties = { id: { type: 'string' as const } }
    const partly = Object.freeze({ type: 'object', properties })
    const registry = createToolRegistry()
    registry.tool({ name: 'a', inputSchema: partly, handler: () => 'x' })
    const kept = registry.tools.get('a')?.inputSchema as Record<string, unknown>
    expect(kept).not.toBe(partly)
    expect(Object.isFrozen(kept.properties)).toBe(true)
    ;(properties as Record<string, unknown>).id = { type: 'integer' }
    expect(await createRuntime(registry).callTool('a', { id: 'text' })).not.toHaveProperty('isError')
  })

  test('sealJson: a schema sealed bottom-up is kept as it is; one over an unsealed part is copied', () => {
    const id = sealJson({ type: 'string' })
    const sealed = sealJson({ type: 'object', properties: sealJson({ id }) })
    const registry = createToolRegistry()
    registry.tool({ name: 'a', inputSchema: sealed, handler: () => 'x' })
    expect(registry.tools.get('a')?.inputSchema).toBe(sealed)
    // Frozen on top, but a part of it can still change: not trusted, copied.
    const loose = { type: 'string' }
    const over = sealJson({ type: 'object', properties: Object.freeze({ id: loose }) })
    registry.tool({ name: 'b', inputSchema: over, handler: () => 'x' })
    expect(registry.tools.get('b')?.inputSchema).not.toBe(over)
    expect(Object.isFrozen(loose)).toBe(false)
  })

  test('a schema that contains itself is refused as not plain JSON', () => {
    const loop: Record<string, unknown> = { type: 'object', properties: {} }
    ;(loop.properties as Record<string, unknown>).self = loop
    expect(() => createToolRegistry().tool({ name: 'loop', inputSchema: loop, handler: () => 'x' })).toThrow(
      /plain JSON/,
    )
  })
})
