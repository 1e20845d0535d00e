// Handlers typed from their schemas. The type assertions (expectTypeOf, and the lines that must
// not compile, marked as expected errors) are checked by the package's typecheck (`tsc -p
// tsconfig.json` includes test/); the tests run the same definitions, so what the types promise
// is what the runtime does.

import type { CallToolResult } from '@modelcontextprotocol/server'
import { describe, expect, expectTypeOf, test } from 'vitest'
import { z } from 'zod'
import {
  createToolRegistry,
  type FromJsonSchema,
  type JsonSchema,
  type PromptArguments,
  type ToolArguments,
} from '../../src/registry/registry.js'
import { createRuntime } from '../../src/runtime/runtime.js'

const textTimes = {
  type: 'object',
  properties: { text: { type: 'string' }, times: { type: 'integer' } },
  required: ['text'],
} as const

describe('a JSON Schema literal types the handler', () => {
  test('required properties are present, the others optional; a misspelt one does not compile', async () => {
    const registry = createToolRegistry().tool({
      name: 'repeat',
      inputSchema: textTimes,
      handler: (args) => {
        expectTypeOf(args).toEqualTypeOf<{ text: string; times?: number }>()
        // @ts-expect-error: 'txet' is not a property of the schema
        void args.txet
        return args.text.repeat(args.times ?? 1)
      },
    })
    const runtime = createRuntime(registry)
    expect(await runtime.callTool('repeat', { text: 'ab', times: 2 })).toEqual({
      content: [{ type: 'text', text: 'abab' }],
    })
  })

  test('inline schemas are inferred as literals without `as const`', () => {
    createToolRegistry().tool({
      name: 'inline',
      inputSchema: {
        type: 'object',
        $defs: { thing: { type: 'string' } },
        properties: {
          unit: { enum: ['c', 'f'] },
          tags: { type: 'array', items: { type: 'string' } },
          limit: { type: ['integer', 'null'] },
          point: {
            type: 'object',
            properties: { x: { type: 'number' }, y: { type: 'number' } },
            required: ['x', 'y'],
          },
          mode: { const: 'fast' },
          either: { anyOf: [{ type: 'string' }, { type: 'boolean' }] },
          extra: { type: 'object', additionalProperties: { type: 'number' } },
          ref: { $ref: '#/$defs/thing' },
        },
        required: ['unit', 'point'],
      },
      handler: (args) => {
        expectTypeOf(args).toEqualTypeOf<{
          unit: 'c' | 'f'
          point: { x: number; y: number }
          tags?: string[]
          limit?: number | null
          mode?: 'fast'
          either?: string | boolean
          extra?: Record<string, number>
          ref?: unknown
        }>()
        return undefined
      },
    })
  })

  test('a schema with a misspelt type does not compile, at any depth, nor a top level other than object', () => {
    const registry = createToolRegistry()
    const handler = () => 'x'
    // @ts-expect-error: 'objekt' is not a JSON Schema type
    expect(() => registry.tool({ name: 'a', inputSchema: { type: 'objekt' }, handler })).toThrow(/object/)
    expect(() =>
      registry.tool({
        name: 'b',
        // @ts-expect-error: 'integr' is not a JSON Schema type
        inputSchema: { type: 'object', properties: { n: { type: 'integr' } } },
        handler,
      }),
    ).toThrow(/invalid inputSchema/)
    // @ts-expect-error: a tool's arguments are an object
    expect(() => registry.tool({ name: 'c', inputSchema: { type: 'array' }, handler })).toThrow(/object/)
  })

  test('additionalProperties lets other names in, as unknown', () => {
    createToolRegistry().tool({
      name: 'open',
      inputSchema: { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: true },
      handler: (args) => {
        expectTypeOf(args.a).toEqualTypeOf<string | undefined>()
        expectTypeOf(args['anything']).toEqualTypeOf<unknown>()
        return undefined
      },
    })
  })

  test('a schema typed only as a record (read at run time, or widened) types nothing', () => {
    const fromFile: JsonSchema = { type: 'object' }
    const widened = { type: 'object', properties: { a: { type: 'string' } } }
    for (const inputSchema of [fromFile, widened]) {
      createToolRegistry().tool({
        name: 'loose',
        inputSchema,
        handler: (args) => {
          expectTypeOf(args).toEqualTypeOf<Record<string, unknown>>()
          return undefined
        },
      })
    }
    createToolRegistry().tool({
      name: 'none',
      handler: (args) => {
        expectTypeOf(args).toEqualTypeOf<Record<string, unknown>>()
        return undefined
      },
    })
  })

  test('an explicit type argument still types the handler, unchecked against the schema', () => {
    createToolRegistry().tool<{ text: string }>({
      name: 'explicit',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      outputSchema: { type: 'object' },
      handler: (args) => {
        expectTypeOf(args).toEqualTypeOf<{ text: string }>()
        return args.text
      },
    })
  })

  test('the exported helpers give the same types', () => {
    expectTypeOf<FromJsonSchema<typeof textTimes>>().toEqualTypeOf<{ text: string; times?: number }>()
    expectTypeOf<ToolArguments<typeof textTimes>>().toEqualTypeOf<{ text: string; times?: number }>()
    expectTypeOf<ToolArguments<JsonSchema>>().toEqualTypeOf<Record<string, unknown>>()
  })
})

describe('the outputSchema types what the handler returns', () => {
  const outputSchema = {
    type: 'object',
    properties: { words: { type: 'integer' } },
    required: ['words'],
  } as const

  test('the structured value, a result carrying it, or an error result', async () => {
    const registry = createToolRegistry()
      .tool({ name: 'value', outputSchema, handler: () => ({ words: 3 }) })
      .tool({
        name: 'full',
        outputSchema,
        handler: async () => ({ content: [], structuredContent: { words: 3 } }),
      })
      .tool({
        name: 'failed',
        outputSchema,
        handler: () => ({ isError: true as const, content: [{ type: 'text' as const, text: 'no' }] }),
      })
    const runtime = createRuntime(registry)
    expect((await runtime.callTool('value', {})).structuredContent).toEqual({ words: 3 })
    expect((await runtime.callTool('full', {})).structuredContent).toEqual({ words: 3 })
    expect((await runtime.callTool('failed', {})).isError).toBe(true)
  })

  test('a value of another shape, or no structured value, does not compile', () => {
    const registry = createToolRegistry()
    // @ts-expect-error: 'words' must be a number
    registry.tool({ name: 'wrong', outputSchema, handler: () => ({ words: 'three' }) })
    // @ts-expect-error: a tool with an outputSchema returns structuredContent
    registry.tool({ name: 'text', outputSchema, handler: () => 'three words' })
    const result: CallToolResult = { content: [] }
    // @ts-expect-error: a result without structuredContent is only allowed as an error
    registry.tool({ name: 'bare', outputSchema, handler: () => result })
  })
})

describe('a Standard Schema validator types the handler', () => {
  test('arguments are the validator output; a misspelt one does not compile', async () => {
    const registry = createToolRegistry().tool({
      name: 'repeat',
      inputSchema: z.object({ text: z.string(), times: z.number().int().optional() }),
      outputSchema: z.object({ result: z.string() }),
      handler: (args) => {
        expectTypeOf(args).toEqualTypeOf<{ text: string; times?: number | undefined }>()
        // @ts-expect-error: 'txet' is not a property of the schema
        void args.txet
        return { result: args.text.repeat(args.times ?? 1) }
      },
    })
    const result = await createRuntime(registry).callTool('repeat', { text: 'ab', times: 2 })
    expect(result.structuredContent).toEqual({ result: 'abab' })
  })

  test('defaults and transforms are applied: the handler gets what the validator gives', async () => {
    const registry = createToolRegistry().tool({
      name: 'shout',
      inputSchema: z.object({
        text: z.string().transform((text) => text.toUpperCase()),
        times: z.int().default(2),
      }),
      handler: (args) => {
        expectTypeOf(args).toEqualTypeOf<{ text: string; times: number }>()
        return args.text.repeat(args.times)
      },
    })
    const result = await createRuntime(registry).callTool('shout', { text: 'ab' })
    expect(result.content).toEqual([{ type: 'text', text: 'ABAB' }])
  })

  test('a result of another shape does not compile', () => {
    createToolRegistry().tool({
      name: 'wrong',
      outputSchema: z.object({ words: z.number() }),
      // @ts-expect-error: 'words' must be a number
      handler: () => ({ words: 'three' }),
    })
  })
})

describe("a prompt's arguments type its get", () => {
  test('each declared name is a string, the required ones always there', async () => {
    const registry = createToolRegistry().prompt({
      name: 'summarize',
      arguments: [{ name: 'text', required: true }, { name: 'style' }],
      get: (args) => {
        expectTypeOf(args).toEqualTypeOf<{ text: string; style?: string }>()
        // @ts-expect-error: 'txet' is not an argument of the prompt
        void args.txet
        return `Summarize${args.style === undefined ? '' : ` (${args.style})`}: ${args.text}`
      },
    })
    const result = await createRuntime(registry).getPrompt('summarize', { text: 'a b' })
    expect(result.messages[0]?.content).toEqual({ type: 'text', text: 'Summarize: a b' })
  })

  test('undeclared arguments, an argument list typed as a list, or a type argument, as before', () => {
    const registry = createToolRegistry()
    registry.prompt({
      name: 'none',
      get: (args) => {
        expectTypeOf(args).toEqualTypeOf<Record<string, string>>()
        return 'x'
      },
    })
    expectTypeOf<PromptArguments<{ name: string; required?: boolean }[]>>().toEqualTypeOf<
      Record<string, string>
    >()
    registry.prompt<{ topic: string }>({
      name: 'explicit',
      arguments: [{ name: 'topic', required: true }],
      get: (args) => {
        expectTypeOf(args).toEqualTypeOf<{ topic: string }>()
        return args.topic
      },
    })
  })
})
