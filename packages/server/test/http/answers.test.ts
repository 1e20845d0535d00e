// Every error the request path answers has one shape, written by one function (answers.ts):
// the status, a JSON-RPC error body `{"jsonrpc":"2.0","error":{code,message},"id":…}` with its
// Content-Length, and the request's CORS headers — whichever stage refused it.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, test } from 'vitest'
import { createDemoRegistry } from '../../src/registry/demo.js'
import { accept, initialize, initializeBody, serve } from '../helpers/http.js'

const modernMeta = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
}

test('the errors of every stage share one shape: status, JSON-RPC body, Content-Length, CORS', async () => {
  const server = await serve(createDemoRegistry())
  const origin = `http://localhost:${server.port}`
  const { headers: session } = await initialize(server.url)
  const send = (method: string, body: string | undefined, headers: Record<string, string> = {}) =>
    fetch(server.url, {
      method,
      headers: { origin, 'content-type': 'application/json', accept, ...headers },
      body,
    })
  const post = (body: unknown, headers: Record<string, string> = {}) =>
    send('POST', typeof body === 'string' ? body : JSON.stringify(body), headers)
  const list = { jsonrpc: '2.0', id: 7, method: 'tools/list' }
  const cases: Array<[string, () => Promise<Response>, number, number]> = [
    ['media type', () => post(list, { 'content-type': 'text/plain' }), 415, -32000],
    ['Accept', () => post(list, { accept: 'text/html' }), 406, -32000],
    ['JSON', () => post('{'), 400, -32700],
    ['batch', () => post([list]), 400, -32600],
    ['envelope', () => post({ jsonrpc: '1.0', id: 1, method: 'x' }), 400, -32600],
    ['version', () => post(list, { 'mcp-protocol-version': '1999-01-01' }), 400, -32000],
    ['no session', () => post(list), 400, -32000],
    ['unknown session', () => post(list, { ...session, 'mcp-session-id': 'nobody' }), 404, -32001],
    ['initialized twice', () => post(initializeBody, session), 400, -32600],
    ['method', () => send('PUT', undefined), 405, -32000],
    ['GET without a session', () => send('GET', undefined, { accept: 'text/event-stream' }), 400, -32000],
    [
      'DELETE of an unknown session',
      () => send('DELETE', undefined, { 'mcp-session-id': 'nobody' }),
      404,
      -32001,
    ],
    [
      '2026 subscription without SSE',
      () =>
        post(
          { jsonrpc: '2.0', id: 9, method: 'subscriptions/listen', params: { _meta: modernMeta } },
          { accept: 'application/json' },
        ),
      406,
      -32600,
    ],
  ]
  for (const [stage, request, status, code] of cases) {
    const response = await request()
    const text = await response.text()
    expect({ stage, status: response.status }).toEqual({ stage, status })
    expect(response.headers.get('content-type'), stage).toBe('application/json')
    expect(response.headers.get('content-length'), stage).toBe(String(Buffer.byteLength(text)))
    expect(response.headers.get('access-control-allow-origin'), stage).toBe(origin)
    const body = JSON.parse(text) as Record<string, unknown>
    expect(Object.keys(body).sort(), stage).toEqual(['error', 'id', 'jsonrpc'])
    expect(body.jsonrpc, stage).toBe('2.0')
    expect(Object.keys(body.error as object).sort(), stage).toEqual(['code', 'message'])
    expect((body.error as { code: number }).code, stage).toBe(code)
  }
})

test('src/http builds JSON-RPC error bodies in answers.ts only', () => {
  const http = fileURLToPath(new URL('../../src/http/', import.meta.url))
  const files = (directory: string): string[] =>
    readdirSync(directory).flatMap((name) => {
      const path = join(directory, name)
      return statSync(path).isDirectory() ? files(path) : [path]
    })
  const writers = files(http)
    .filter((file) => /\berror:\s*\{/.test(readFileSync(file, 'utf8')))
    .map((file) => relative(http, file))
  expect(writers).toEqual(['answers.ts'])
})
