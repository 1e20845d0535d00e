// The `x-mcp-header` rules of 2026-07-28: which parameters a tool mirrors into `Mcp-Param-*`
// headers (and which annotations make it invalid), the headers of a call, the server's check of
// them against the body, and the header value encoding shared with `Mcp-Name`.

import { describe, expect, test } from 'vitest'
import {
  decodeHeaderValue,
  encodeHeaderValue,
  findParamHeaders,
  paramHeaderMismatch,
  paramHeadersFor,
} from '../src/index.js'

const schema = {
  type: 'object',
  properties: {
    region: { type: 'string', 'x-mcp-header': 'Region' },
    limits: { type: 'object', properties: { max: { type: 'integer', 'x-mcp-header': 'Max' } } },
    dryRun: { type: 'boolean', 'x-mcp-header': 'Dry-Run' },
    query: { type: 'string' },
  },
}

describe('findParamHeaders', () => {
  test('finds annotated primitives through properties chains', () => {
    expect(findParamHeaders(schema)).toEqual({
      ok: true,
      headers: [
        { name: 'Region', path: ['region'], type: 'string' },
        { name: 'Max', path: ['limits', 'max'], type: 'integer' },
        { name: 'Dry-Run', path: ['dryRun'], type: 'boolean' },
      ],
    })
    expect(findParamHeaders({ type: 'object', properties: { a: { type: 'string' } } })).toEqual({
      ok: true,
      headers: [],
    })
  })

  test.each([
    [
      { type: 'object', properties: { a: { type: 'number', 'x-mcp-header': 'A' } } },
      /string, integer or boolean/,
    ],
    [{ type: 'object', properties: { a: { type: 'string', 'x-mcp-header': 'A B' } } }, /not an HTTP token/],
    [{ type: 'object', properties: { a: { type: 'string', 'x-mcp-header': '' } } }, /non-empty/],
    [
      {
        type: 'object',
        properties: {
          a: { type: 'string', 'x-mcp-header': 'X' },
          b: { type: 'string', 'x-mcp-header': 'x' },
        },
      },
      /used twice/,
    ],
    [
      {
        type: 'object',
        properties: { a: { type: 'array', items: { type: 'string', 'x-mcp-header': 'A' } } },
      },
      /under 'items'/,
    ],
    [
      { type: 'object', anyOf: [{ properties: { a: { type: 'string', 'x-mcp-header': 'A' } } }] },
      /under 'anyOf'/,
    ],
  ])('refuses invalid annotations: %j', (invalid, reason) => {
    const result = findParamHeaders(invalid)
    expect(result.ok).toBe(false)
    expect(result.ok === false && result.problem).toMatch(reason)
  })
})

describe('values', () => {
  test.each([
    ['us-west1', 'us-west1'],
    ['Hello, 世界', '=?base64?SGVsbG8sIOS4lueVjA==?='],
    [' padded ', '=?base64?IHBhZGRlZCA=?='],
    ['line1\nline2', '=?base64?bGluZTEKbGluZTI=?='],
    ['=?base64?literal?=', '=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?='],
  ])('encodes %j as the spec shows, and decodes it back', (value, encoded) => {
    expect(encodeHeaderValue(value)).toBe(encoded)
    expect(decodeHeaderValue(encoded)).toBe(value)
  })

  test('malformed base64 and control characters do not decode', () => {
    expect(decodeHeaderValue('=?base64?!!!?=')).toBeUndefined()
    expect(decodeHeaderValue('a\u0001b')).toBeUndefined()
  })

  test('headers for a call, and the server-side check', () => {
    const found = findParamHeaders(schema)
    if (!found.ok) throw new Error(found.problem)
    const args = { region: 'eu', limits: { max: 42 }, dryRun: false, query: 'q' }
    const headers = paramHeadersFor(found.headers, args)
    expect(headers).toEqual({ 'Mcp-Param-Region': 'eu', 'Mcp-Param-Max': '42', 'Mcp-Param-Dry-Run': 'false' })
    const lower = Object.fromEntries(
      Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]),
    )
    expect(paramHeaderMismatch(found.headers, args, (name) => lower[name])).toBeUndefined()
    expect(
      paramHeaderMismatch(found.headers, args, (name) => ({ ...lower, 'mcp-param-max': '42.0' })[name]),
    ).toBeUndefined()
    expect(
      paramHeaderMismatch(found.headers, args, (name) => ({ ...lower, 'mcp-param-region': 'us' })[name]),
    ).toMatch(/does not match/)
    expect(paramHeaderMismatch(found.headers, { query: 'q' }, (name) => lower[name])).toMatch(
      /present but the argument is not/,
    )
    expect(paramHeaderMismatch(found.headers, args, () => undefined)).toMatch(/is required/)
    expect(paramHeadersFor(found.headers, { region: null })).toEqual({})
  })
})
