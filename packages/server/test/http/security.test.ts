// The secure defaults of the Streamable HTTP endpoint, over real HTTP on 127.0.0.1.
import { describe, expect, test } from 'vitest'
import { createDemoRegistry } from '../../src/registry/demo.js'
import { createToolRegistry } from '../../src/registry/registry.js'
import { accept, initialize, initializeBody, post, rawRequest, serve } from '../helpers/http.js'

function jsonRpcError(text: string): { code: number; message: string } {
  const body = JSON.parse(text) as { jsonrpc: string; id: unknown; error: { code: number; message: string } }
  expect(body.jsonrpc).toBe('2.0')
  expect(body.id).toBeNull()
  return body.error
}

describe('DNS rebinding protection', () => {
  test('a foreign Host gets 403; localhost names and the bound address pass', async () => {
    const server = await serve(createDemoRegistry())
    const body = JSON.stringify(initializeBody)
    const headers = { 'content-type': 'application/json', accept }
    const evil = await rawRequest(server.url, { headers: { ...headers, host: 'evil.example.com' }, body })
    expect(evil.status).toBe(403)
    expect(jsonRpcError(evil.text)).toEqual({
      code: -32000,
      message: 'Forbidden: Host "evil.example.com" is not allowed',
    })
    for (const host of [`127.0.0.1:${server.port}`, `localhost:${server.port}`, 'localhost']) {
      const ok = await rawRequest(server.url, { headers: { ...headers, host }, body })
      expect(ok.status).toBe(200)
    }
  })

  test('a foreign Origin gets 403; a listed one passes with CORS headers; no Origin passes', async () => {
    const server = await serve(createDemoRegistry(), { allowedOrigins: ['https://app.example.com'] })
    const evil = await post(server.url, initializeBody, { origin: 'http://evil.example.com' })
    expect(evil.status).toBe(403)
    expect(jsonRpcError(evil.text).message).toBe('Forbidden: Origin "http://evil.example.com" is not allowed')
    const listed = await post(server.url, initializeBody, { origin: 'https://app.example.com' })
    expect(listed.status).toBe(200)
    expect(listed.headers.get('access-control-allow-origin')).toBe('https://app.example.com')
    expect(listed.headers.get('access-control-expose-headers')).toMatch(/mcp-session-id/)
    expect(
      (await post(server.url, initializeBody, { origin: `http://localhost:${server.port}` })).status,
    ).toBe(200)
    expect((await post(server.url, initializeBody)).status).toBe(200)
    const preflight = await fetch(server.url, {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example.com' },
    })
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-allow-headers')).toMatch(/mcp-session-id/)
  })

  test('the checks can be turned off', async () => {
    const server = await serve(createDemoRegistry(), { allowedHosts: '*', allowedOrigins: '*' })
    const response = await rawRequest(server.url, {
      headers: {
        'content-type': 'application/json',
        accept,
        host: 'evil.example.com',
        origin: 'http://evil.example.com',
      },
      body: JSON.stringify(initializeBody),
    })
    expect(response.status).toBe(200)
  })
})

describe('bearer token', () => {
  test('missing or wrong token: 401 with WWW-Authenticate; the right one passes', async () => {
    const server = await serve(createDemoRegistry(), { token: 's3cret-token' })
    const missing = await post(server.url, initializeBody)
    expect(missing.status).toBe(401)
    expect(missing.headers.get('www-authenticate')).toBe('Bearer realm="mcp"')
    expect(jsonRpcError(missing.text).message).toBe('Unauthorized: a valid bearer token is required')
    for (const authorization of [
      'Bearer wrong',
      'Bearer s3cret-toke',
      'Bearer s3cret-token-and-more',
      'Basic czNjcmV0',
    ]) {
      const wrong = await post(server.url, initializeBody, { authorization })
      expect(wrong.status).toBe(401)
      expect(wrong.headers.get('www-authenticate')).toMatch(/^Bearer realm="mcp"/)
    }
    expect(
      (await post(server.url, initializeBody, { authorization: 'Bearer wrong' })).headers.get(
        'www-authenticate',
      ),
    ).toBe('Bearer realm="mcp", error="invalid_token"')
    const ok = await post(server.url, initializeBody, { authorization: 'Bearer s3cret-token' })
    expect(ok.status).toBe(200)
    expect((await post(server.url, initializeBody, { authorization: 'bearer s3cret-token' })).status).toBe(
      200,
    )
  })

  test('/healthz answers 200 without a token', async () => {
    const server = await serve(createDemoRegistry(), { token: 's3cret-token' })
    const response = await fetch(server.url.replace('/mcp', '/healthz'))
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ status: 'ok' })
  })
})

describe('limits and malformed input', () => {
  test('a body over the limit gets 413, declared or streamed', async () => {
    const server = await serve(createDemoRegistry(), { bodyLimitBytes: 1024 })
    const big = JSON.stringify({ ...initializeBody, padding: 'x'.repeat(2000) })
    const declared = await rawRequest(server.url, {
      headers: {
        'content-type': 'application/json',
        accept,
        'content-length': String(Buffer.byteLength(big)),
      },
      body: big,
    })
    expect(declared.status).toBe(413)
    expect(jsonRpcError(declared.text).message).toBe('Payload Too Large: the request body exceeds 1024 bytes')
    const chunked = await rawRequest(server.url, {
      headers: { 'content-type': 'application/json', accept, 'transfer-encoding': 'chunked' },
      body: big,
    })
    expect(chunked.status).toBe(413)
    expect((await post(server.url, initializeBody)).status).toBe(200)
  })

  test('the default limit is 4 MiB', async () => {
    const server = await serve(createDemoRegistry())
    const { headers } = await initialize(server.url)
    const call = (size: number) =>
      post(
        server.url,
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'echo', arguments: { message: 'x'.repeat(size) } },
        },
        headers,
      )
    expect((await call(4 * 1024 * 1024 - 200)).status).toBe(200)
    expect((await call(4 * 1024 * 1024)).status).toBe(413)
  })

  test('malformed JSON gets 400 with JSON-RPC -32700', async () => {
    const server = await serve(createDemoRegistry())
    for (const body of ['{', '', 'not json', '{"jsonrpc":"2.0",', '\u0000']) {
      const response = await post(server.url, body)
      expect(response.status).toBe(400)
      expect(jsonRpcError(response.text)).toEqual({
        code: -32700,
        message: 'Parse error: the body is not valid JSON',
      })
    }
  })

  test('JSON that is not a valid JSON-RPC message for MCP, and batches, get 400 -32600', async () => {
    const server = await serve(createDemoRegistry())
    const { headers } = await initialize(server.url)
    const invalid: unknown[] = [
      {},
      [],
      [initializeBody],
      42,
      null,
      { jsonrpc: '1.0', id: 1, method: 'tools/list' },
      { jsonrpc: '2.0', id: null, method: 'tools/list' },
      { jsonrpc: '2.0', id: 1.5, method: 'tools/list' },
      { jsonrpc: '2.0', id: 1, method: 'tools/list', params: [1, 2] },
      { jsonrpc: '2.0', method: 'notifications/initialized', params: 'x' },
      { jsonrpc: '2.0', id: 1, result: 'not an object' },
    ]
    for (const body of invalid) {
      const response = await post(server.url, body, headers)
      expect(response.status).toBe(400)
      expect((response.json as { error: { code: number } }).error.code).toBe(-32600)
    }
  })

  test('well-formed requests with bad params get -32602 with a one-line reason; unknown members are ignored', async () => {
    const server = await serve(createDemoRegistry())
    const { headers } = await initialize(server.url)
    const cases: Array<[unknown, RegExp]> = [
      [
        { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: { progressToken: {} } } },
        /progressToken/,
      ],
      [
        { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: 'str' } },
        /'arguments' must be an object/,
      ],
      [
        { jsonrpc: '2.0', id: 3, method: 'logging/setLevel', params: { level: 'loud' } },
        /'level' must be one of/,
      ],
      [
        // A million nested arrays inside an argument (sent as text: JSON.stringify would overflow).
        `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"echo","arguments":{"message":${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}}}}`,
        /nest at most/,
      ],
    ]
    for (const [body, reason] of cases) {
      const response = await post(server.url, body, headers)
      const error = (response.json as { error: { code: number; message: string } }).error
      expect(error.code).toBe(-32602)
      expect(error.message).toMatch(reason)
      expect(error.message).not.toMatch(/\n/)
    }
    const extra = await post(
      server.url,
      { jsonrpc: '2.0', id: 5, method: 'tools/list', extra: true },
      headers,
    )
    expect((extra.json as { result: { tools: unknown[] } }).result.tools.length).toBeGreaterThan(0)
  })

  test('error messages quote at most 80 characters of what the client sent', async () => {
    // Found by the fuzzer (tooling/fuzz): an unknown tool's name came back whole in the message,
    // however long (a 70 kB name, a 70 kB message).
    const server = await serve(createDemoRegistry())
    const { headers } = await initialize(server.url)
    const long = `${'x'.repeat(70_000)}\u001b[2J`
    const requests = [
      { method: 'tools/call', params: { name: long, arguments: {} } },
      { method: 'prompts/get', params: { name: long } },
      { method: 'resources/read', params: { uri: long } },
    ]
    for (const [index, request] of requests.entries()) {
      const response = await post(server.url, { jsonrpc: '2.0', id: index + 1, ...request }, headers)
      const error = (response.json as { error: { message: string } }).error
      expect(error.message).toMatch(/^(Unknown tool|Unknown prompt|Resource not found): x{80}…$/)
    }
    // A request id in use: the second request with it is refused, naming the id shortened.
    const slow = createToolRegistry().tool({
      name: 'wait',
      handler: () => new Promise((resolve) => setTimeout(() => resolve('done'), 300)),
    })
    const slowServer = await serve(slow)
    const session = await initialize(slowServer.url)
    const call = { jsonrpc: '2.0', id: long, method: 'tools/call', params: { name: 'wait' } }
    const first = post(slowServer.url, call, session.headers)
    const second = await post(slowServer.url, call, session.headers)
    expect((second.json as { error: { message: string } }).error.message).toBe(
      `Invalid Request: request id "${'x'.repeat(80)}…" is already in use`,
    )
    expect((await first).status).toBe(200)
  })

  test('wrong media types: 415 for the body, 406 for Accept', async () => {
    const server = await serve(createDemoRegistry())
    expect((await post(server.url, initializeBody, { 'content-type': 'text/plain' })).status).toBe(415)
    expect((await post(server.url, initializeBody, { accept: 'text/html' })).status).toBe(406)
  })

  test('sessions: unknown id 404, missing id 400, re-initialize 400, unsupported version 400', async () => {
    const server = await serve(createDemoRegistry())
    const list = { jsonrpc: '2.0', id: 1, method: 'tools/list' }
    const unknown = await post(server.url, list, { 'mcp-session-id': 'no-such-session' })
    expect(unknown.status).toBe(404)
    expect(jsonRpcError(unknown.text)).toEqual({ code: -32001, message: 'Session not found' })
    expect((await post(server.url, list)).status).toBe(400)
    const { headers } = await initialize(server.url)
    expect((await post(server.url, initializeBody, headers)).status).toBe(400)
    const version = await post(server.url, list, { ...headers, 'mcp-protocol-version': '1999-01-01' })
    expect(version.status).toBe(400)
    expect(jsonRpcError(version.text).message).toMatch(/unsupported MCP-Protocol-Version "1999-01-01"/)
    // Any supported version is accepted in the header, whatever the session negotiated.
    expect((await post(server.url, list, { ...headers, 'mcp-protocol-version': '2025-03-26' })).status).toBe(
      200,
    )
    expect((await post(server.url, list, { 'mcp-session-id': headers['mcp-session-id'] })).status).toBe(200)
  })

  test('other paths 404, other methods 405', async () => {
    const server = await serve(createDemoRegistry())
    expect((await fetch(server.url.replace('/mcp', '/other'))).status).toBe(404)
    const put = await fetch(server.url, { method: 'PUT', body: '{}' })
    expect(put.status).toBe(405)
    expect(put.headers.get('allow')).toBe('GET, POST, DELETE, OPTIONS')
  })

  test('hostile bodies never crash the server or leak a stack', async () => {
    const server = await serve(createDemoRegistry())
    const { headers } = await initialize(server.url)
    const hostile: unknown[] = [
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: 'not an object' } },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: null },
      { jsonrpc: '2.0', id: 3, method: 'tools/call' },
      { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: { toString: 1 } } },
      { jsonrpc: '2.0', id: 5, method: 'resources/read', params: { uri: '../../etc/passwd' } },
      { jsonrpc: '2.0', id: 6, method: '__proto__', params: {} },
      {
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: { name: 'echo', arguments: { __proto__: { polluted: true }, message: 'x' } },
      },
      { jsonrpc: '2.0', id: 8, method: 'prompts/get', params: { name: 'greet', arguments: { name: 42 } } },
      {
        jsonrpc: '2.0',
        id: 9,
        method: 'tools/call',
        params: { name: 'add', arguments: { a: 1e308, b: 1e308 } },
      },
      `{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"echo","arguments":{"message":"${'['.repeat(5000)}"}}}`,
      `${'['.repeat(100_000)}${']'.repeat(100_000)}`,
      { jsonrpc: '2.0', id: 11, result: {} },
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 999 } },
    ]
    for (const body of hostile) {
      const response = await post(server.url, body, headers)
      expect(response.status).toBeLessThan(500)
      expect(response.text).not.toMatch(/\n\s+at |node_modules|\.ts:\d+/)
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    const still = await post(
      server.url,
      {
        jsonrpc: '2.0',
        id: 12,
        method: 'tools/call',
        params: { name: 'echo', arguments: { message: 'alive' } },
      },
      headers,
    )
    expect(still.json).toEqual({
      jsonrpc: '2.0',
      id: 12,
      result: { content: [{ type: 'text', text: 'alive' }] },
    })
  })
})

test('binds 127.0.0.1 by default', async () => {
  const server = await serve(createDemoRegistry())
  expect(server.server.address()).toMatchObject({ address: '127.0.0.1', family: 'IPv4' })
  expect(server.url).toBe(`http://127.0.0.1:${server.port}/mcp`)
})
