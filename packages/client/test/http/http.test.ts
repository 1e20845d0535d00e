// @module-tag integration
// The client over HTTP against real servers: Streamable HTTP, the legacy SSE fallback, headers,
// bearer tokens, proxies, and the errors a user sees when HTTP goes wrong.

import { execFile } from 'node:child_process'
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http'
import { type AddressInfo, connect as netConnect } from 'node:net'
import { promisify } from 'node:util'
import { npmServers } from '@mcp-kit/fixtures'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connect } from '../../src/index.js'
import { failureOf, freePort, startProcess } from '../helpers/processes.js'

function listen(server: Server): Promise<number> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  )
}

function close(server: Server): Promise<void> {
  server.closeAllConnections()
  return new Promise((resolve) => server.close(() => resolve()))
}

describe('server-everything over Streamable HTTP', () => {
  let port: number
  let stop: () => Promise<void>
  beforeAll(async () => {
    port = await freePort()
    ;({ stop } = await startProcess([npmServers.everything, 'streamableHttp'], {
      env: { PORT: String(port) },
      ready: /listening on port/,
    }))
  })
  afterAll(async () => stop())

  it('initializes, lists and calls', async () => {
    const session = await connect({ transport: 'http', url: `http://127.0.0.1:${port}/mcp` })
    expect(session.transportKind).toBe('streamable-http')
    expect(session.protocolVersion).toBe('2025-11-25')
    expect((await session.listTools()).map((tool) => tool.name)).toContain('echo')
    expect(await session.callTool('echo', { message: 'over http' })).toEqual({
      content: [{ type: 'text', text: 'Echo: over http' }],
    })
    await session.close()
  })
})

describe('server-everything over legacy SSE', () => {
  let port: number
  let stop: () => Promise<void>
  beforeAll(async () => {
    port = await freePort()
    ;({ stop } = await startProcess([npmServers.everything, 'sse'], {
      env: { PORT: String(port) },
      ready: /running on port/,
    }))
  })
  afterAll(async () => stop())

  it('falls back to SSE when the first POST gets 404', async () => {
    const diagnostics: string[] = []
    const session = await connect(
      { transport: 'http', url: `http://127.0.0.1:${port}/sse` },
      { onDiagnostic: (message) => diagnostics.push(message) },
    )
    expect(session.transportKind).toBe('sse')
    expect(diagnostics.join('\n')).toMatch(
      /answered the Streamable HTTP POST with HTTP 404; trying legacy SSE/,
    )
    expect(await session.callTool('echo', { message: 'over sse' })).toEqual({
      content: [{ type: 'text', text: 'Echo: over sse' }],
    })
    await session.close()
  })
})

describe('headers, tokens and HTTP errors', () => {
  let server: Server
  let port: number
  const seen: IncomingMessage['headers'][] = []
  beforeAll(async () => {
    server = createServer((request, response) => {
      seen.push(request.headers)
      response.writeHead(401, {
        'WWW-Authenticate': 'Bearer realm="test"',
        'Content-Type': 'application/json',
      })
      response.end('{"error":"unauthorized"}')
    })
    port = await listen(server)
  })
  afterAll(async () => close(server))

  it('sends custom headers and the bearer token; a 401 says how to authenticate', async () => {
    const failure = await failureOf(
      connect(
        { transport: 'http', url: `http://127.0.0.1:${port}/mcp`, headers: { 'X-Team': 'blue' } },
        { headers: { 'X-Trace': 't1' }, bearerToken: 's3cret' },
      ),
    )
    expect(seen[0]).toMatchObject({ 'x-team': 'blue', 'x-trace': 't1', authorization: 'Bearer s3cret' })
    expect(failure.code).toBe('http_error')
    expect(failure.message).toMatch(
      /HTTP 401 \(does it need a token\? set bearerToken, or an Authorization header in headers\)/,
    )
  })

  it('a closed port is connect_failed: connection refused', async () => {
    const closedPort = await freePort()
    const failure = await failureOf(connect({ transport: 'http', url: `http://127.0.0.1:${closedPort}/mcp` }))
    expect(failure.code).toBe('connect_failed')
    expect(failure.message).toBe(`cannot connect to http://127.0.0.1:${closedPort}/mcp: connection refused`)
  })

  it('a URL that is no MCP endpoint (404 to the POST and to the SSE GET) says HTTP 404 once, in its words', async () => {
    const missing = createServer((request, response) => {
      request.resume()
      request.on('end', () => {
        response.writeHead(404, { 'Content-Type': 'text/plain' })
        response.end('Cannot POST /nope')
      })
    })
    const missingPort = await listen(missing)
    const url = `http://127.0.0.1:${missingPort}/nope`
    try {
      const failure = await failureOf(connect({ transport: 'http', url }))
      expect(failure).toMatchObject({ code: 'http_error', details: { status: 404 } })
      expect(failure.message).toBe(`${url}: HTTP 404: Cannot POST /nope`)
    } finally {
      await close(missing)
    }
  })
})

describe('proxies', () => {
  let target: { stop: () => Promise<void> }
  let targetPort: number
  let proxy: Server
  let proxyPort: number
  const proxied: string[] = []
  beforeAll(async () => {
    targetPort = await freePort()
    target = await startProcess([npmServers.everything, 'streamableHttp'], {
      env: { PORT: String(targetPort) },
      ready: /listening on port/,
    })
    // A forward proxy that sends everything for mcp.example.test to the local server.
    proxy = createServer((request, response) => {
      proxied.push(`${request.method} ${request.url}`)
      const url = new URL(request.url ?? '/')
      const forward = httpRequest(
        {
          host: '127.0.0.1',
          port: targetPort,
          method: request.method,
          path: url.pathname + url.search,
          headers: { ...request.headers, host: `127.0.0.1:${targetPort}` },
        },
        (upstream) => {
          response.writeHead(upstream.statusCode ?? 502, upstream.headers)
          upstream.pipe(response)
        },
      )
      request.pipe(forward)
    })
    // undici tunnels through the proxy with CONNECT.
    proxy.on('connect', (request, socket, head) => {
      proxied.push(`CONNECT ${request.url}`)
      const upstream = netConnect(targetPort, '127.0.0.1', () => {
        socket.write('HTTP/1.1 200 Connection Established\r\n\r\n')
        upstream.write(head)
        upstream.pipe(socket)
        socket.pipe(upstream)
      })
      upstream.on('error', () => socket.destroy())
      socket.on('error', () => upstream.destroy())
    })
    proxyPort = await listen(proxy)
  })
  afterAll(async () => {
    await close(proxy)
    await target.stop()
  })

  it('HTTP_PROXY is honoured (checked in a child process: the proxy is read when undici loads)', async () => {
    const script = `
      import { connect } from ${JSON.stringify(new URL('../../dist/index.js', import.meta.url).href)}
      const session = await connect({ transport: 'http', url: 'http://mcp.example.test/mcp' })
      const result = await session.callTool('echo', { message: 'via proxy' })
      await session.close()
      console.log(JSON.stringify(result))`
    // Not execFileSync: the proxy runs in this process and must keep answering.
    const { stdout: output } = await promisify(execFile)(
      process.execPath,
      ['--input-type=module', '-e', script],
      {
        env: { ...process.env, HTTP_PROXY: `http://127.0.0.1:${proxyPort}`, NO_PROXY: '' },
        encoding: 'utf8',
      },
    )
    expect(JSON.parse(output)).toEqual({ content: [{ type: 'text', text: 'Echo: via proxy' }] })
    expect(
      proxied.some(
        (line) =>
          line === 'CONNECT mcp.example.test:80' || line.startsWith('POST http://mcp.example.test/mcp'),
      ),
    ).toBe(true)
  })
})
