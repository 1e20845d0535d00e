// @module-tag integration
// A pre-registered client's secret goes only to its own authorization server: the one the
// upstream's `oauth.issuer` names, or else the first one it was sent to. An upstream whose
// protected-resource metadata names another authorization server (a hostile one, or one that
// turned hostile after the gateway started) fails, saying so, and that server never sees a token
// request. Real parts: two authorization servers (oidc-provider, both knowing the client), mcp-kit
// HTTP servers as the OAuth-protected upstreams, the gateway, and the SDK v1 as its client.

import { type RunningAuthServer, startAuthServer } from '@mcp-kit/fixtures/auth-server'
import { createToolRegistry, type RunningHttpServer, startHttpServer } from '@mcp-kit/server'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest'
import { text } from '../helpers/callers.js'
import { eventually, startGateway } from '../helpers/gateways.js'

const client = {
  client_id: 'nightly-gateway',
  client_secret: 'a-long-client-secret-for-tests',
  grant_types: ['client_credentials'],
  redirect_uris: [],
  response_types: [],
  token_endpoint_auth_method: 'client_secret_basic',
}
const oauth = { clientId: client.client_id, clientSecret: client.client_secret }

let trusted: RunningAuthServer
let other: RunningAuthServer
const closers: Array<() => Promise<void>> = []

beforeAll(async () => {
  ;[trusted, other] = await Promise.all([
    startAuthServer({ clients: [client] }),
    startAuthServer({ clients: [client] }),
  ])
})
afterAll(async () => {
  await Promise.all([trusted?.close(), other?.close()])
})
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close()
})

/** An upstream whose tokens (and protected-resource metadata) are those of `issuer`. */
async function protectedUpstream(issuer: string, port = 0): Promise<RunningHttpServer> {
  const registry = createToolRegistry().tool({
    name: 'whoami',
    handler: (_args, context) => `client ${context.authInfo?.clientId}`,
  })
  const server = await startHttpServer(registry, { port, auth: { issuer } })
  closers.push(() => server.close())
  return server
}

async function gatewayClient(url: string): Promise<Client> {
  const sdk = new Client({ name: 'issuer-test', version: '1.0.0' })
  await sdk.connect(new StreamableHTTPClientTransport(new URL(url)))
  closers.push(() => sdk.close())
  return sdk
}

/** The tool's text, or the error the call failed with. */
async function whoami(sdk: Client): Promise<string> {
  try {
    return text(await sdk.callTool({ name: 'crm__whoami', arguments: {} }))
  } catch (error) {
    return (error as Error).message
  }
}

test('with oauth.issuer, the secret goes to that authorization server only', async () => {
  const stats = { ...other.stats }
  const hostile = await protectedUpstream(other.issuer)
  const honest = await protectedUpstream(trusted.issuer)
  const { gateway, url } = await startGateway({
    upstreams: [
      {
        name: 'crm',
        server: { transport: 'http', url: hostile.url },
        oauth: { ...oauth, issuer: trusted.issuer },
      },
      {
        name: 'honest',
        server: { transport: 'http', url: honest.url },
        oauth: { ...oauth, issuer: trusted.issuer },
      },
    ],
  })
  await eventually(() => gateway.health().crm?.state === 'failed')
  expect(gateway.health().crm?.error).toMatch(
    new RegExp(
      `names the authorization server ${other.issuer}/?, but the secret of client 'nightly-gateway' belongs to ${trusted.issuer}/? \\(its configured issuer\\): it is not sent there`,
    ),
  )
  expect(other.stats).toEqual(stats)
  // The same client at the upstream that names its own authorization server gets its tokens.
  const sdk = await gatewayClient(url)
  expect(text(await sdk.callTool({ name: 'honest__whoami', arguments: {} }))).toBe('client nightly-gateway')
})

test('without oauth.issuer, the secret goes only to the authorization server it was first sent to', async () => {
  const first = await protectedUpstream(trusted.issuer)
  const port = Number(new URL(first.url).port)
  const { url } = await startGateway({
    upstreams: [{ name: 'crm', server: { transport: 'http', url: first.url }, oauth }],
  })
  const sdk = await gatewayClient(url)
  expect(await whoami(sdk)).toBe('client nightly-gateway')
  // The upstream now names another authorization server (same URL, new metadata).
  await first.close()
  const stats = { ...other.stats }
  await protectedUpstream(other.issuer, port)
  expect(await whoami(sdk)).toMatch(
    /but the secret of client 'nightly-gateway' belongs to http:\/\/127\.0\.0\.1:\d+\/? \(the first one it was sent to\): it is not sent there/,
  )
  expect(other.stats).toEqual(stats)
})
