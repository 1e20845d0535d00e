import { describe, expect, it } from 'vitest'
import { canonicalToolSignatures, hashTools, type ToolLike, toolSignature } from '../src/index.js'

const search: ToolLike = {
  name: 'search',
  description: 'Search genes',
  inputSchema: {
    type: 'object',
    properties: {
      gene: { type: 'string', description: 'Gene symbol' },
      limit: { type: 'integer' },
      filters: { type: ['object', 'null'] },
    },
    required: ['limit', 'gene'],
  },
}
const fetchTool: ToolLike = {
  name: 'fetch',
  inputSchema: { type: 'object', properties: { id: { type: 'string' } } },
}

describe('hashTools', () => {
  it('writes sha256:<hex>', () => {
    expect(hashTools([search])).toMatch(/^sha256:[0-9a-f]{64}$/)
  })

  it('hashes the documented canonical form', () => {
    expect(canonicalToolSignatures([search, fetchTool])).toBe(
      '[{"name":"fetch","properties":{"id":"string"},"required":[]},' +
        '{"name":"search","properties":{"filters":["null","object"],"gene":"string","limit":"integer"},"required":["gene","limit"]}]',
    )
  })

  it('ignores tool order, key order, property order, required order, descriptions and titles', () => {
    const reordered: ToolLike = {
      title: 'Gene search',
      inputSchema: {
        required: ['gene', 'limit'],
        properties: {
          filters: { type: ['null', 'object'], title: 'Filters' },
          limit: { description: 'How many', type: 'integer' },
          gene: { type: 'string', description: 'Another description' },
        },
        type: 'object',
      },
      description: 'Completely different words',
      name: 'search',
    }
    expect(hashTools([fetchTool, reordered])).toBe(hashTools([search, fetchTool]))
  })

  it('changes when a parameter type changes', () => {
    const changed = structuredClone(search)
    ;(changed.inputSchema as { properties: { limit: { type: string } } }).properties.limit.type = 'number'
    expect(hashTools([changed])).not.toBe(hashTools([search]))
  })

  it('changes when required changes', () => {
    const changed = structuredClone(search)
    ;(changed.inputSchema as { required: string[] }).required = ['gene']
    expect(hashTools([changed])).not.toBe(hashTools([search]))
  })

  it('changes when a tool is added or renamed', () => {
    expect(hashTools([search, fetchTool])).not.toBe(hashTools([search]))
    expect(hashTools([{ ...fetchTool, name: 'get' }])).not.toBe(hashTools([fetchTool]))
  })

  it('changes when a parameter is added', () => {
    const changed = structuredClone(fetchTool)
    ;(changed.inputSchema as { properties: Record<string, unknown> }).properties.extra = { type: 'string' }
    expect(hashTools([changed])).not.toBe(hashTools([fetchTool]))
  })

  it('tolerates missing and garbage input schemas as no parameters', () => {
    const none = hashTools([{ name: 'ping' }])
    expect(hashTools([{ name: 'ping', inputSchema: null }])).toBe(none)
    expect(hashTools([{ name: 'ping', inputSchema: 42 }])).toBe(none)
    expect(hashTools([{ name: 'ping', inputSchema: ['x'] }])).toBe(none)
    expect(hashTools([{ name: 'ping', inputSchema: { properties: 'nope', required: 'x' } }])).toBe(none)
  })

  it('skips entries that are not tools rather than throwing', () => {
    const garbage = [null, 42, { name: 7 }, fetchTool] as unknown as ToolLike[]
    expect(hashTools(garbage)).toBe(hashTools([fetchTool]))
  })
})

describe('toolSignature', () => {
  it('derives a type from anyOf/oneOf members as a sorted union', () => {
    const signature = toolSignature({
      name: 't',
      inputSchema: {
        properties: {
          a: { anyOf: [{ type: 'string' }, { type: 'null' }] },
          b: { oneOf: [{ type: ['number', 'integer'] }, { type: 'integer' }] },
          c: { anyOf: [{ anyOf: [{ type: 'boolean' }] }, { const: 1 }] },
        },
      },
    })
    expect(signature.properties).toEqual({ a: ['null', 'string'], b: ['integer', 'number'], c: ['boolean'] })
  })

  it("resolves local $ref to the target's type", () => {
    const signature = toolSignature({
      name: 't',
      inputSchema: {
        $defs: { color: { type: 'string', enum: ['red'] } },
        definitions: { size: { $ref: '#/$defs/size~1x' } },
        properties: {
          color: { $ref: '#/$defs/color' },
          size: { $ref: '#/definitions/size' },
          self: { $ref: '#' },
          missing: { $ref: '#/$defs/nothing' },
          remote: { $ref: 'https://example.com/schema.json' },
          untyped: { description: 'anything' },
          bad: { $ref: '#/%E0%A4%A' },
        },
      },
    })
    expect(signature.properties).toEqual({
      color: 'string',
      size: null,
      self: null,
      missing: null,
      remote: null,
      untyped: null,
      bad: null,
    })
  })

  it('follows a $ref chain and to the root', () => {
    const signature = toolSignature({
      name: 't',
      inputSchema: {
        type: 'object',
        $defs: { a: { $ref: '#/$defs/b' }, b: { type: 'integer' } },
        properties: { chain: { $ref: '#/$defs/a' }, root: { $ref: '#' } },
      },
    })
    expect(signature.properties).toEqual({ chain: 'integer', root: 'object' })
  })

  it('does not loop on recursive $ref', () => {
    const signature = toolSignature({
      name: 't',
      inputSchema: {
        $defs: { a: { $ref: '#/$defs/b' }, b: { anyOf: [{ $ref: '#/$defs/a' }, { $ref: '#/$defs/b' }] } },
        properties: { loop: { $ref: '#/$defs/a' } },
      },
    })
    expect(signature.properties).toEqual({ loop: null })
  })

  it('does not read inherited keys such as constructor or __proto__', () => {
    const inputSchema = JSON.parse(
      '{"properties":{"__proto__":{"type":"string"},"constructor":{"$ref":"#/constructor"}}}',
    ) as unknown
    const signature = toolSignature({ name: 't', inputSchema })
    expect(Object.keys(signature.properties)).toEqual(['__proto__', 'constructor'])
    expect(Object.getOwnPropertyDescriptor(signature.properties, '__proto__')?.value).toBe('string')
    expect(Object.getOwnPropertyDescriptor(signature.properties, 'constructor')?.value).toBeNull()
    expect(Object.getPrototypeOf(signature.properties)).toBe(Object.prototype)
  })
})
