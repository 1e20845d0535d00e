// Standard Schema validators as tool schemas at run time: clients see the JSON Schema the
// validator gives, ajv checks arguments against it, then the validator runs (refinements,
// defaults, transforms); a validator without a JSON Schema is refused at registration unless
// the registry is given a converter.

import type { StandardSchemaV1 } from '@standard-schema/spec'
import { describe, expect, test } from 'vitest'
import { z } from 'zod'
import * as zm from 'zod/mini'
import { ServerError } from '../../src/errors.js'
import { createToolRegistry } from '../../src/registry/registry.js'
import { createRuntime } from '../../src/runtime/runtime.js'
import type { TraceEntry } from '../../src/trace.js'
import { sdkClient, serve } from '../helpers/http.js'

const repeatInput = z.object({
  text: z.string().refine((text) => text.trim() !== '', 'must not be blank'),
  times: z.int().min(1).default(1),
})

function repeatRegistry() {
  return createToolRegistry().tool({
    name: 'repeat',
    inputSchema: repeatInput,
    outputSchema: z.object({ result: z.string() }),
    handler: ({ text, times }) => ({ result: text.repeat(times) }),
  })
}

function refusal(register: () => unknown): ServerError {
  try {
    register()
  } catch (error) {
    if (ServerError.isInstance(error)) return error
    throw error
  }
  throw new Error('the registration was accepted')
}

describe('a zod schema', () => {
  test('is listed with the JSON Schema zod gives, of its input and of its output', async () => {
    const registry = repeatRegistry()
    const [tool] = createRuntime(registry).listTools()
    expect(tool?.inputSchema).toEqual(repeatInput['~standard'].jsonSchema.input({ target: 'draft-2020-12' }))
    expect(tool?.inputSchema).toMatchObject({
      type: 'object',
      properties: { text: { type: 'string' }, times: { type: 'integer', minimum: 1, default: 1 } },
      required: ['text'],
    })
    expect(tool?.outputSchema).toMatchObject({
      type: 'object',
      properties: { result: { type: 'string' } },
      required: ['result'],
    })
    // …and so over the wire.
    const server = await serve(registry)
    const { client } = await sdkClient(server.url)
    const { tools } = await client.listTools()
    expect(tools[0]?.inputSchema).toEqual(tool?.inputSchema)
  })

  test('arguments are checked against that JSON Schema, then by zod; the handler gets its output', async () => {
    const traces: TraceEntry[] = []
    const runtime = createRuntime(repeatRegistry(), { onTrace: (entry) => traces.push(entry) })
    expect(await runtime.callTool('repeat', { text: 'ab' })).toEqual({
      content: [{ type: 'text', text: '{"result":"ab"}' }],
      structuredContent: { result: 'ab' },
    })
    expect((await runtime.callTool('repeat', { text: 'ab', times: 3 })).structuredContent).toEqual({
      result: 'ababab',
    })
    // ajv, as for any tool: the message names the parameter.
    expect(await runtime.callTool('repeat', { text: 3 })).toEqual({
      isError: true,
      content: [
        { type: 'text', text: "Invalid arguments for tool 'repeat':\ntext: must be a string (got 3)" },
      ],
    })
    // What JSON Schema cannot say, zod does.
    expect(await runtime.callTool('repeat', { text: '  ' })).toEqual({
      isError: true,
      content: [{ type: 'text', text: "Invalid arguments for tool 'repeat':\ntext: must not be blank" }],
    })
    expect(traces.map((entry) => entry.error_code)).toEqual([
      undefined,
      undefined,
      'invalid_arguments',
      'invalid_arguments',
    ])
  })

  test('results are checked against the JSON Schema of its output', async () => {
    const registry = createToolRegistry().tool({
      name: 'count',
      outputSchema: z.object({ words: z.int() }),
      handler: () => ({ words: 1.5 }),
    })
    const result = await createRuntime(registry).callTool('count', {})
    expect(result.isError).toBe(true)
    expect(result.content).toEqual([
      {
        type: 'text',
        text: expect.stringMatching(
          /^Tool 'count' returned structuredContent that does not match its outputSchema:\nwords: /,
        ),
      },
    ])
  })

  test('a zod schema that is not an object is refused, as a JSON Schema would be', () => {
    const error = refusal(() =>
      // @ts-expect-error: the types refuse it too
      createToolRegistry().tool({ name: 'text', inputSchema: z.string(), handler: () => 'x' }),
    )
    expect(error.code).toBe('invalid_definition')
    expect(error.message).toMatch(/^tool 'text': inputSchema must have "type": "object"/)
  })
})

describe('where the JSON Schema comes from', () => {
  test('a validator without one is refused at registration, saying what would do', () => {
    const error = refusal(() =>
      createToolRegistry().tool({
        name: 'mini',
        inputSchema: zm.object({ a: zm.string() }),
        handler: () => 'x',
      }),
    )
    expect(error.code).toBe('invalid_definition')
    expect(error.message).toBe(
      "tool 'mini': inputSchema is a zod validator without a JSON Schema, which clients need: use a version " +
        'that implements Standard JSON Schema (~standard.jsonSchema; zod 4.2 or later), or give ' +
        'createToolRegistry a toJsonSchema option',
    )
  })

  test('the toJsonSchema option converts what carries none (zod/mini)', async () => {
    const registry = createToolRegistry({
      toJsonSchema: (validator, io) => zm.toJSONSchema(validator as zm.ZodMiniType, { io }),
    }).tool({
      name: 'mini',
      inputSchema: zm.object({ a: zm.string() }),
      handler: ({ a }) => a.toUpperCase(),
    })
    const runtime = createRuntime(registry)
    expect(runtime.listTools()[0]?.inputSchema).toMatchObject({
      type: 'object',
      properties: { a: { type: 'string' } },
      required: ['a'],
    })
    expect((await runtime.callTool('mini', { a: 'x' })).content).toEqual([{ type: 'text', text: 'X' }])
    expect((await runtime.callTool('mini', {})).isError).toBe(true)
  })

  test("a zod schema's own toJSONSchema serves when ~standard has no jsonSchema (zod before 4.2)", () => {
    const schema = z.object({ a: z.string() })
    const { validate, vendor, version } = schema['~standard']
    schema['~standard'] = { validate, vendor, version } as (typeof schema)['~standard']
    expect(schema['~standard'].jsonSchema).toBeUndefined()
    const registry = createToolRegistry().tool({ name: 'older', inputSchema: schema, handler: ({ a }) => a })
    expect(createRuntime(registry).listTools()[0]?.inputSchema).toMatchObject({
      type: 'object',
      properties: { a: { type: 'string' } },
    })
  })

  test('any Standard Schema with Standard JSON Schema serves, whatever library made it', async () => {
    const seen: unknown[] = []
    const handmade: StandardSchemaV1<{ n: string }, { n: number }> & {
      '~standard': {
        jsonSchema: { input: () => Record<string, unknown>; output: () => Record<string, unknown> }
      }
    } = {
      '~standard': {
        version: 1,
        vendor: 'handmade',
        validate: (value) => {
          seen.push(value)
          const n = Number((value as { n: string }).n)
          return Number.isNaN(n) ? { issues: [{ message: 'not a number', path: ['n'] }] } : { value: { n } }
        },
        jsonSchema: {
          input: () => ({ type: 'object', properties: { n: { type: 'string' } }, required: ['n'] }),
          output: () => ({ type: 'object', properties: { n: { type: 'number' } }, required: ['n'] }),
        },
      },
    }
    const registry = createToolRegistry().tool({
      name: 'double',
      inputSchema: handmade,
      handler: ({ n }) => n * 2,
    })
    const runtime = createRuntime(registry)
    expect((await runtime.callTool('double', { n: '21' })).content).toEqual([{ type: 'text', text: '42' }])
    expect((await runtime.callTool('double', { n: 'x' })).content).toEqual([
      { type: 'text', text: "Invalid arguments for tool 'double':\nn: not a number" },
    ])
    // ajv refused this one before the validator saw it.
    expect((await runtime.callTool('double', { n: 1 })).isError).toBe(true)
    expect(seen).toEqual([{ n: '21' }, { n: 'x' }])
  })

  test('a converter that fails refuses the registration, naming the library', () => {
    const error = refusal(() =>
      createToolRegistry({
        toJsonSchema: () => {
          throw new Error('transforms cannot be represented')
        },
      }).tool({ name: 'mini', inputSchema: zm.object({ a: zm.string() }), handler: () => 'x' }),
    )
    expect(error.message).toBe(
      "tool 'mini': inputSchema: zod cannot give its JSON Schema: transforms cannot be represented",
    )
  })
})
