import { describe, expect, it } from 'vitest'
import {
  type ArgumentProblem,
  formatProblems,
  SchemaError,
  type ValidationResult,
  validateArguments,
} from '../src/index.js'
// Not exported: the cache's counters, for this test.
import { validatorCacheStats } from '../src/validate.js'

function problems(result: ValidationResult): ArgumentProblem[] {
  if (result.ok) throw new Error('expected validation to fail')
  return result.errors
}

const echo = {
  type: 'object',
  properties: {
    message: { type: 'string' },
    count: { type: 'integer' },
    mode: { enum: ['a', 'b', 'c'] },
  },
  required: ['message'],
  additionalProperties: false,
}

describe('validateArguments', () => {
  it('accepts valid arguments', () => {
    expect(validateArguments({ message: 'hi', count: 2, mode: 'a' }, echo)).toEqual({ ok: true })
  })

  it('lists every problem with its parameter path in plain words', () => {
    const found = problems(validateArguments({ count: 'abc', mode: 'z', foo: 1 }, echo))
    expect(found).toEqual([
      { path: 'message', keyword: 'required', message: "missing required parameter 'message'" },
      { path: 'foo', keyword: 'additionalProperties', message: "unknown parameter 'foo'" },
      { path: 'count', keyword: 'type', message: 'must be an integer (got "abc")' },
      { path: 'mode', keyword: 'enum', message: 'must be one of "a", "b", "c"' },
    ])
    expect(formatProblems(found)).toBe(
      [
        "missing required parameter 'message'",
        "unknown parameter 'foo'",
        'count: must be an integer (got "abc")',
        'mode: must be one of "a", "b", "c"',
      ].join('\n'),
    )
  })

  it('names nested paths with indexes', () => {
    const schema = {
      type: 'object',
      properties: {
        items: {
          type: 'array',
          items: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
        },
        filter: { type: 'object', properties: { 'odd key': { type: 'number' } } },
      },
    }
    const found = problems(
      validateArguments(
        { items: [{ name: 'a' }, { name: 'b' }, { name: 3 }, {}], filter: { 'odd key': 'x' } },
        schema,
      ),
    )
    expect(found.map((problem) => `${problem.path} | ${problem.message}`)).toEqual([
      'items[2].name | must be a string (got 3)',
      "items[3].name | missing required parameter 'name'",
      'filter["odd key"] | must be a number (got "x")',
    ])
  })

  it('reports a wrong arguments value as a whole with an empty path', () => {
    const found = problems(validateArguments([], echo))
    expect(found).toEqual([{ path: '', keyword: 'type', message: 'must be an object (got [])' }])
    expect(formatProblems(found)).toBe('must be an object (got [])')
  })

  it('words multiple types and optional anyOf values as one problem', () => {
    const schema = {
      type: 'object',
      properties: {
        limit: { type: ['integer', 'null'] },
        page: { anyOf: [{ type: 'integer' }, { type: 'null' }] },
      },
    }
    expect(problems(validateArguments({ limit: 'x', page: 1.5 }, schema))).toEqual([
      { path: 'page', keyword: 'anyOf', message: 'must be an integer or null (got 1.5)' },
      { path: 'limit', keyword: 'type', message: 'must be an integer or null (got "x")' },
    ])
  })

  it('keeps branch details for other anyOf failures', () => {
    const schema = {
      type: 'object',
      properties: { target: { anyOf: [{ type: 'string', minLength: 3 }, { type: 'integer' }] } },
    }
    const found = problems(validateArguments({ target: 'ab' }, schema))
    expect(found.map((problem) => problem.keyword)).toEqual(['minLength', 'type', 'anyOf'])
    expect(found.at(-1)).toEqual({
      path: 'target',
      keyword: 'anyOf',
      message: 'must match at least one of the allowed schemas',
    })
  })

  it('words a titled enum (oneOf/anyOf of const) as its values and titles, not one problem per branch', () => {
    const schema = {
      type: 'object',
      properties: {
        size: {
          type: 'string',
          oneOf: [
            { const: 's', title: 'Small' },
            { const: 'l', title: 'Large' },
          ],
        },
        shade: { anyOf: [{ const: 1, title: 'Dark' }, { const: 2 }] },
      },
    }
    expect(problems(validateArguments({ size: 'm', shade: 3 }, schema))).toEqual([
      { path: 'size', keyword: 'oneOf', message: 'must be one of "s" (Small), "l" (Large) (got "m")' },
      { path: 'shade', keyword: 'anyOf', message: 'must be one of 1 (Dark), 2 (got 3)' },
    ])
    expect(formatProblems(problems(validateArguments({ size: 'm' }, schema)))).toBe(
      'size: must be one of "s" (Small), "l" (Large) (got "m")',
    )
  })

  it('words const, format and other keywords', () => {
    const schema = {
      type: 'object',
      properties: {
        kind: { const: 'x' },
        email: { type: 'string', format: 'email' },
        size: { type: 'integer', minimum: 1 },
      },
    }
    expect(problems(validateArguments({ kind: 'y', email: 'nope', size: 0 }, schema))).toEqual([
      { path: 'kind', keyword: 'const', message: 'must be "x"' },
      { path: 'email', keyword: 'format', message: 'must be a valid email (got "nope")' },
      { path: 'size', keyword: 'minimum', message: 'must be >= 1' },
    ])
  })

  it('truncates huge enums in the message and still validates them', () => {
    const values = Array.from({ length: 100_000 }, (_, index) => `v${index}`)
    const schema = { type: 'object', properties: { mode: { enum: values } } }
    expect(validateArguments({ mode: 'v99999' }, schema)).toEqual({ ok: true })
    const [problem] = problems(validateArguments({ mode: 'x' }, schema))
    expect(problem?.message).toBe(
      'must be one of "v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v9" … and 99990 more',
    )
  })

  it('validates recursive $ref schemas', () => {
    const schema = {
      $defs: {
        node: {
          type: 'object',
          properties: {
            value: { type: 'integer' },
            children: { type: 'array', items: { $ref: '#/$defs/node' } },
          },
        },
      },
      $ref: '#/$defs/node',
    }
    expect(validateArguments({ value: 1, children: [{ value: 2, children: [] }] }, schema)).toEqual({
      ok: true,
    })
    expect(problems(validateArguments({ children: [{ children: [{ value: 'x' }] }] }, schema))).toEqual([
      { path: 'children[0].children[0].value', keyword: 'type', message: 'must be an integer (got "x")' },
    ])
  })

  it('uses 2020-12 by default (prefixItems)', () => {
    const schema = {
      type: 'object',
      properties: { pair: { type: 'array', prefixItems: [{ type: 'string' }] } },
    }
    expect(problems(validateArguments({ pair: [1] }, schema))[0]?.path).toBe('pair[0]')
  })

  it('uses draft-07 when $schema names draft-07, 06 or 04 (tuple items)', () => {
    for (const $schema of [
      'http://json-schema.org/draft-07/schema#',
      'http://json-schema.org/draft-06/schema#',
      'http://json-schema.org/draft-04/schema#',
    ]) {
      const schema = {
        $schema,
        type: 'object',
        properties: { pair: { type: 'array', items: [{ type: 'string' }] } },
      }
      expect(problems(validateArguments({ pair: [1] }, schema))[0]?.path).toBe('pair[0]')
    }
  })

  it('uses 2019-09 when $schema names it', () => {
    const schema = {
      $schema: 'https://json-schema.org/draft/2019-09/schema',
      type: 'object',
      properties: { a: { type: 'string' } },
      unevaluatedProperties: false,
    }
    expect(problems(validateArguments({ b: 1 }, schema))).toEqual([
      { path: 'b', keyword: 'unevaluatedProperties', message: "unknown parameter 'b'" },
    ])
  })

  it('accepts boolean schemas', () => {
    expect(validateArguments({ anything: 1 }, true)).toEqual({ ok: true })
    expect(problems(validateArguments({}, false))[0]?.keyword).toBe('false schema')
  })

  it('ignores unknown keywords and formats without printing warnings', () => {
    const schema = { type: 'object', properties: { a: { type: 'string', format: 'gene-symbol', 'x-ui': 1 } } }
    expect(validateArguments({ a: 'BRAF' }, schema)).toEqual({ ok: true })
  })

  it('allows two different schemas to use the same $id', () => {
    const first = { $id: 'https://example.com/args', type: 'object', properties: { a: { type: 'string' } } }
    const second = { $id: 'https://example.com/args', type: 'object', properties: { a: { type: 'integer' } } }
    expect(validateArguments({ a: 'x' }, first)).toEqual({ ok: true })
    expect(validateArguments({ a: 1 }, second)).toEqual({ ok: true })
  })
})

describe('validateArguments with invalid schemas', () => {
  it.each([
    [{ type: 'nope' }, /invalid input schema: .*type/],
    [{ $ref: '#/$defs/missing' }, /invalid input schema: can't resolve reference #\/\$defs\/missing/],
    [{ $ref: 'https://example.com/remote.json' }, /invalid input schema: can't resolve reference/],
    [{ type: 'string', pattern: '(' }, /invalid input schema: .*regular expression/i],
    [null, /invalid input schema: must be a JSON Schema object or boolean, got null/],
    [42, /got number/],
    [[{ type: 'string' }], /got an array/],
    [undefined, /got undefined/],
  ])('throws SchemaError invalid_schema for %j', (schema, message) => {
    let thrown: unknown
    try {
      validateArguments({}, schema)
    } catch (error) {
      thrown = error
    }
    expect(SchemaError.isInstance(thrown)).toBe(true)
    expect((thrown as SchemaError).code).toBe('invalid_schema')
    expect((thrown as SchemaError).message).toMatch(message)
  })

  it('keeps failing the same way for the same invalid schema', () => {
    const schema = { type: 'nope' }
    expect(() => validateArguments({}, schema)).toThrow(SchemaError)
    expect(() => validateArguments({}, schema)).toThrow(SchemaError)
  })
})

describe('validator cache', () => {
  it('compiles a schema once, by identity and then by equal content', () => {
    const schema = { type: 'object', properties: { unique: { type: 'string', maxLength: 7 } } }
    const before = validatorCacheStats().compilations
    validateArguments({ unique: 'x' }, schema)
    expect(validatorCacheStats().compilations).toBe(before + 1)
    validateArguments({ unique: 'y' }, schema)
    // A fresh but equal object, even with its keys in another order, reuses the compiled validator.
    const equal = { properties: { unique: { maxLength: 7, type: 'string' } }, type: 'object' }
    expect(problems(validateArguments({ unique: 'too long!' }, equal))[0]?.keyword).toBe('maxLength')
    expect(validatorCacheStats().compilations).toBe(before + 1)
    validateArguments({}, { ...equal, required: [] })
    expect(validatorCacheStats().compilations).toBe(before + 2)
  })

  it('stays bounded', () => {
    for (let index = 0; index < 600; index += 1) {
      validateArguments({}, { type: 'object', properties: { [`p${index}`]: { type: 'string' } } })
    }
    expect(validatorCacheStats().cachedValidators).toBe(500)
  })
})

describe('formatProblems', () => {
  it('prints one line per problem', () => {
    expect(
      formatProblems([
        { path: 'a', message: 'must be a string (got 1)', keyword: 'type' },
        { path: '', message: 'must be an object (got 1)', keyword: 'type' },
      ]),
    ).toBe('a: must be a string (got 1)\nmust be an object (got 1)')
    expect(
      formatProblems([
        { path: 'items[2].name', message: "missing required parameter 'name'", keyword: 'required' },
        { path: 'options.extra', message: "unknown parameter 'extra'", keyword: 'additionalProperties' },
        { path: 'list[0]', message: 'must be a string (got 1)', keyword: 'type' },
      ]),
    ).toBe(
      "items[2]: missing required parameter 'name'\noptions: unknown parameter 'extra'\nlist[0]: must be a string (got 1)",
    )
    expect(formatProblems([])).toBe('')
  })
})

describe('validateArguments with schemas that loop or promise', () => {
  it.each([
    { $ref: '#' },
    { anyOf: [{ $ref: '#' }] },
    { $defs: { a: { $ref: '#/$defs/b' }, b: { $ref: '#/$defs/a' } }, $ref: '#/$defs/a' },
  ])('throws SchemaError invalid_schema for the endless %j', (schema) => {
    expect(() => validateArguments({}, schema)).toThrow(
      expect.objectContaining({ name: 'SchemaError', code: 'invalid_schema' }),
    )
  })

  it('validates an $async schema synchronously', () => {
    const schema = { $async: true, type: 'object', properties: { a: { type: 'integer' } } }
    expect(problems(validateArguments({ a: 'x' }, schema))[0]?.keyword).toBe('type')
  })
})
