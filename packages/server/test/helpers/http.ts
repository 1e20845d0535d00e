// Test helpers: real HTTP servers on 127.0.0.1 port 0, raw JSON-RPC over fetch, SDK clients,
// and bookkeeping so each test closes what it started and can assert it did (setup.ts).

import { request as httpRequest, type IncomingMessage } from 'node:http'
import { parseSseEvents } from '@mcp-kit/fixtures/sse'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { expect } from 'vitest'
import { type HttpServerOptions, type RunningHttpServer, startHttpServer } from '../../src/http/server.js'
import type { ToolRegistry } from '../../src/registry/registry.js'

const running = new Set<RunningHttpServer>()
const clients = new Set<Client>()

/** After each test (setup.ts): closes the clients and servers it started, and checks them closed. */
export async function closeStarted(): Promise<void> {
  for (const client of clients) await client.close().catch(() => {})
  clients.clear()
  for (const server of running) {
    await server.close({ graceMs: 0 })
    expect(server.server.listening).toBe(false)
    expect(server.handler.stats()).toEqual({ sessions: 0, inFlight: 0, streams: 0 })
  }
  running.clear()
}

/** Starts a server for one test; it is closed (and checked closed) after the test. */
export async function serve(
  registry: ToolRegistry,
  options: HttpServerOptions = {},
): Promise<RunningHttpServer> {
  const server = await startHttpServer(registry, options)
  running.add(server)
  return server
}

/** Closes a server inside a test (and checks it released everything). */
export async function stop(server: RunningHttpServer, graceMs = 0): Promise<void> {
  await server.close({ graceMs })
  running.delete(server)
  expect(server.server.listening).toBe(false)
  expect(server.handler.stats()).toEqual({ sessions: 0, inFlight: 0, streams: 0 })
}

export const accept = 'application/json, text/event-stream'

export const initializeBody = {
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'test', version: '1' } },
}

export interface RawResponse {
  status: number
  headers: Headers
  text: string
  json: unknown
}

export async function post(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<RawResponse> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })
  const text = await response.text()
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    json = undefined
  }
  return { status: response.status, headers: response.headers, text, json }
}

/** Initializes a session over raw HTTP; returns its id and the headers later requests need. */
export async function initialize(url: string, protocolVersion = '2025-11-25', capabilities = {}) {
  const response = await post(url, {
    ...initializeBody,
    params: { ...initializeBody.params, protocolVersion, capabilities },
  })
  expect(response.status).toBe(200)
  const sessionId = response.headers.get('mcp-session-id')
  expect(sessionId).toBeTruthy()
  const headers = { 'mcp-session-id': sessionId as string, 'mcp-protocol-version': protocolVersion }
  await post(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers)
  return { sessionId: sessionId as string, headers }
}

/** SSE events (id, retry, data) of a complete text/event-stream body. */
export { parseSseEvents as parseEvents } from '@mcp-kit/fixtures/sse'

/** An SDK client connected over Streamable HTTP; closed after the test. */
export async function sdkClient(
  url: string,
  capabilities: Record<string, unknown> = {},
  headers: Record<string, string> = {},
  fetchImpl?: typeof fetch,
): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const client = new Client({ name: 'sdk-test-client', version: '1.0.0' }, { capabilities })
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers },
    fetch: fetchImpl,
  })
  await client.connect(transport)
  clients.add(client)
  return { client, transport }
}

/** Polls until `check` is true (no timing assertions: only an upper bound to fail a stuck test). */
export async function eventually(check: () => boolean | Promise<boolean>, limitMs = 10_000): Promise<void> {
  const deadline = Date.now() + limitMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not reached in time')
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

export function sleep(milliseconds: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, milliseconds))
}

export interface RawHttpOptions {
  method?: string
  headers?: Record<string, string>
  body?: string | Buffer
  /** The client's own address, e.g. 127.0.0.2: loopback answers on all of 127.0.0.0/8. */
  localAddress?: string
}

export interface RawHttpResponse {
  status: number
  headers: Record<string, string | string[] | undefined>
  text: string
}

/** A request with full control over Host, body framing and the client's address (fetch has none). */
export function rawRequest(url: string, options: RawHttpOptions = {}): Promise<RawHttpResponse> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      url,
      { method: options.method ?? 'POST', headers: options.headers, localAddress: options.localAddress },
      (response) => {
        const chunks: Buffer[] = []
        response.on('data', (chunk: Buffer) => chunks.push(chunk))
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        )
      },
    )
    outgoing.on('error', reject)
    outgoing.end(options.body)
  })
}

/** Initializes a session from `localAddress` over raw HTTP; the response is returned as is. */
export function rawInitialize(url: string, localAddress?: string, headers: Record<string, string> = {}) {
  return rawRequest(url, {
    headers: { 'content-type': 'application/json', accept, ...headers },
    body: JSON.stringify(initializeBody),
    localAddress,
  })
}

export interface HeldStream {
  response: IncomingMessage
  /** Resolves when the server ends the stream (or the connection closes). */
  ended: Promise<void>
  /** Closes it from the client side. */
  close(): void
}

/** Opens a session's standalone GET stream and holds it open. */
export function holdStream(
  url: string,
  headers: Record<string, string>,
  localAddress?: string,
): Promise<HeldStream> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      url,
      { method: 'GET', headers: { accept: 'text/event-stream', ...headers }, localAddress },
      (response) => {
        if (response.statusCode !== 200) {
          response.resume()
          reject(new Error(`GET stream answered ${response.statusCode}`))
          return
        }
        response.resume()
        const ended = new Promise<void>((resolveEnded) => {
          response.once('end', resolveEnded)
          response.once('close', resolveEnded)
          response.once('error', () => resolveEnded())
        })
        resolve({ response, ended, close: () => outgoing.destroy() })
      },
    )
    outgoing.on('error', reject)
    outgoing.end()
  })
}

export interface OpenStream {
  status: number
  headers: Record<string, string | string[] | undefined>
  /** The JSON messages of the SSE events complete so far, as JSON.parse gives them. */
  messages(): ReturnType<typeof JSON.parse>[]
  /** Resolves when the server ends the answer (or the connection closes). */
  ended: Promise<void>
  /** Closes it from the client side: its connection is destroyed. */
  close(): void
}

/**
 * POSTs `body` and reads the answer as it streams, on a connection of its own (node:http without
 * an agent): closing it closes that connection, and nothing opens another (fetch's pool reconnects
 * after an aborted answer, and a connection that sent nothing holds a server's close for a second).
 */
export function postStream(url: string, body: unknown, headers: Record<string, string>): Promise<OpenStream> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      url,
      { method: 'POST', agent: false, headers: { 'content-type': 'application/json', accept, ...headers } },
      (response) => {
        let text = ''
        response.setEncoding('utf8')
        response.on('data', (chunk: string) => {
          text += chunk
        })
        const ended = new Promise<void>((resolveEnded) => {
          response.once('end', resolveEnded)
          response.once('close', resolveEnded)
          response.once('error', () => resolveEnded())
        })
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          messages: () =>
            parseSseEvents(text.slice(0, text.lastIndexOf('\n\n') + 2))
              .filter((event) => event.data !== '')
              .map((event) => JSON.parse(event.data)),
          ended,
          close: () => outgoing.destroy(),
        })
      },
    )
    outgoing.on('error', reject)
    outgoing.end(JSON.stringify(body))
  })
}
