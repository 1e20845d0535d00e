import { describe, expect, it } from 'vitest'
import { SchemaError } from '../src/index.js'

describe('SchemaError', () => {
  it('carries a code, a message, details and a cause', () => {
    const cause = new Error('ajv said no')
    const error = new SchemaError('invalid_schema', 'invalid input schema: no', {
      details: { reason: 'no' },
      cause,
    })
    expect(error).toBeInstanceOf(Error)
    expect(error.name).toBe('SchemaError')
    expect(error.code).toBe('invalid_schema')
    expect(error.message).toBe('invalid input schema: no')
    expect(error.details).toEqual({ reason: 'no' })
    expect(error.cause).toBe(cause)
  })

  it('leaves cause and details unset when not given', () => {
    const error = new SchemaError('invalid_arguments', 'count: must be an integer')
    expect('cause' in error).toBe(false)
    expect(error.details).toBeUndefined()
  })

  it('recognises instances from another copy of the package by brand', () => {
    const foreign = Object.assign(new Error('x'), {
      name: 'SchemaError',
      [Symbol.for('mcp-kit.error')]: true,
    })
    expect(SchemaError.isInstance(foreign)).toBe(true)
    expect(SchemaError.isInstance(new SchemaError('invalid_schema', 'x'))).toBe(true)
    expect(SchemaError.isInstance(new Error('x'))).toBe(false)
    expect(SchemaError.isInstance({ name: 'SchemaError' })).toBe(false)
    expect(SchemaError.isInstance(null)).toBe(false)
    const otherFamily = Object.assign(new Error('x'), {
      name: 'ProfileError',
      [Symbol.for('mcp-kit.error')]: true,
    })
    expect(SchemaError.isInstance(otherFamily)).toBe(false)
  })
})
