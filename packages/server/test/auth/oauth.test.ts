// The server as an OAuth resource server, against a real authorization server (oidc-provider on
// 127.0.0.1): protected-resource metadata, 401/403 challenges, JWT checks (signature, issuer,
// audience; expiry in tokens.test.ts, with tokens a test signs), per-tool scopes, sessions bound
// to their user, and the official SDK clients (v1 and v2) logging in with their own OAuth code
// and calling tools.

import {
  headlessLogin,
  obtainToken,
  type RunningAuthServer,
  startAuthServer,
} from '@mcp-kit/fixtures/auth-server'
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as TransportV2,
} from '@modelcontextprotocol/client'
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createToolRegistry } from '../../src/registry/registry.js'
import { initializeBody, post, serve } from '../helpers/http.js'

let authServer: RunningAuthServer

beforeAll(async () => {
  authServer = await startAuthServer()
})

afterAll(async () => {
  await authServer?.close()
})

function protectedRegistry() {
  return createToolRegistry()
    .tool({
      name: 'whoami',
      description: 'who the token belongs to',
      scopes: ['tools:read'],
      handler: (_args, context) => ({ subject: context.authInfo?.subject, scopes: context.authInfo?.scopes }),
    })
    .tool({ name: 'purge', description: 'admins only', scopes: ['admin'], handler: () => 'purged' })
    .tool({ name: 'open', description: 'any valid token', handler: () => 'ok' })
}

async function protectedServer() {
  return serve(protectedRegistry(), { auth: { issuer: authServer.issuer } })
}

const call = (name: string, id = 1) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: {
    name,
    arguments: {},
    _meta: {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
    },
  },
})

const modernHeaders = (token: string, name: string) => ({
  authorization: `Bearer ${token}`,
  'mcp-protocol-version': '2026-07-28',
  'mcp-method': 'tools/call',
  'mcp-name': name,
})

describe('the protected resource', () => {
  test('no token: 401 with the challenge naming the metadata, which names the authorization server', async () => {
    const server = await protectedServer()
    const refused = await post(server.url, initializeBody)
    expect(refused.status).toBe(401)
    const challenge = refused.headers.get('www-authenticate') ?? ''
    const metadataUrl = /resource_metadata="([^"]+)"/.exec(challenge)?.[1]
    expect(metadataUrl).toBe(`http://127.0.0.1:${server.port}/.well-known/oauth-protected-resource/mcp`)
    const metadata = (await (await fetch(metadataUrl as string)).json()) as Record<string, unknown>
    expect(metadata).toMatchObject({
      resource: server.url,
      authorization_servers: [authServer.issuer],
      bearer_methods_supported: ['header'],
    })
    expect(metadata.scopes_supported).toEqual(expect.arrayContaining(['tools:read', 'admin']))
    // The root form is served too (clients that try it first).
    expect((await fetch(`http://127.0.0.1:${server.port}/.well-known/oauth-protected-resource`)).status).toBe(
      200,
    )
  })

  test('a token for this server works; its subject and scopes reach the handler', async () => {
    const server = await protectedServer()
    const token = await obtainToken(authServer.issuer, {
      resource: server.url,
      scope: 'tools:read',
      login: 'alice',
    })
    const answer = await post(server.url, call('whoami'), modernHeaders(token.access_token, 'whoami'))
    expect(answer.status).toBe(200)
    const result = (answer.json as { result: { structuredContent: unknown } }).result
    expect(result.structuredContent).toEqual({ subject: 'alice', scopes: ['tools:read'] })
  })

  test('a token for another server, a forged one and garbage get 401 invalid_token', async () => {
    const server = await protectedServer()
    const elsewhere = await obtainToken(authServer.issuer, { resource: 'http://127.0.0.1:9/other/mcp' })
    const good = await obtainToken(authServer.issuer, { resource: server.url })
    const [header, payload] = good.access_token.split('.') as [string, string, string]
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>
    const escalated = Buffer.from(JSON.stringify({ ...claims, scope: 'tools:read admin' })).toString(
      'base64url',
    )
    const forged = `${header}.${escalated}.${good.access_token.split('.')[2]}`
    for (const [token, why] of [
      [elsewhere.access_token, /not for this server/],
      [forged, /not valid/],
      ['not-a-jwt', /not valid/],
    ] as const) {
      const refused = await post(server.url, call('open'), modernHeaders(token, 'open'))
      expect(refused.status).toBe(401)
      expect(refused.headers.get('www-authenticate')).toMatch(/error="invalid_token"/)
      expect((refused.json as { error: { message: string } }).error.message).toMatch(why)
    }
  })

  test("a tool's scopes: 403 insufficient_scope naming them, so the client can step up", async () => {
    const server = await protectedServer()
    const reader = await obtainToken(authServer.issuer, { resource: server.url, scope: 'tools:read' })
    const refused = await post(server.url, call('purge'), modernHeaders(reader.access_token, 'purge'))
    expect(refused.status).toBe(403)
    const challenge = refused.headers.get('www-authenticate') ?? ''
    expect(challenge).toMatch(/error="insufficient_scope"/)
    expect(challenge).toMatch(/scope="admin"/)
    expect(challenge).toMatch(/resource_metadata=/)
    const admin = await obtainToken(authServer.issuer, { resource: server.url, scope: 'tools:read admin' })
    const allowed = await post(server.url, call('purge'), modernHeaders(admin.access_token, 'purge'))
    expect(allowed.status).toBe(200)
  })

  test("a 2025 session belongs to its user: another user's token with its id gets 404", async () => {
    const server = await protectedServer()
    const alice = await obtainToken(authServer.issuer, { resource: server.url, login: 'alice' })
    const bob = await obtainToken(authServer.issuer, { resource: server.url, login: 'bob' })
    const opened = await post(server.url, initializeBody, { authorization: `Bearer ${alice.access_token}` })
    expect(opened.status).toBe(200)
    const sessionId = opened.headers.get('mcp-session-id') as string
    const list = { jsonrpc: '2.0', id: 2, method: 'tools/list' }
    const session = { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' }
    const stolen = await post(server.url, list, { ...session, authorization: `Bearer ${bob.access_token}` })
    expect(stolen.status).toBe(404)
    const own = await post(server.url, list, { ...session, authorization: `Bearer ${alice.access_token}` })
    expect(own.status).toBe(200)
    await fetch(server.url, {
      method: 'DELETE',
      headers: { ...session, authorization: `Bearer ${alice.access_token}` },
    })
  })

  test('the start fails clearly when the authorization server cannot be reached', async () => {
    await expect(serve(protectedRegistry(), { auth: { issuer: 'http://127.0.0.1:9' } })).rejects.toThrow(
      /cannot reach the authorization server http:\/\/127\.0\.0\.1:9/,
    )
  })
})

/** The smallest OAuthClientProvider a program using the SDK writes: memory, headless login. */
class MemoryProvider {
  clientInfo: Record<string, unknown> | undefined
  storedTokens: Record<string, unknown> | undefined
  verifier = ''
  callback: URLSearchParams | undefined
  logins = 0
  readonly redirectUrl = 'http://127.0.0.1:9/callback'
  readonly clientMetadata = {
    client_name: 'sdk peer',
    redirect_uris: [this.redirectUrl],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  }
  clientInformation() {
    return this.clientInfo
  }
  saveClientInformation(info: Record<string, unknown>) {
    this.clientInfo = info
  }
  tokens() {
    return this.storedTokens
  }
  saveTokens(tokens: Record<string, unknown>) {
    this.storedTokens = tokens
  }
  async redirectToAuthorization(url: URL) {
    this.logins += 1
    this.callback = new URL(await headlessLogin(url.href, 'carol')).searchParams
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier
  }
  codeVerifier() {
    return this.verifier
  }
}

describe('tasks per user', () => {
  const taskCall = (id: number) => ({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: {
      name: 'hold',
      arguments: {},
      _meta: {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } },
      },
    },
  })
  const holdRegistry = () =>
    createToolRegistry().tool({
      name: 'hold',
      taskSupport: 'required',
      handler: (_args, context) =>
        new Promise((resolve) => context.signal.addEventListener('abort', () => resolve('stopped'))),
    })
  const outcome = async (url: string, token: string, id: number) => {
    const answer = await post(url, taskCall(id), modernHeaders(token, 'hold'))
    const json = answer.json as { result?: { resultType?: string }; error?: { message: string } }
    return json.result?.resultType ?? json.error?.message
  }

  test('one signed-in user runs at most a quarter of the bound; another user still gets tasks', async () => {
    const server = await serve(holdRegistry(), {
      auth: { issuer: authServer.issuer },
      tasks: { maxRunning: 4 },
    })
    const token = async (login: string) =>
      (await obtainToken(authServer.issuer, { resource: server.url, scope: 'tools:read', login }))
        .access_token
    const alice = await token('alice')
    const bob = await token('bob')
    expect(await outcome(server.url, alice, 1)).toBe('task')
    expect(await outcome(server.url, alice, 2)).toBe(
      'too many tasks running for this caller (limit 1); retry later',
    )
    expect(await outcome(server.url, bob, 3)).toBe('task')
  })

  test('with one static token its callers are not one user: only the server bound applies', async () => {
    const server = await serve(holdRegistry(), { token: 's3cret', tasks: { maxRunning: 4 } })
    for (let id = 1; id <= 4; id++) expect(await outcome(server.url, 's3cret', id)).toBe('task')
    expect(await outcome(server.url, 's3cret', 5)).toBe(
      'too many tasks running on this server (limit 4); retry later',
    )
  })
})

describe('the official SDK clients log in with their own OAuth code', () => {
  test('SDK v1: 401, discovery, registration, login, then tools', async () => {
    const server = await protectedServer()
    const provider = new MemoryProvider()
    const first = new TransportV1(new URL(server.url), { authProvider: provider as never })
    await expect(new ClientV1({ name: 'v1', version: '1' }).connect(first)).rejects.toThrow(/Unauthorized/)
    await first.finishAuth(provider.callback?.get('code') as string)
    const client = new ClientV1({ name: 'v1', version: '1' })
    await client.connect(new TransportV1(new URL(server.url), { authProvider: provider as never }))
    const result = await client.callTool({ name: 'whoami', arguments: {} })
    expect(result.structuredContent).toMatchObject({ subject: 'carol' })
    expect(provider.logins).toBe(1)
    await client.close()
  })

  test('SDK v2: the same flow through its finishAuth', async () => {
    const server = await protectedServer()
    const provider = new MemoryProvider()
    const first = new TransportV2(new URL(server.url), { authProvider: provider as never })
    await expect(new ClientV2({ name: 'v2', version: '1' }).connect(first)).rejects.toThrow(/nauthorized/)
    await first.finishAuth(provider.callback as URLSearchParams)
    const client = new ClientV2({ name: 'v2', version: '1' })
    await client.connect(new TransportV2(new URL(server.url), { authProvider: provider as never }))
    const result = await client.callTool({ name: 'whoami', arguments: {} })
    expect(result.structuredContent).toMatchObject({ subject: 'carol' })
    await client.close()
  })
})
