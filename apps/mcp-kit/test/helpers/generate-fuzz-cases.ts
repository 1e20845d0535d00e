// What generate-fuzz.test.ts has a hostile server list: names, titles, descriptions and schemas
// built from strings that try to become code in a generated module (break out of a comment, a
// string, a template, a type, a property key), with every JSON Schema keyword, `$ref`s into any
// value of the schema, reserved words, `__proto__`, line separators, NUL, long strings and deep
// nesting. A payload that ever runs writes the marker file, sets a global and prints.

import fc from 'fast-check'

/**
 * Code that, run, leaves three traces: a file (FUZZ_MARKER), a global, and a line on stdout. It is
 * TypeScript that compiles under --strict, so that a module it got into also compiles and runs it.
 */
const payload =
  "(globalThis as any).__generateFuzzRan = 1; (globalThis as any).process.getBuiltinModule('node:fs').writeFileSync((globalThis as any).process.env.FUZZ_MARKER ?? 'fuzz-ran', 'ran'); console.log('PWNED')"

/** The payload wrapped to escape each context a server's text can reach in a module. */
export const attacks: readonly string[] = [
  `*/ ${payload} /*`,
  `*/\n${payload}\n/**`,
  `'); ${payload}; ('`,
  `"); ${payload}; ("`,
  `\`); ${payload}; (\``,
  `\${${payload}}`,
  `\n${payload}\n`,
  `\u2028${payload}\u2029`,
  `</script><script>${payload}</script>`,
  `\\'; ${payload} //`,
  `\\"; ${payload} //`,
  `string; }; ${payload}; export interface Injected {`,
  `unknown }\n${payload}\nexport interface Injected {`,
  `x"]: 1 }; ${payload}; let y = { "z`,
  `*/ declare const injected: 1; export const escaped = (() => { ${payload} })(); /*`,
  `a\u0000b${payload}`,
  `@ts-nocheck ${payload}`,
]

const reservedNames = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'valueOf',
  'hasOwnProperty',
  'then',
  'delete',
  'default',
  'class',
  'function',
  'await',
  'eval',
  'arguments',
  'Promise',
  'Record',
  'Client',
  'ResourceUri',
  'kit',
  'connect',
  'generated',
  'session',
  'close',
  'prompts',
  'readResource',
  'get-sum',
  'get_sum',
  'getSum',
  'GET_SUM',
  'get sum',
  'get.sum',
  'ĝet-sum',
  '3d',
  '---',
  '',
]

/** Text a server might send, mostly hostile. */
export const hostileText: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...attacks) },
  { weight: 2, arbitrary: fc.constantFrom(...reservedNames) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 24 }) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom(...reservedNames), fc.constantFrom(...attacks))
      .map((parts) => parts.join('')),
  },
  { weight: 1, arbitrary: fc.constantFrom('x'.repeat(3000), `${'y'.repeat(2000)}*/${payload}`) },
)

/** An object the library would read as a schema that injects code: where `$ref`s can land. */
const injectingObject = fc.constantFrom(...attacks).map((text) => ({ tsType: text, tsEnumNames: [text] }))

/** Any JSON value, hostile strings and injecting objects included. */
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  hostileText,
  injectingObject,
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.oneof(hostileText, injectingObject, fc.integer()), { maxLength: 3 }),
)

const typeValue = fc.oneof(
  fc.constantFrom('string', 'number', 'integer', 'boolean', 'object', 'array', 'null', 'any'),
  fc.array(fc.constantFrom('string', 'integer', 'null', 'object'), { maxLength: 3 }),
  hostileText,
  injectingObject,
)

const names = fc.oneof(hostileText, fc.constantFrom('a', 'b', 'value', 'tsType', '$ref', 'properties'))

function dictionary<Value>(value: fc.Arbitrary<Value>): fc.Arbitrary<Record<string, Value>> {
  return fc.array(fc.tuple(names, value), { maxLength: 3 }).map((entries) => {
    const record: Record<string, Value> = {}
    for (const [key, entry] of entries)
      Object.defineProperty(record, key, {
        value: entry,
        enumerable: true,
        writable: true,
        configurable: true,
      })
    return record
  })
}

/** The keywords whose values are data: hostile values everywhere. */
const dataKeywords = {
  type: typeValue,
  title: hostileText,
  description: hostileText,
  default: hostileValue,
  examples: fc.array(hostileValue, { maxLength: 2 }),
  const: hostileValue,
  enum: fc.array(hostileValue, { maxLength: 3 }),
  readOnly: hostileValue,
  writeOnly: hostileValue,
  deprecated: hostileValue,
  nullable: hostileValue,
  tsType: hostileText,
  tsEnumNames: fc.array(hostileText, { maxLength: 2 }),
  $id: hostileText,
  $comment: hostileText,
  format: hostileText,
  pattern: hostileText,
  minItems: fc.oneof(fc.integer({ min: 0, max: 5 }), hostileValue),
  required: fc.oneof(fc.array(names, { maxLength: 3 }), hostileValue),
}

/** A schema with any keyword, each value hostile or a further schema (at most four levels). */
const schema: fc.Arbitrary<Record<string, unknown>> = fc.letrec<{ node: Record<string, unknown> }>((tie) => ({
  node: fc.oneof(
    { maxDepth: 4, depthSize: 'small' },
    fc.record(dataKeywords, { requiredKeys: [] }),
    fc.record(
      {
        ...dataKeywords,
        properties: dictionary(fc.oneof(tie('node'), hostileValue)),
        patternProperties: dictionary(tie('node')),
        additionalProperties: fc.oneof(fc.boolean(), tie('node'), hostileValue),
        items: fc.oneof(tie('node'), fc.array(tie('node'), { maxLength: 2 })),
        anyOf: fc.array(tie('node'), { maxLength: 2 }),
        allOf: fc.array(fc.oneof(tie('node'), fc.record({ required: fc.array(names, { maxLength: 1 }) })), {
          maxLength: 2,
        }),
        $defs: dictionary(tie('node')),
        definitions: dictionary(tie('node')),
      },
      { requiredKeys: [] },
    ),
  ),
})).node

/** Every JSON pointer into a value: subschemas, and values that are not (const, enum, default, titles, keys). */
function pointers(value: unknown, path = '#', found: string[] = [], depth = 0): string[] {
  found.push(path)
  if (depth > 6 || typeof value !== 'object' || value === null) return found
  for (const [key, entry] of Object.entries(value))
    pointers(
      entry,
      `${path}/${encodeURIComponent(key.replaceAll('~', '~0').replaceAll('/', '~1'))}`,
      found,
      depth + 1,
    )
  return found
}

/** An inputSchema (or outputSchema) of type object, with `$ref`s to anywhere in it added. */
const objectSchema = schema.chain((body) => {
  const root: Record<string, unknown> = { ...body, type: 'object' }
  const targets = pointers(root).filter((pointer) => pointer !== '#')
  return fc.subarray(targets.length > 0 ? targets : ['#'], { maxLength: 4 }).map((chosen) => {
    const properties = {
      ...(typeof root.properties === 'object' && root.properties !== null ? root.properties : {}),
    }
    for (const [index, pointer] of chosen.entries())
      Object.assign(properties, { [`ref${index}`]: { $ref: pointer } })
    return { ...root, properties }
  })
})

/** A schema nested `depth` levels deep, through properties, items and anyOf in turn. */
export function deepSchema(depth: number): Record<string, unknown> {
  let node: Record<string, unknown> = { type: 'string', description: attacks[0] }
  for (let level = 0; level < depth; level++) {
    const keyword = level % 3
    node =
      keyword === 0
        ? { type: 'object', properties: { [`n${level}`]: node } }
        : keyword === 1
          ? { type: 'array', items: node }
          : { anyOf: [node, { type: 'null' }] }
  }
  return { type: 'object', properties: { deep: node } }
}

const tool = fc.record(
  {
    name: fc.oneof(hostileText, fc.constantFrom(...reservedNames)),
    title: hostileText,
    description: hostileText,
    inputSchema: objectSchema,
    outputSchema: objectSchema,
  },
  { requiredKeys: ['name', 'inputSchema'] },
)

export interface ListedServer {
  name: string
  version: string
  tools: unknown[]
  resources: unknown[]
  templates: unknown[]
  prompts: unknown[]
}

/** One hostile server: what listed.js (the fixture) lists. */
export const hostileServer: fc.Arbitrary<ListedServer> = fc.record({
  name: hostileText,
  version: hostileText,
  tools: fc.array(tool, { minLength: 1, maxLength: 5 }),
  resources: fc.array(fc.record({ uri: hostileText, name: hostileText, description: hostileText }), {
    maxLength: 2,
  }),
  templates: fc.array(fc.record({ uriTemplate: hostileText, name: hostileText }), { maxLength: 2 }),
  prompts: fc.array(
    fc.record({
      name: hostileText,
      description: hostileText,
      arguments: fc.array(
        fc.record({ name: hostileText, description: hostileText, required: fc.boolean() }),
        {
          maxLength: 2,
        },
      ),
    }),
    { maxLength: 2 },
  ),
})

/** Text written as `tsType`: it ends the type it is put in, runs the payload, opens an interface. */
const asType = `unknown }; ${payload}; export interface Injected { x?: unknown`

/**
 * The holes found by hand, always served, one server each so that one refused list does not hide
 * another: a `$ref` into `const`, into each other kind of value, tool names that are members of
 * every object, and the rest (definition and pattern keys, line separators, deep nesting).
 */
export function knownCases(): ListedServer[] {
  const injecting = { tsType: asType, tsEnumNames: [attacks[0]] }
  const server = (tools: unknown[], more: Partial<ListedServer> = {}): ListedServer => ({
    name: 'known',
    version: '1',
    tools,
    resources: [],
    templates: [],
    prompts: [],
    ...more,
  })
  const plain = { type: 'object', properties: { a: { type: 'string' } } }
  const viaConst = {
    type: 'object',
    properties: { c: { const: injecting }, viaConst: { $ref: '#/properties/c/const' } },
  }
  const intoValues = {
    type: 'object',
    properties: {
      e: { enum: [injecting] },
      d: { default: injecting },
      x: { examples: [injecting] },
      r: { readOnly: injecting },
      t: { title: asType, description: attacks[12] },
      n: { type: 'object', properties: { tsType: asType } },
      viaEnum: { $ref: '#/properties/e/enum/0' },
      viaDefault: { $ref: '#/properties/d/default' },
      viaExamples: { $ref: '#/properties/x/examples/0' },
      viaReadOnly: { $ref: '#/properties/r/readOnly' },
      viaTitle: { $ref: '#/properties/t/title' },
      viaDescription: { $ref: '#/properties/t/description' },
      viaNames: { $ref: '#/properties/n/properties' },
    },
  }
  const keys = {
    type: 'object',
    properties: {
      $ref: { type: 'string' },
      hasOwnProperty: { type: 'string' },
      constructor: { type: 'integer' },
      'a"b\nc': { type: 'string' },
      list: { type: 'array', items: { $ref: '#/$defs/node' } },
    },
    required: ['hasOwnProperty'],
    $defs: {
      node: { type: 'object', properties: { next: { $ref: '#/$defs/node' } } },
      [`a */ ${payload} /* b`]: { type: 'string' },
      [`*/*/ ${payload} /*`]: { type: 'integer' },
    },
    patternProperties: { [`^x*/ */ ${payload} /*`]: { type: 'string' } },
    additionalProperties: { tsType: asType },
  }
  return [
    server([{ name: 'via-const', inputSchema: viaConst, outputSchema: viaConst }]),
    server([{ name: 'into-values', description: attacks[0], inputSchema: intoValues }]),
    server([
      { name: '__proto__', title: attacks[1], inputSchema: plain },
      { name: 'constructor', inputSchema: plain, outputSchema: plain },
      { name: 'toString', inputSchema: plain },
      { name: 'then', inputSchema: plain },
      { name: 'hasOwnProperty', inputSchema: plain },
    ]),
    server(
      [
        { name: 'keys', inputSchema: keys, outputSchema: keys },
        { name: 'get-sum', inputSchema: plain },
        { name: 'get_sum', inputSchema: plain },
        { name: 'GetSum', inputSchema: plain },
        { name: 'tool3d', inputSchema: plain },
        { name: attacks[3] as string, description: attacks[7], inputSchema: deepSchema(120) },
      ],
      {
        name: `evil */ ${payload}`,
        version: attacks[6] as string,
        resources: [{ uri: attacks[5], name: 'r' }],
        templates: [{ uriTemplate: `x://${attacks[4]}/{id}`, name: 't' }],
        prompts: [
          { name: attacks[2], description: attacks[0], arguments: [{ name: '__proto__', required: true }] },
        ],
      },
    ),
  ]
}
