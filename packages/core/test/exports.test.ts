// Growing the public API should be a conscious act: this list changes with it.
import { expect, it } from 'vitest'

it('exports exactly the intended public API', async () => {
  const entry = await import('../src/index.js')
  expect(Object.keys(entry).sort()).toEqual([
    'KitError',
    'decodeHeaderValue',
    'defaultLegacyVersion',
    'encodeHeaderValue',
    'findParamHeaders',
    'isKitError',
    'isLegacyVersion',
    'isModernVersion',
    'isRecord',
    'latestLegacyVersion',
    'latestModernVersion',
    'legacyProtocolVersions',
    'mcpNameField',
    'mcpNameFields',
    'modernProtocolVersions',
    'paramHeaderMismatch',
    'paramHeadersFor',
    'protocolVersions',
    'redactArguments',
    'resumableStreamsSince',
    'rpcCodes',
  ])
})
