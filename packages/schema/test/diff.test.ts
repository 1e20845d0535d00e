import { describe, expect, it } from 'vitest'
import {
  diffTools,
  hasBreakingChanges,
  summarizeChanges,
  type ToolChange,
  type ToolLike,
} from '../src/index.js'

function tool(
  name: string,
  properties: Record<string, unknown>,
  required: string[] = [],
  extra = {},
): ToolLike {
  return { name, inputSchema: { type: 'object', properties, required }, ...extra }
}

const search = tool('search', { gene: { type: 'string' }, limit: { type: 'integer' } }, ['gene'])

function only(changes: ToolChange[]): ToolChange {
  expect(changes).toHaveLength(1)
  return changes[0]!
}

describe('diffTools', () => {
  it('finds no changes between equal lists, whatever the order', () => {
    const other = tool('other', {})
    expect(diffTools([search, other], [other, structuredClone(search)])).toEqual([])
  })

  it('reports a removed tool as breaking', () => {
    const other = tool('other', { x: { type: 'string' } })
    expect(only(diffTools([search, other], [search]))).toEqual({
      class: 'breaking',
      kind: 'tool_removed',
      tool: 'other',
      message: "tool 'other' was removed",
    })
  })

  it('reports an added tool as non-breaking', () => {
    expect(only(diffTools([], [search]))).toEqual({
      class: 'non-breaking',
      kind: 'tool_added',
      tool: 'search',
      message: "tool 'search' was added",
    })
  })

  it('reports a removed and an added tool with identical parameters as one possible rename', () => {
    const renamed = { ...structuredClone(search), name: 'find', description: 'new words' }
    const change = only(diffTools([search], [renamed]))
    expect(change).toMatchObject({
      class: 'breaking',
      kind: 'tool_renamed',
      tool: 'search',
      renamedTo: 'find',
    })
    expect(change.message).toContain('possibly renamed')
    expect(change.message).toContain("'search'")
    expect(change.message).toContain("'find'")
  })

  it('does not call it a rename when the parameters differ', () => {
    const different = tool('find', { gene: { type: 'string' } }, ['gene'])
    expect(diffTools([search], [different]).map((change) => change.kind)).toEqual([
      'tool_added',
      'tool_removed',
    ])
  })

  it('reports a new required parameter as breaking and a new optional one as non-breaking', () => {
    const after = tool(
      'search',
      { ...propertiesOf(search), species: { type: 'string' }, page: { type: 'integer' } },
      ['gene', 'species'],
    )
    expect(diffTools([search], [after])).toEqual([
      {
        class: 'non-breaking',
        kind: 'optional_parameter_added',
        tool: 'search',
        parameter: 'page',
        message: "tool 'search': optional parameter 'page' was added",
      },
      {
        class: 'breaking',
        kind: 'required_parameter_added',
        tool: 'search',
        parameter: 'species',
        message: "tool 'search': required parameter 'species' was added",
      },
    ])
  })

  it('reports a removed parameter as breaking, naming whether it was required', () => {
    const after = tool('search', { limit: { type: 'integer' } }, [])
    expect(only(diffTools([search], [after]))).toEqual({
      class: 'breaking',
      kind: 'parameter_removed',
      tool: 'search',
      parameter: 'gene',
      message: "tool 'search': required parameter 'gene' was removed",
    })
    const withoutLimit = tool('search', { gene: { type: 'string' } }, ['gene'])
    expect(only(diffTools([search], [withoutLimit])).message).toBe(
      "tool 'search': optional parameter 'limit' was removed",
    )
  })

  it('reports a removed and an added parameter of the same type as one possible rename', () => {
    const after = tool('search', { symbol: { type: 'string' }, limit: { type: 'integer' } }, ['symbol'])
    const change = only(diffTools([search], [after]))
    expect(change).toMatchObject({
      class: 'breaking',
      kind: 'parameter_renamed',
      tool: 'search',
      parameter: 'gene',
      renamedTo: 'symbol',
    })
    expect(change.message).toBe(
      "tool 'search': parameter 'gene' was removed and 'symbol' added with the same type: possibly renamed",
    )
  })

  it('reports a parameter type change as breaking with both types', () => {
    const after = tool('search', { gene: { type: 'string' }, limit: { type: ['integer', 'null'] } }, ['gene'])
    expect(only(diffTools([search], [after]))).toEqual({
      class: 'breaking',
      kind: 'parameter_type_changed',
      tool: 'search',
      parameter: 'limit',
      before: 'integer',
      after: ['integer', 'null'],
      message: "tool 'search': parameter 'limit' changed type from integer to integer or null",
    })
  })

  it('reports a parameter made required as breaking and the reverse as non-breaking', () => {
    const stricter = tool('search', propertiesOf(search), ['gene', 'limit'])
    expect(only(diffTools([search], [stricter]))).toEqual({
      class: 'breaking',
      kind: 'parameter_made_required',
      tool: 'search',
      parameter: 'limit',
      message: "tool 'search': parameter 'limit' is now required",
    })
    expect(only(diffTools([stricter], [search]))).toEqual({
      class: 'non-breaking',
      kind: 'requirement_relaxed',
      tool: 'search',
      parameter: 'limit',
      message: "tool 'search': parameter 'limit' is no longer required",
    })
  })

  it('reports tool and parameter description and title changes as non-breaking', () => {
    const before = tool('search', { gene: { type: 'string', description: 'old' } }, [], { description: 'a' })
    const after = tool('search', { gene: { type: 'string', description: 'new', title: 'Gene' } }, [], {
      description: 'b',
      title: 'Search',
    })
    expect(diffTools([before], [after])).toEqual([
      {
        class: 'non-breaking',
        kind: 'description_changed',
        tool: 'search',
        before: 'a',
        after: 'b',
        message: "tool 'search': description changed",
      },
      {
        class: 'non-breaking',
        kind: 'description_changed',
        tool: 'search',
        before: undefined,
        after: 'Search',
        message: "tool 'search': title changed",
      },
      {
        class: 'non-breaking',
        kind: 'description_changed',
        tool: 'search',
        parameter: 'gene',
        before: 'old',
        after: 'new',
        message: "tool 'search': parameter 'gene' description changed",
      },
      {
        class: 'non-breaking',
        kind: 'description_changed',
        tool: 'search',
        parameter: 'gene',
        before: undefined,
        after: 'Gene',
        message: "tool 'search': parameter 'gene' title changed",
      },
    ])
  })

  it('reports output schema and annotation changes as behavioural, ignoring key order', () => {
    const before = {
      ...search,
      outputSchema: { type: 'object', properties: { hits: { type: 'array' } } },
      annotations: { readOnlyHint: true, idempotentHint: true },
    }
    const reordered = {
      ...search,
      outputSchema: { properties: { hits: { type: 'array' } }, type: 'object' },
      annotations: { idempotentHint: true, readOnlyHint: true },
    }
    expect(diffTools([before], [reordered])).toEqual([])

    const after = {
      ...search,
      outputSchema: { type: 'object', properties: { hits: { type: 'object' } } },
      annotations: { readOnlyHint: false, idempotentHint: true },
    }
    const changes = diffTools([before], [after])
    expect(changes.map(({ class: changeClass, kind, message }) => ({ changeClass, kind, message }))).toEqual([
      {
        changeClass: 'behavioural',
        kind: 'annotations_changed',
        message: "tool 'search': annotations changed",
      },
      {
        changeClass: 'behavioural',
        kind: 'output_schema_changed',
        message: "tool 'search': output schema changed",
      },
    ])
    expect(changes[0]!.before).toEqual(before.annotations)
    expect(changes[0]!.after).toEqual(after.annotations)
  })

  it('sorts by tool, then parameter, then kind', () => {
    const before = [
      tool('b', { x: { type: 'string' } }),
      tool('a', { y: { type: 'string' }, z: { type: 'string' } }),
    ]
    const after = [
      tool('b', { x: { type: 'number' } }, ['x']),
      tool('a', { y: { type: 'integer' }, z: { type: 'string' } }, ['z']),
      tool('c', {}),
    ]
    expect(diffTools(before, after).map((change) => [change.tool, change.parameter, change.kind])).toEqual([
      ['a', 'y', 'parameter_type_changed'],
      ['a', 'z', 'parameter_made_required'],
      ['b', 'x', 'parameter_made_required'],
      ['b', 'x', 'parameter_type_changed'],
      ['c', undefined, 'tool_added'],
    ])
  })

  it('treats a required name without a property schema as a parameter', () => {
    const after = tool('search', propertiesOf(search), ['gene', 'token'])
    expect(only(diffTools([search], [after]))).toMatchObject({
      kind: 'required_parameter_added',
      parameter: 'token',
    })
  })

  it('tolerates garbage tools and schemas', () => {
    const garbage = [null, 1, { name: 'x', inputSchema: 'nope' }] as unknown as ToolLike[]
    expect(diffTools(garbage, [{ name: 'x' }])).toEqual([])
  })
})

describe('summarizeChanges and hasBreakingChanges', () => {
  it('counts each class', () => {
    const before = [search, tool('gone', { a: { type: 'string' } })]
    const after = [
      {
        ...tool('search', propertiesOf(search), ['gene']),
        description: 'new',
        annotations: { readOnlyHint: true },
      },
      tool('new', {}),
    ]
    const changes = diffTools(before, after)
    expect(summarizeChanges(changes)).toEqual({ breaking: 1, nonBreaking: 2, behavioural: 1 })
    expect(hasBreakingChanges(changes)).toBe(true)
  })

  it('says there are no breaking changes when only additions happened', () => {
    const changes = diffTools([search], [search, tool('new', { a: { type: 'string' } })])
    expect(summarizeChanges(changes)).toEqual({ breaking: 0, nonBreaking: 1, behavioural: 0 })
    expect(hasBreakingChanges(changes)).toBe(false)
    expect(hasBreakingChanges([])).toBe(false)
  })
})

function propertiesOf(value: ToolLike): Record<string, unknown> {
  return structuredClone((value.inputSchema as { properties: Record<string, unknown> }).properties)
}
