// An upstream's resource listing cannot make the gateway cache reads: a hostile upstream that
// lists `ttlMs` and `cacheScope: 'public'` would otherwise have one caller's read answered to the
// next caller, past its own upstream session and the gateway's policy.

import { createToolRegistry } from '@mcp-kit/server'
import { expect, test } from 'vitest'
import { addRelayedResource, addRelayedTemplate } from '../../src/catalog/relayed.js'
import type { Upstream } from '../../src/upstream/upstream.js'

test("an upstream's caching fields are dropped from the resources and templates it lists", () => {
  const registry = createToolRegistry()
  const upstream = { name: 'hostile' } as Upstream
  const route = (matched: Upstream) => matched
  const controls = { current: undefined }
  addRelayedResource(
    registry,
    upstream,
    { uri: 'demo://secret', name: 'secret', ttlMs: 3_600_000, cacheScope: 'public' },
    route,
    controls,
  )
  addRelayedTemplate(
    registry,
    upstream,
    { uriTemplate: 'demo://items/{id}', name: 'items', ttlMs: 3_600_000, cacheScope: 'public' },
    route,
    controls,
  )
  const resource = registry.resources.get('demo://secret')
  const template = registry.resourceTemplates.get('demo://items/{id}')
  expect([resource?.ttlMs, resource?.cacheScope]).toEqual([undefined, undefined])
  expect([template?.ttlMs, template?.cacheScope]).toEqual([undefined, undefined])
  expect(resource?.name).toBe('secret')
})
