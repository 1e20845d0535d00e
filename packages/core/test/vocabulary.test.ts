// What the shared values promise their users: each revision in exactly one era, the named codes
// distinct, and the Mcp-Name table answering only for its own methods.
import { expect, it } from 'vitest'
import {
  isKitError,
  isLegacyVersion,
  isModernVersion,
  isRecord,
  KitError,
  latestLegacyVersion,
  legacyProtocolVersions,
  mcpNameField,
  modernProtocolVersions,
  protocolVersions,
  rpcCodes,
} from '../src/index.js'

it('puts every revision in exactly one era, newest first within each', () => {
  for (const version of protocolVersions)
    expect(isLegacyVersion(version) !== isModernVersion(version)).toBe(true)
  expect(protocolVersions).toHaveLength(legacyProtocolVersions.length + modernProtocolVersions.length)
  expect([...legacyProtocolVersions].sort().reverse()).toEqual([...legacyProtocolVersions])
  expect(latestLegacyVersion).toBe(legacyProtocolVersions[0])
  expect(isLegacyVersion('2099-01-01')).toBe(false)
  expect(isModernVersion('2099-01-01')).toBe(false)
})

it('gives each JSON-RPC code one name', () => {
  const codes = Object.values(rpcCodes)
  expect(new Set(codes).size).toBe(codes.length)
})

it('names the param Mcp-Name mirrors, for its methods only', () => {
  expect(mcpNameField('tools/call')).toBe('name')
  expect(mcpNameField('resources/read')).toBe('uri')
  expect(mcpNameField('tasks/cancel')).toBe('taskId')
  expect(mcpNameField('tools/list')).toBeUndefined()
  expect(mcpNameField('toString')).toBeUndefined()
})

it('takes a JSON object, not an array or null, for a record', () => {
  expect(isRecord({})).toBe(true)
  expect(isRecord([])).toBe(false)
  expect(isRecord(null)).toBe(false)
  expect(isRecord('x')).toBe(false)
})

it('recognises an mcp-kit error by its brand, from another copy too, and by class name when asked', () => {
  class SchemaError extends KitError<'invalid_schema'> {
    override readonly name = 'SchemaError'
  }
  const error = new SchemaError('invalid_schema', 'bad', { details: { at: 'x' }, cause: 'why' })
  expect([error.code, error.message, error.details, error.cause]).toEqual([
    'invalid_schema',
    'bad',
    { at: 'x' },
    'why',
  ])
  expect(isKitError(error)).toBe(true)
  expect(isKitError(error, 'SchemaError')).toBe(true)
  expect(isKitError(error, 'ClientError')).toBe(false)
  // An error of another copy of a package (or an older version) carries the same registered symbol.
  const foreign = Object.assign(new Error('x'), { name: 'ClientError', [Symbol.for('mcp-kit.error')]: true })
  expect(isKitError(foreign, 'ClientError')).toBe(true)
  expect(isKitError(new Error('plain'))).toBe(false)
  expect(isKitError({ name: 'SchemaError' }, 'SchemaError')).toBe(false)
})
