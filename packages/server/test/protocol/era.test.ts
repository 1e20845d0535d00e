// The era of a message, decided once where it arrives (protocol/era.ts): a `_meta` version
// claim or, over HTTP, a 2026 MCP-Protocol-Version makes a request 2026-07-28; everything else,
// and every response, belongs to a 2025 session.
import { describe, expect, test } from 'vitest'
import { claimsModern, eraOf } from '../../src/protocol/era.js'

const claim = { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } }

describe('eraOf', () => {
  test('a request or notification claiming a version in _meta is 2026-07-28, whatever the header', () => {
    expect(eraOf('request', claim)).toBe('modern')
    expect(eraOf('notification', claim)).toBe('modern')
    expect(eraOf('request', claim, '2025-11-25')).toBe('modern')
  })

  test('without the claim, a 2026 version header makes it 2026-07-28 (to be refused there for the envelope)', () => {
    expect(eraOf('request', {}, '2026-07-28')).toBe('modern')
    expect(eraOf('request', undefined, '2026-07-28')).toBe('modern')
    expect(eraOf('request', {}, '2025-11-25')).toBe('legacy')
    expect(eraOf('request', {}, '1999-01-01')).toBe('legacy')
    expect(eraOf('request', { name: 'echo' })).toBe('legacy')
  })

  test('a response always belongs to a 2025 session', () => {
    expect(eraOf('response', claim, '2026-07-28')).toBe('legacy')
  })
})

test('claimsModern needs an object _meta holding the version key', () => {
  expect(claimsModern(claim)).toBe(true)
  expect(claimsModern({ _meta: { 'io.modelcontextprotocol/protocolVersion': 'anything' } })).toBe(true)
  expect(claimsModern({ _meta: {} })).toBe(false)
  expect(claimsModern({ _meta: 'io.modelcontextprotocol/protocolVersion' })).toBe(false)
  expect(claimsModern(['_meta'])).toBe(false)
  expect(claimsModern(null)).toBe(false)
})
