// A login whose pooled keep-alive connection the server closes as the next request reuses it (what
// failed six conformance logins on a busy machine: the metadata GET after the 401 met the server's
// 5 s idle close). Discovery GETs go out once more on a new connection; registration and token
// POSTs always go out on a connection of their own, once. Real HTTP on 127.0.0.1: one node:http
// server is the protected MCP server (@mcp-kit/server's handler behind a bearer check) and its
// authorization server; Node's fetch runs on a global pool of one connection, so every request
// after the first on it is a reuse (deterministic, no race).

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { createHttpHandler, createToolRegistry } from '@mcp-kit/server'
import { Agent, type Dispatcher, getGlobalDispatcher, setGlobalDispatcher } from 'undici'
import { afterEach, beforeEach, expect, test } from 'vitest'
import { HttpTransport } from '../../src/http/streamable-http.js'
import { connect, memoryCredentialStore, noEraCache } from '../../src/index.js'
import { answerJson, eventually, startRawServer } from '../helpers/raw-http.js'

const cleanups: Array<() => Promise<unknown>> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

let previous: Dispatcher
beforeEach(() => {
  previous = getGlobalDispatcher()
  const pool = new Agent({ connections: 1, keepAliveTimeout: 600_000, keepAliveMaxTimeout: 600_000 })
  setGlobalDispatcher(pool)
  cleanups.push(async () => {
    setGlobalDispatcher(previous)
    await pool.destroy()
  })
})

const nodeFetch = (url: string | URL, init?: RequestInit) => globalThis.fetch(url, init)
const accessToken = 'token-for-the-test'

function json(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body))
}

async function readBody(request: IncomingMessage): Promise<string> {
  let body = ''
  for await (const chunk of request) body += chunk
  return body
}

test('the metadata GET that meets a closed connection is sent again; token and registration POSTs each go out once, on a new connection', async () => {
  const handler = createHttpHandler(createToolRegistry().tool({ name: 'whoami', handler: () => 'you' }), {})
  const requestsOn = new WeakMap<Socket, number>()
  const log: string[] = []
  let droppedGets = 0
  let origin = ''
  const server = createServer(async (request, response) => {
    const socket = request.socket
    const reused = (requestsOn.get(socket) ?? 0) > 0
    requestsOn.set(socket, (requestsOn.get(socket) ?? 0) + 1)
    const path = new URL(request.url ?? '/', origin).pathname
    log.push(`${request.method} ${path}${reused ? ' (reused connection)' : ''}`)
    // The first GET after the 401 reuses the pooled connection: the server's idle close meets it.
    if (request.method === 'GET' && reused && droppedGets === 0) {
      droppedGets += 1
      socket.destroy()
      return
    }
    if (path === '/.well-known/oauth-protected-resource/mcp') {
      return json(response, 200, { resource: `${origin}/mcp`, authorization_servers: [origin] })
    }
    if (path === '/.well-known/oauth-authorization-server') {
      return json(response, 200, {
        issuer: origin,
        authorization_endpoint: `${origin}/authorize`,
        token_endpoint: `${origin}/token`,
        registration_endpoint: `${origin}/register`,
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code', 'refresh_token'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['none'],
      })
    }
    if (path === '/register') {
      const metadata = JSON.parse(await readBody(request))
      return json(response, 201, { ...metadata, client_id: 'client-1' })
    }
    if (path === '/authorize') {
      const query = new URL(request.url ?? '/', origin).searchParams
      const back = new URL(query.get('redirect_uri') ?? '')
      back.searchParams.set('code', 'code-1')
      back.searchParams.set('state', query.get('state') ?? '')
      response.writeHead(302, { location: back.href }).end()
      return
    }
    if (path === '/token') {
      const form = new URLSearchParams(await readBody(request))
      if (form.get('code') !== 'code-1') return json(response, 400, { error: 'invalid_grant' })
      return json(response, 200, { access_token: accessToken, token_type: 'Bearer', expires_in: 3600 })
    }
    if (request.headers.authorization !== `Bearer ${accessToken}`) {
      // Kept alive, as an ordinary server answers 401: the discovery that follows reuses it.
      return json(
        response,
        401,
        { error: 'unauthorized' },
        {
          'www-authenticate': `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`,
        },
      )
    }
    handler.handle(request, response)
  })
  server.keepAliveTimeout = 0
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
    () => handler.close(),
  )

  // The browser of the login, headless: follows the authorization URL's redirect by hand.
  let callback = new URLSearchParams()
  const diagnostics: string[] = []
  const session = await connect(
    { transport: 'http', url: `${origin}/mcp` },
    {
      fetch: nodeFetch,
      protocol: '2026-07-28',
      eraCache: noEraCache,
      onDiagnostic: (message) => diagnostics.push(message),
      oauth: {
        store: memoryCredentialStore(),
        authorizer: {
          prepare: async () => 'http://127.0.0.1:1/callback',
          async open(url) {
            const answer = await fetch(url, { redirect: 'manual' })
            callback = new URL(answer.headers.get('location') ?? '').searchParams
          },
          callback: async () => callback,
          close: async () => {},
        },
      },
    },
  )
  cleanups.push(() => session.close())
  expect((await session.callTool('whoami')).content).toEqual([{ type: 'text', text: 'you' }])

  expect(droppedGets).toBe(1)
  expect(diagnostics.join('\n')).toMatch(
    /GET http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource\/mcp: the connection to .* closed before an answer .*sending it again on a new connection/,
  )
  // The dropped GET, then the same GET on a new connection.
  const metadata = log.filter((line) => line.startsWith('GET /.well-known/oauth-protected-resource/mcp'))
  expect(metadata).toEqual([
    'GET /.well-known/oauth-protected-resource/mcp (reused connection)',
    'GET /.well-known/oauth-protected-resource/mcp',
  ])
  // One registration and one token request, each the first request of its connection.
  expect(log.filter((line) => line.startsWith('POST /register') || line.startsWith('POST /token'))).toEqual([
    'POST /register',
    'POST /token',
  ])
})

test('the transport says when a login ends, so that the requests that waited on it get their full time again', async () => {
  let refused = false
  const server = await startRawServer((request, response) => {
    if (!refused) {
      refused = true
      response.writeHead(401, { 'content-type': 'application/json' }).end('{}')
      return
    }
    answerJson(response, { jsonrpc: '2.0', id: request.json?.id, result: {} })
  })
  cleanups.push(() => server.close())
  const said: string[] = []
  const transport = new HttpTransport(new URL(server.url), {
    fetch: nodeFetch,
    auth: {
      headers: async () => ({}),
      async onUnauthorized() {
        said.push(`login running: ${transport.authenticating()}`)
        return true
      },
    },
  })
  transport.onauthenticated = () => said.push(`login over: ${transport.authenticating()}`)
  transport.onmessage = (message) => said.push(`answer ${JSON.stringify(message)}`)
  await transport.send({ jsonrpc: '2.0', id: 1, method: 'ping' })
  await eventually(() => expect(said).toHaveLength(3))
  expect(said).toEqual([
    'login running: true',
    'login over: false',
    'answer {"jsonrpc":"2.0","id":1,"result":{}}',
  ])
  await transport.close()
})
