// A raw node:http server for transport tests: it records every request (method, path, headers,
// body) and hands it, body read, to the test's handler, so tests see exactly what went on the wire.

import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface RecordedRequest {
  method: string
  path: string
  headers: IncomingHttpHeaders
  body: string
  /** The body parsed as JSON, when it is. */
  json: Record<string, unknown> | undefined
}

export interface RawServer {
  url: string
  origin: string
  requests: RecordedRequest[]
  close(): Promise<void>
}

export async function startRawServer(
  handle: (request: RecordedRequest, response: ServerResponse) => void,
): Promise<RawServer> {
  const requests: RecordedRequest[] = []
  const server = createServer((incoming, response) => {
    let body = ''
    incoming.setEncoding('utf8')
    incoming.on('data', (text: string) => {
      body += text
    })
    incoming.on('end', () => {
      let json: Record<string, unknown> | undefined
      try {
        json = body === '' ? undefined : JSON.parse(body)
      } catch {
        json = undefined
      }
      const request = {
        method: incoming.method ?? '',
        path: incoming.url ?? '',
        headers: incoming.headers,
        body,
        json,
      }
      requests.push(request)
      handle(request, response)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    url: `${origin}/mcp`,
    origin,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** Writes a JSON-RPC message as one JSON body. */
export function answerJson(
  response: ServerResponse,
  message: unknown,
  headers: Record<string, string> = {},
): void {
  response.writeHead(200, { 'content-type': 'application/json', ...headers })
  response.end(JSON.stringify(message))
}

/** Answers `initialize` (request `id`) as a 2025-11-25 server named `name`, with session `s-1`. */
export function answerInitialize(response: ServerResponse, id: number, name = 'raw'): void {
  answerJson(
    response,
    {
      jsonrpc: '2.0',
      id,
      result: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name, version: '1' } },
    },
    { 'mcp-session-id': 's-1' },
  )
}

/** One SSE event carrying `message`. */
export function event(message: unknown, id?: string): string {
  return `${id === undefined ? '' : `id: ${id}\n`}event: message\ndata: ${JSON.stringify(message)}\n\n`
}

/** Resolves once `check` passes (polled), or fails with the last reason after `timeoutMs`. */
export async function eventually(check: () => void, timeoutMs = 5000): Promise<void> {
  const started = Date.now()
  for (;;) {
    try {
      check()
      return
    } catch (error) {
      if (Date.now() - started > timeoutMs) throw error
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
  }
}
