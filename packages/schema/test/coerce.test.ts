import { describe, expect, it } from 'vitest'
import { coerceArguments } from '../src/index.js'

function coerceOne(value: string | string[], schema: unknown): unknown {
  return coerceArguments({ value }, { type: 'object', properties: { value: schema } }).value
}

describe('coerceArguments', () => {
  it('keeps string parameters exactly as given', () => {
    expect(
      coerceArguments(
        { pin: '000123', flag: 'true', none: 'null' },
        {
          properties: { pin: { type: 'string' }, flag: { type: 'string' }, none: { type: 'string' } },
        },
      ),
    ).toEqual({ pin: '000123', flag: 'true', none: 'null' })
  })

  it.each([
    ['42', 42],
    ['-7', -7],
    ['+7', 7],
    ['007', 7],
    ['9007199254740991', 9007199254740991],
  ])('reads integer %j as %j', (text, expected) => {
    expect(coerceOne(text, { type: 'integer' })).toBe(expected)
  })

  it.each(['1.5', '1e3', '', ' 1', '0x10', 'abc', '9007199254740993', 'Infinity'])(
    'leaves %j alone for an integer',
    (text) => {
      expect(coerceOne(text, { type: 'integer' })).toBe(text)
    },
  )

  it.each([
    ['1.5', 1.5],
    ['-0.25', -0.25],
    ['.5', 0.5],
    ['1e3', 1000],
    ['2E-2', 0.02],
    ['10', 10],
  ])('reads number %j as %j', (text, expected) => {
    expect(coerceOne(text, { type: 'number' })).toBe(expected)
  })

  it.each(['', 'Infinity', '-Infinity', 'NaN', '0x10', '1e999', '1,5', 'one', '1.2.3'])(
    'leaves %j alone for a number',
    (text) => {
      expect(coerceOne(text, { type: 'number' })).toBe(text)
    },
  )

  it.each([
    ['true', true],
    ['TRUE', true],
    ['False', false],
    ['1', true],
    ['0', false],
  ])('reads boolean %j as %j', (text, expected) => {
    expect(coerceOne(text, { type: 'boolean' })).toBe(expected)
  })

  it.each(['yes', 'no', '2', ''])('leaves %j alone for a boolean', (text) => {
    expect(coerceOne(text, { type: 'boolean' })).toBe(text)
  })

  it('reads null only from "null"', () => {
    expect(coerceOne('null', { type: 'null' })).toBeNull()
    expect(coerceOne('NULL', { type: 'null' })).toBe('NULL')
  })

  it('reads a repeated key as an array, each element coerced by items', () => {
    expect(coerceOne(['1', '2', 'x'], { type: 'array', items: { type: 'integer' } })).toEqual([1, 2, 'x'])
    expect(coerceOne(['1', '2'], { type: 'array' })).toEqual(['1', '2'])
  })

  it('coerces elements by prefixItems, then items', () => {
    const schema = {
      type: 'array',
      prefixItems: [{ type: 'string' }, { type: 'boolean' }],
      items: { type: 'number' },
    }
    expect(coerceOne(['01', '1', '2.5', '3'], schema)).toEqual(['01', true, 2.5, 3])
  })

  it('coerces elements by a draft-07 tuple items and additionalItems', () => {
    const schema = { type: 'array', items: [{ type: 'integer' }], additionalItems: { type: 'boolean' } }
    expect(coerceOne(['1', 'true', 'false'], schema)).toEqual([1, true, false])
  })

  it('reads a JSON array literal as that array, keeping its JSON values', () => {
    expect(coerceOne('[1, "2", {"a": true}]', { type: 'array', items: { type: 'integer' } })).toEqual([
      1,
      '2',
      { a: true },
    ])
  })

  it('reads a single value as a one-element array', () => {
    expect(coerceOne('5', { type: 'array', items: { type: 'integer' } })).toEqual([5])
    expect(coerceOne('[oops', { type: 'array', items: { type: 'string' } })).toEqual(['[oops'])
  })

  it('reads a JSON object for an object parameter', () => {
    expect(coerceOne('{"a": [1, 2], "b": null}', { type: 'object' })).toEqual({ a: [1, 2], b: null })
    expect(coerceOne('[1]', { type: 'object' })).toBe('[1]')
    expect(coerceOne('{oops', { type: 'object' })).toBe('{oops')
    expect(coerceOne('null', { type: 'object' })).toBe('null')
  })

  it('tries multiple types in a fixed order: null, boolean, integer, number, object, array, string', () => {
    expect(coerceOne('null', { type: ['integer', 'null'] })).toBeNull()
    expect(coerceOne('5', { type: ['integer', 'null'] })).toBe(5)
    expect(coerceOne('1', { type: ['integer', 'boolean'] })).toBe(true)
    expect(coerceOne('1.5', { type: ['number', 'integer'] })).toBe(1.5)
    expect(coerceOne('{"a":1}', { type: ['string', 'object'] })).toEqual({ a: 1 })
    expect(coerceOne('abc', { type: ['integer', 'null'] })).toBe('abc')
  })

  it('keeps the string when a string type is allowed and nothing stricter matches', () => {
    expect(coerceOne('abc', { type: ['integer', 'string'] })).toBe('abc')
    expect(coerceOne('abc', { type: ['array', 'string'] })).toBe('abc')
    expect(coerceOne('[1]', { type: ['array', 'string'] })).toEqual([1])
  })

  it('uses anyOf and oneOf members as candidates, with their own items', () => {
    const optionalList = { anyOf: [{ type: 'array', items: { type: 'integer' } }, { type: 'null' }] }
    expect(coerceOne(['1', '2'], optionalList)).toEqual([1, 2])
    expect(coerceOne('null', optionalList)).toBeNull()
    expect(coerceOne('3', optionalList)).toEqual([3])
    expect(coerceOne('2.5', { oneOf: [{ type: 'integer' }, { type: 'number' }] })).toBe(2.5)
    expect(coerceOne('x', { anyOf: [{ type: 'integer' }, { type: 'string' }] })).toBe('x')
  })

  it('resolves local $ref to $defs, definitions and the root', () => {
    const schema = {
      type: 'object',
      $defs: { count: { type: 'integer' } },
      definitions: { flag: { $ref: '#/$defs/flag' } },
      properties: {
        count: { $ref: '#/$defs/count' },
        flag: { $ref: '#/definitions/flag' },
        root: { $ref: '#' },
        list: { type: 'array', items: { $ref: '#/$defs/count' } },
      },
    }
    ;(schema.$defs as Record<string, unknown>).flag = { type: 'boolean' }
    expect(
      coerceArguments({ count: '3', flag: 'false', root: '{"count": 1}', list: ['4', '5'] }, schema),
    ).toEqual({ count: 3, flag: false, root: { count: 1 }, list: [4, 5] })
  })

  it('leaves unknown parameters and untyped schemas as given', () => {
    const schema = { properties: { any: {}, described: { description: 'x' }, enumerated: { enum: [1, 2] } } }
    expect(
      coerceArguments({ any: '1', described: '2', enumerated: '1', other: '3', list: ['4'] }, schema),
    ).toEqual({
      any: '1',
      described: '2',
      enumerated: '1',
      other: '3',
      list: ['4'],
    })
  })

  it('leaves a repeated key for a non-array parameter as given', () => {
    expect(coerceOne(['1', '2'], { type: 'integer' })).toEqual(['1', '2'])
  })

  it('returns the strings unchanged with raw: true', () => {
    const strings = { count: '5', tags: ['1'] }
    const schema = {
      properties: { count: { type: 'integer' }, tags: { type: 'array', items: { type: 'integer' } } },
    }
    expect(coerceArguments(strings, schema, { raw: true })).toEqual(strings)
    expect(coerceArguments(strings, schema)).toEqual({ count: 5, tags: [1] })
  })

  it('returns a new plain object', () => {
    const strings = { a: '1' }
    const result = coerceArguments(strings, { properties: { a: { type: 'integer' } } })
    expect(result).not.toBe(strings)
    expect(strings).toEqual({ a: '1' })
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype)
  })
})

describe('coerceArguments with hostile input', () => {
  it('does not loop on recursive $ref', () => {
    const schema = {
      $defs: {
        loop: { $ref: '#/$defs/loop' },
        pair: { anyOf: [{ $ref: '#/$defs/pair' }, { $ref: '#/$defs/pair' }, { type: 'integer' }] },
        nested: { type: 'array', items: { $ref: '#/$defs/nested' } },
      },
      properties: {
        loop: { $ref: '#/$defs/loop' },
        pair: { $ref: '#/$defs/pair' },
        nested: { $ref: '#/$defs/nested' },
        root: { $ref: '#' },
      },
    }
    const result = coerceArguments({ loop: '1', pair: '2', nested: '3', root: '4' }, schema)
    expect(result.loop).toBe('1')
    expect(result.pair).toBe(2)
    expect(result.root).toBe('4')
    // Each level of a recursive array schema wraps once, up to the depth guard.
    let nested = result.nested
    let levels = 0
    while (Array.isArray(nested)) {
      nested = nested[0]
      levels += 1
    }
    expect(nested).toBe('3')
    expect(levels).toBeGreaterThan(1)
    expect(levels).toBeLessThan(100)
  })

  it('handles a huge enum and a huge anyOf quickly', () => {
    const values = Array.from({ length: 100_000 }, (_, index) => `v${index}`)
    const members = Array.from({ length: 100_000 }, () => ({ type: 'integer' }))
    const started = performance.now()
    expect(
      coerceArguments(
        { mode: 'v5', count: '7' },
        {
          properties: { mode: { type: 'string', enum: values }, count: { anyOf: members } },
        },
      ),
    ).toEqual({ mode: 'v5', count: 7 })
    expect(performance.now() - started).toBeLessThan(2000)
  })

  it.each([
    null,
    undefined,
    42,
    'schema',
    [],
    [{ type: 'integer' }],
    { properties: null },
    { properties: [1] },
    true,
  ])('leaves values as given for the garbage schema %j', (schema) => {
    expect(coerceArguments({ a: '1', b: ['2'] }, schema)).toEqual({ a: '1', b: ['2'] })
  })

  it('does not throw for garbage inside properties', () => {
    const schema = {
      properties: {
        a: { type: 42 },
        b: { type: [] },
        c: { anyOf: 'x', oneOf: [null, 1, []] },
        d: { $ref: 12 },
        e: { $ref: '#/properties/e/items/0' },
        f: { type: 'nope' },
        g: null,
        h: { type: 'array', items: 'nope' },
      },
    }
    const strings = { a: '1', b: '1', c: '1', d: '1', e: '1', f: '1', g: '1', h: ['1'] }
    expect(coerceArguments(strings, schema)).toEqual(strings)
  })

  it('returns an empty object when the strings are not a record', () => {
    expect(coerceArguments(null as unknown as Record<string, string>, {})).toEqual({})
    expect(coerceArguments(['a'] as unknown as Record<string, string>, {})).toEqual({})
  })

  it('does not pollute prototypes through __proto__ or constructor keys', () => {
    const strings = JSON.parse('{"__proto__": "{\\"polluted\\": true}", "constructor": "1"}') as Record<
      string,
      string
    >
    const schema = JSON.parse(
      '{"properties": {"__proto__": {"type": "object"}, "constructor": {"type": "integer"}}}',
    ) as unknown
    const result = coerceArguments(strings, schema)
    expect(Object.keys(result)).toEqual(['__proto__', 'constructor'])
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype)
    expect(Object.getOwnPropertyDescriptor(result, '__proto__')?.value).toEqual({ polluted: true })
    expect(Object.getOwnPropertyDescriptor(result, 'constructor')?.value).toBe(1)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()

    // A parameter the schema does not declare must not pick up Object.prototype's members.
    const undeclared = coerceArguments({ constructor: '1', toString: '2' }, { properties: {} })
    expect(undeclared).toEqual({ constructor: '1', toString: '2' })
    const objectValue = coerceArguments(
      { x: '{"__proto__": {"polluted": true}}' },
      { properties: { x: { type: 'object' } } },
    )
    expect(Object.getPrototypeOf(objectValue.x)).toBe(Object.prototype)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })
})
