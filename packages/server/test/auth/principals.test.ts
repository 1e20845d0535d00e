// Who owns what, against a real authorization server (oidc-provider): a user is
// `sub:<issuer>|<subject>` and a client acting for itself (a client_credentials token without
// `sub`) is `client:<issuer>|<client_id>`, so a client registered under a user's name is not that
// user — it cannot read the user's task and its result, nor use the user's 2025 session.

import {
  clientCredentialsToken,
  obtainToken,
  type RunningAuthServer,
  startAuthServer,
} from '@mcp-kit/fixtures/auth-server'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createToolRegistry } from '../../src/registry/registry.js'
import { eventually, initializeBody, post, serve } from '../helpers/http.js'

const version = '2026-07-28'
let authServer: RunningAuthServer

beforeAll(async () => {
  authServer = await startAuthServer({
    subjectlessClientTokens: true,
    // A confidential client whose id happens to be a user's subject.
    clients: [
      {
        client_id: 'alice',
        client_secret: 'a-secret-long-enough-for-the-provider',
        grant_types: ['client_credentials'],
        response_types: [],
        redirect_uris: [],
        token_endpoint_auth_method: 'client_secret_post',
        scope: 'tools:read',
      },
    ],
  })
})

afterAll(async () => {
  await authServer?.close()
})

// biome-ignore lint/suspicious/noExplicitAny: JSON off the wire, which the assertions check
type Wire = Record<string, any>

async function rpc(url: string, token: string, method: string, params: Record<string, unknown>) {
  const name = (params.name ?? params.taskId) as string
  const response = await post(
    url,
    {
      jsonrpc: '2.0',
      id: 1,
      method,
      params: {
        ...params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': version,
          'io.modelcontextprotocol/clientCapabilities': {
            extensions: { 'io.modelcontextprotocol/tasks': {} },
          },
        },
      },
    },
    {
      authorization: `Bearer ${token}`,
      'mcp-protocol-version': version,
      'mcp-method': method,
      'mcp-name': name,
    },
  )
  return response.json as { result?: Wire; error?: { code: number; message: string } }
}

async function tokens(resource: string) {
  const user = await obtainToken(authServer.issuer, { resource, login: 'alice' })
  const client = await clientCredentialsToken(authServer.issuer, {
    clientId: 'alice',
    clientSecret: 'a-secret-long-enough-for-the-provider',
    resource,
  })
  // The premise: the client's token names no subject, and its client id is the user's subject.
  const claims = (token: string) =>
    JSON.parse(Buffer.from(token.split('.')[1] as string, 'base64url').toString()) as Record<string, unknown>
  expect(claims(user.access_token).sub).toBe('alice')
  expect(claims(client.access_token)).toMatchObject({ client_id: 'alice' })
  expect(claims(client.access_token).sub).toBeUndefined()
  return { user: user.access_token, client: client.access_token }
}

describe('principals', () => {
  test("a client whose id is a user's subject cannot read that user's task or its result", async () => {
    const registry = createToolRegistry()
      .tool({
        name: 'diary',
        taskSupport: 'required',
        handler: (_args, context) => `the diary of ${context.authInfo?.subject}`,
      })
      .tool({ name: 'whoami', handler: (_args, context) => ({ subject: context.authInfo?.subject ?? null }) })
    const server = await serve(registry, { auth: { issuer: authServer.issuer } })
    const { user, client } = await tokens(server.url)

    const created = await rpc(server.url, user, 'tools/call', { name: 'diary', arguments: {} })
    expect(created.result).toMatchObject({ resultType: 'task' })
    const taskId = created.result?.taskId as string
    await eventually(
      async () => (await rpc(server.url, user, 'tasks/get', { taskId })).result?.status === 'completed',
    )
    const own = await rpc(server.url, user, 'tasks/get', { taskId })
    expect(JSON.stringify(own.result)).toContain('the diary of alice')

    for (const method of ['tasks/get', 'tasks/cancel']) {
      const stolen = await rpc(server.url, client, method, { taskId })
      expect(stolen.error?.code, method).toBe(-32602)
      expect(JSON.stringify(stolen)).not.toContain('diary')
    }
    // The client is served as itself.
    const whoami = await rpc(server.url, client, 'tools/call', { name: 'whoami', arguments: {} })
    expect(whoami.result?.structuredContent).toEqual({ subject: null })
  })

  test("a client whose id is a user's subject cannot use that user's 2025 session", async () => {
    const server = await serve(createToolRegistry().tool({ name: 'open', handler: () => 'ok' }), {
      auth: { issuer: authServer.issuer },
    })
    const { user, client } = await tokens(server.url)
    const opened = await post(server.url, initializeBody, { authorization: `Bearer ${user}` })
    expect(opened.status).toBe(200)
    const session = {
      'mcp-session-id': opened.headers.get('mcp-session-id') as string,
      'mcp-protocol-version': '2025-11-25',
    }
    const list = { jsonrpc: '2.0', id: 2, method: 'tools/list' }
    expect((await post(server.url, list, { ...session, authorization: `Bearer ${client}` })).status).toBe(404)
    expect((await post(server.url, list, { ...session, authorization: `Bearer ${user}` })).status).toBe(200)
    await fetch(server.url, { method: 'DELETE', headers: { ...session, authorization: `Bearer ${user}` } })
  })
})
