import { describe, expect, it } from 'vitest'
import { diffContracts, diffTools, hashContract, type ToolLike, toolContract } from '../src/index.js'

const search: ToolLike = {
  name: 'search',
  description: 'Search genes',
  inputSchema: {
    type: 'object',
    properties: { gene: { type: 'string' }, limit: { anyOf: [{ type: 'integer' }, { type: 'null' }] } },
    required: ['gene', 'token'],
  },
  outputSchema: {
    type: 'object',
    properties: { hits: { type: 'array' }, total: { type: 'integer' } },
    required: ['total'],
  },
}

function withOutput(tool: ToolLike, outputSchema: unknown): ToolLike {
  return { ...tool, outputSchema }
}

describe('toolContract', () => {
  it('keeps each parameter and result field as [name, type, required], sorted by name', () => {
    expect(toolContract(search)).toEqual({
      name: 'search',
      input: [
        ['gene', 'string', true],
        ['limit', ['integer', 'null'], false],
        ['token', null, true],
      ],
      output: [
        ['hits', 'array', false],
        ['total', 'integer', true],
      ],
    })
    expect(toolContract({ name: 'bare' })).toEqual({ name: 'bare', input: [] })
  })

  it('reads names like __proto__ and constructor as fields, never as the prototype', () => {
    const contract = toolContract({
      name: '__proto__',
      inputSchema: JSON.parse('{"properties":{"__proto__":{"type":"string"},"constructor":{}}}'),
    })
    expect(contract.input).toEqual([
      ['__proto__', 'string', false],
      ['constructor', null, false],
    ])
  })
})

describe('hashContract', () => {
  it('ignores descriptions and key order, and covers the result fields', () => {
    const hash = hashContract(toolContract(search))
    expect(hash).toMatch(/^[0-9a-f]{16}$/)
    const reworded = { ...search, description: 'other', title: 'Search' }
    expect(hashContract(toolContract(reworded))).toBe(hash)
    const retyped = withOutput(search, {
      properties: { total: { type: 'string' }, hits: { type: 'array' } },
      required: ['total'],
    })
    expect(hashContract(toolContract(retyped))).not.toBe(hash)
  })
})

describe('diffContracts', () => {
  const before = [toolContract(search)]
  const classes = (after: ToolLike) =>
    diffContracts(before, [toolContract(after)]).map((change) => [change.class, change.kind, change.message])

  it('a result field that changed type, went missing or became optional is breaking', () => {
    const after = withOutput(search, {
      type: 'object',
      properties: { hits: { type: 'string' } },
    })
    expect(classes(after)).toEqual([
      [
        'breaking',
        'output_field_type_changed',
        "tool 'search': result field 'hits' changed type from array to string",
      ],
      ['breaking', 'output_field_removed', "tool 'search': result field 'total' was removed"],
    ])
    const optional = withOutput(search, { ...(search.outputSchema as object), required: [] })
    expect(classes(optional)).toEqual([
      ['breaking', 'output_field_made_optional', "tool 'search': result field 'total' may now be missing"],
    ])
    expect(classes(withOutput(search, undefined))).toEqual([
      ['breaking', 'output_schema_removed', "tool 'search': no longer declares an output schema"],
    ])
  })

  it('a result field added or made required is not breaking', () => {
    const after = withOutput(search, {
      type: 'object',
      properties: { hits: { type: 'array' }, total: { type: 'integer' }, took: { type: 'number' } },
      required: ['total', 'hits'],
    })
    expect(classes(after)).toEqual([
      [
        'non-breaking',
        'output_field_made_required',
        "tool 'search': result field 'hits' is now always there",
      ],
      ['non-breaking', 'output_field_added', "tool 'search': result field 'took' was added"],
    ])
    const gained = diffContracts([toolContract(withOutput(search, undefined))], before)
    expect(gained.map((change) => change.kind)).toEqual(['output_schema_added'])
  })

  it('parameters are classified as diffTools does: an optional one added passes, a rename does not', () => {
    const schema = search.inputSchema as { properties: object; required: string[] }
    const optional = {
      ...search,
      inputSchema: { ...schema, properties: { ...schema.properties, year: { type: 'integer' } } },
    }
    expect(classes(optional)).toEqual([
      ['non-breaking', 'optional_parameter_added', "tool 'search': optional parameter 'year' was added"],
    ])
    const renamed = {
      ...search,
      inputSchema: {
        type: 'object',
        properties: { symbol: { type: 'string' }, limit: { type: ['integer', 'null'] } },
        required: ['symbol', 'token'],
      },
    }
    expect(classes(renamed)).toEqual([
      [
        'breaking',
        'parameter_renamed',
        "tool 'search': parameter 'gene' was removed and 'symbol' added with the same type: possibly renamed",
      ],
    ])
  })

  it('nothing changes between a contract and itself; diffTools still calls any output change behavioural', () => {
    expect(diffContracts(before, [toolContract({ ...search, description: 'x' })])).toEqual([])
    const after = withOutput(search, { type: 'object', properties: { hits: { type: 'string' } } })
    expect(diffTools([search], [after]).map((change) => change.kind)).toEqual(['output_schema_changed'])
  })
})
