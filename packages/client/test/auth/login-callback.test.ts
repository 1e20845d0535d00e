// The browser leg of a login (loopbackAuthorizer) against a real authorization server
// (oidc-provider) and a real protected server: the loopback listener ends the login only with
// the callback that carries the login's `state`. A callback without it, or with another state
// and an error whose description an attacker wrote, gets a 400 page and is ignored (its text is
// neither shown nor printed); the real callback then completes the login.

import { headlessLogin, type RunningAuthServer, startAuthServer } from '@mcp-kit/fixtures/auth-server'
import { createToolRegistry, type RunningHttpServer, startHttpServer } from '@mcp-kit/server'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { memoryCredentialStore } from '../../src/auth/credential-store.js'
import { loopbackAuthorizer } from '../../src/auth/loopback.js'
import { connect } from '../../src/connect/connect.js'
import { noEraCache } from '../../src/connect/era-cache.js'

let authServer: RunningAuthServer
let server: RunningHttpServer

beforeAll(async () => {
  authServer = await startAuthServer()
  const registry = createToolRegistry().tool({
    name: 'whoami',
    handler: (_args, context) => ({ subject: context.authInfo?.subject }),
  })
  server = await startHttpServer(registry, { auth: { issuer: authServer.issuer } })
})

afterAll(async () => {
  await server?.close({ graceMs: 0 })
  await authServer?.close()
})

const planted = 'Your account is locked: call +1-555-0100 now'

test('only the callback with the login state ends the login; forged ones get 400 and are not printed', async () => {
  const said: string[] = []
  let opened: (url: string) => void = () => {}
  const authorizationUrl = new Promise<string>((resolve) => {
    opened = resolve
  })
  const connecting = connect(
    { transport: 'http', url: server.url },
    {
      eraCache: noEraCache,
      oauth: {
        store: memoryCredentialStore(),
        authorizer: loopbackAuthorizer({
          openBrowser: false,
          timeoutMs: 30_000,
          say: (message) => {
            said.push(message)
            const url = /(http:\/\/127\.0\.0\.1:\d+\/auth\?\S+)/.exec(message)?.[1]
            if (url !== undefined) opened(url)
          },
        }),
      },
    },
  )
  let settled = false
  connecting.then(
    () => (settled = true),
    () => (settled = true),
  )
  const url = new URL(await authorizationUrl)
  const callback = new URL(url.searchParams.get('redirect_uri') as string)
  const state = url.searchParams.get('state') as string
  expect(state).toBeTruthy()

  const forged = [
    new URLSearchParams({ code: 'made-up' }),
    new URLSearchParams({ error: 'access_denied', error_description: planted }),
    new URLSearchParams({ state: `${state}x`, error: 'access_denied', error_description: planted }),
    new URLSearchParams({ state: '', code: 'made-up' }),
  ]
  for (const query of forged) {
    const answer = await fetch(`${callback.href}?${query}`)
    expect(answer.status, query.toString()).toBe(400)
    expect(await answer.text()).not.toContain('call +1-555')
  }
  await new Promise((resolve) => setTimeout(resolve, 100))
  expect(settled).toBe(false)

  // The user's own login, through the authorization server's pages, comes back with the state.
  const back = await headlessLogin(url.href, 'alice')
  expect(new URL(back).searchParams.get('state')).toBe(state)
  const page = await fetch(back)
  expect(page.status).toBe(200)
  expect(await page.text()).toMatch(/Logged in/)
  const session = await connecting
  try {
    const result = await session.callTool('whoami', {})
    expect(result.structuredContent).toEqual({ subject: 'alice' })
  } finally {
    await session.close()
  }
  expect(said.join('\n')).not.toContain('call +1-555')
})

test('any Authorizer: a callback with another state is refused before its error is read', async () => {
  const connecting = connect(
    { transport: 'http', url: server.url },
    {
      eraCache: noEraCache,
      oauth: {
        store: memoryCredentialStore(),
        authorizer: {
          prepare: async () => 'http://127.0.0.1:9/callback',
          open: async () => {},
          callback: async () =>
            new URLSearchParams({
              state: 'not-this-login',
              error: 'access_denied',
              error_description: planted,
            }),
          close: async () => {},
        },
      },
    },
  )
  const failure = await connecting.then(
    () => undefined,
    (error: Error) => error,
  )
  expect(failure?.message).toMatch(/did not carry the state this login sent/)
  expect(failure?.message).not.toContain('call +1-555')
})
