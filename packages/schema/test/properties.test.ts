// Property-based tests for the parts fed by users and servers: coercion gets arbitrary query
// strings and arbitrary schemas; hashing must not depend on the order anything was listed in.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { coerceArguments, hashTools, SchemaError, type ToolLike, validateArguments } from '../src/index.js'

const parameterName = fc.oneof(
  fc.constantFrom('a', 'b', 'count', '__proto__', 'constructor', 'toString', 'hasOwnProperty'),
  fc.string({ maxLength: 8 }),
)

const queryValue = fc.oneof(
  fc.string(),
  fc.constantFrom(
    '1',
    '0',
    '-5',
    '1.5',
    '1e3',
    'true',
    'False',
    'null',
    '[1,"a"]',
    '{"a":1}',
    '{"__proto__":{"x":1}}',
    '000123',
  ),
  fc.array(fc.string(), { maxLength: 4 }),
)

const queryStrings = fc
  .array(fc.tuple(parameterName, queryValue), { maxLength: 6 })
  .map((entries) => Object.fromEntries(entries) as Record<string, string | string[]>)

const typeName = fc.constantFrom('null', 'boolean', 'integer', 'number', 'object', 'array', 'string', 'nope')
const reference = fc.constantFrom(
  '#',
  '#/$defs/a',
  '#/$defs/b',
  '#/definitions/a',
  '#/properties/a',
  '#/nothing',
  'x',
  '#/%',
)

// Schema-shaped values with the keywords coercion reads, mixed with arbitrary JSON garbage.
const { schema } = fc.letrec<{ schema: unknown }>((tie) => ({
  schema: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.jsonValue({ maxDepth: 2 }),
    fc.record(
      {
        type: fc.oneof(typeName, fc.array(typeName, { maxLength: 3 }), fc.jsonValue({ maxDepth: 1 })),
        anyOf: fc.array(tie('schema'), { maxLength: 3 }),
        oneOf: fc.oneof(fc.array(tie('schema'), { maxLength: 3 }), fc.jsonValue({ maxDepth: 1 })),
        $ref: fc.oneof(reference, fc.jsonValue({ maxDepth: 1 })),
        items: fc.oneof(tie('schema'), fc.array(tie('schema'), { maxLength: 2 })),
        prefixItems: fc.array(tie('schema'), { maxLength: 2 }),
        additionalItems: tie('schema'),
        properties: fc.dictionary(parameterName, tie('schema'), { maxKeys: 3 }),
        $defs: fc.record({ a: tie('schema'), b: tie('schema') }, { requiredKeys: [] }),
        definitions: fc.record({ a: tie('schema') }, { requiredKeys: [] }),
      },
      { requiredKeys: [] },
    ),
  ),
}))

describe('coerceArguments (property-based)', () => {
  it('never throws, keeps every key and pollutes nothing, for any strings and any schema', () => {
    fc.assert(
      fc.property(queryStrings, schema, fc.boolean(), (strings, inputSchema, raw) => {
        const result = coerceArguments(strings, inputSchema, { raw })
        expect(Object.getPrototypeOf(result)).toBe(Object.prototype)
        expect(Object.keys(result)).toEqual(Object.keys(strings))
        expect(({} as Record<string, unknown>).x).toBeUndefined()
        if (raw) for (const key of Object.keys(strings)) expect(result[key]).toBe(strings[key])
      }),
      { numRuns: 500 },
    )
  })

  it('returns a string-typed parameter unchanged, however the string type is spelled', () => {
    const stringSchemas = [
      { type: 'string' },
      { $ref: '#/$defs/text' },
      { anyOf: [{ type: 'string', maxLength: 3 }] },
      { type: 'string', enum: ['true', '1'] },
    ]
    fc.assert(
      fc.property(fc.string(), fc.constantFrom(...stringSchemas), (value, property) => {
        const inputSchema = { $defs: { text: { type: 'string' } }, properties: { p: property } }
        expect(coerceArguments({ p: value }, inputSchema).p).toBe(value)
      }),
    )
  })
})

describe('validateArguments (property-based)', () => {
  it('either answers or throws SchemaError, for any schema', () => {
    fc.assert(
      fc.property(schema, fc.jsonValue({ maxDepth: 2 }), (inputSchema, args) => {
        try {
          const result = validateArguments(args, inputSchema)
          expect(typeof result.ok).toBe('boolean')
        } catch (error) {
          expect(SchemaError.isInstance(error)).toBe(true)
        }
      }),
      { numRuns: 200 },
    )
  })
})

describe('hashTools (property-based)', () => {
  const propertySchema = fc.oneof(
    fc.record({ type: fc.oneof(typeName, fc.uniqueArray(typeName, { maxLength: 3 })) }),
    fc.record({ anyOf: fc.array(fc.record({ type: typeName }), { minLength: 1, maxLength: 3 }) }),
    fc.record({ description: fc.string() }),
  )
  const tools = fc.uniqueArray(
    fc.record({
      name: fc.string({ minLength: 1, maxLength: 6 }),
      properties: fc.dictionary(fc.string({ maxLength: 6 }), propertySchema, { maxKeys: 5 }),
      requiredPicks: fc.array(fc.nat(), { maxLength: 3 }),
    }),
    { selector: (tool) => tool.name, maxLength: 6 },
  )

  function toTool(
    tool: { name: string; properties: Record<string, unknown>; requiredPicks: number[] },
    reverse: boolean,
  ): ToolLike {
    const names = Object.keys(tool.properties)
    const required = names.length === 0 ? [] : tool.requiredPicks.map((pick) => names[pick % names.length]!)
    const order = reverse ? [...names].reverse() : names
    const properties = Object.fromEntries(
      order.map((name) => [name, reorderKeys(tool.properties[name], reverse)]),
    )
    const inputSchema = reverse
      ? { required: [...required].reverse(), properties, type: 'object' }
      : { type: 'object', properties, required }
    return reverse ? { inputSchema, name: tool.name } : { name: tool.name, inputSchema }
  }

  it('is invariant under shuffling tools, properties, keys and required names', () => {
    fc.assert(
      fc.property(
        tools.chain((list) =>
          fc.tuple(
            fc.constant(list),
            fc.shuffledSubarray(list, { minLength: list.length, maxLength: list.length }),
          ),
        ),
        ([list, shuffled]) => {
          expect(hashTools(shuffled.map((tool) => toTool(tool, true)))).toBe(
            hashTools(list.map((tool) => toTool(tool, false))),
          )
        },
      ),
    )
  })

  it('changes when a tool is added', () => {
    fc.assert(
      fc.property(tools, (list) => {
        const before = list.map((tool) => toTool(tool, false))
        expect(hashTools([...before, { name: '\u0000added' }])).not.toBe(hashTools(before))
      }),
    )
  })
})

function reorderKeys(value: unknown, reverse: boolean): unknown {
  if (!reverse || typeof value !== 'object' || value === null || Array.isArray(value)) return value
  return Object.fromEntries(Object.entries(value).reverse())
}
