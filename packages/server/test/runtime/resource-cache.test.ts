// The resource cache and principals: a private resource with `ttlMs` (the default scope) is
// cached per user, so one user's content never answers another's read; a public one is shared.
// Two real users of a real authorization server, over real HTTP.

import { obtainToken, type RunningAuthServer, startAuthServer } from '@mcp-kit/fixtures/auth-server'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createToolRegistry } from '../../src/registry/registry.js'
import { sdkClient, serve } from '../helpers/http.js'

let authServer: RunningAuthServer

beforeAll(async () => {
  authServer = await startAuthServer()
})

afterAll(async () => {
  await authServer?.close()
})

function registry() {
  let publicReads = 0
  return createToolRegistry()
    .resource({
      uri: 'bank://statement',
      name: 'statement',
      ttlMs: 60_000,
      read: (_uri, context) => `private data of ${context.authInfo?.subject}`,
    })
    .resource({
      uri: 'bank://rates',
      name: 'rates',
      ttlMs: 60_000,
      cacheScope: 'public',
      read: () => `rates, read ${++publicReads} time(s)`,
    })
}

async function readAs(url: string, login: string, uri: string): Promise<string> {
  const token = await obtainToken(authServer.issuer, { resource: url, login })
  const { client } = await sdkClient(url, {}, { authorization: `Bearer ${token.access_token}` })
  const result = await client.readResource({ uri })
  return (result.contents[0] as { text: string }).text
}

test('a private cached resource read by two users returns each their own data', async () => {
  const server = await serve(registry(), { auth: { issuer: authServer.issuer } })
  expect(await readAs(server.url, 'alice', 'bank://statement')).toBe('private data of alice')
  expect(await readAs(server.url, 'bob', 'bank://statement')).toBe('private data of bob')
  // Each still gets their own cached copy.
  expect(await readAs(server.url, 'alice', 'bank://statement')).toBe('private data of alice')
})

test('a public cached resource is read once and shared', async () => {
  const server = await serve(registry(), { auth: { issuer: authServer.issuer } })
  expect(await readAs(server.url, 'alice', 'bank://rates')).toBe('rates, read 1 time(s)')
  expect(await readAs(server.url, 'bob', 'bank://rates')).toBe('rates, read 1 time(s)')
})
