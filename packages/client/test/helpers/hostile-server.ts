// For tests: a raw node:http MCP endpoint (Streamable HTTP, 2025-11-25) that behaves until a tool is called,
// then answers the call the hostile way its `mode` names. Bodies are generated as they are sent
// (never allocated whole) and stop when the client goes away. `ordinary` answers normally, as the
// baseline for memory comparisons.
//
// Modes: ordinary | endless-event (an SSE event that never ends) | huge-json (a 200 MB JSON
// result, Content-Length declared) | chunked-gigabyte (1 GB of JSON, chunked, no length) |
// keep-alive (an SSE stream of comment lines every `keepAliveMs`, never an answer).

import { createServer, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

const chunk = Buffer.alloc(64 * 1024, 'x')

/** Writes `prefix`, then `total` bytes of filler (Infinity: forever), then `suffix`, honouring back-pressure. */
function stream(
  response: ServerResponse,
  prefix: string,
  total: number,
  suffix: string,
  onBytes: (bytes: number) => void,
): void {
  let sent = 0
  response.write(prefix)
  const pump = () => {
    while (!response.destroyed && sent < total) {
      const piece = total - sent >= chunk.length ? chunk : chunk.subarray(0, total - sent)
      sent += piece.length
      onBytes(piece.length)
      if (!response.write(piece)) {
        response.once('drain', pump)
        return
      }
    }
    if (!response.destroyed) response.end(suffix)
  }
  pump()
}

export type HostileMode = 'ordinary' | 'endless-event' | 'huge-json' | 'chunked-gigabyte' | 'keep-alive'

export async function startHostileHttpServer(options: { mode: HostileMode; keepAliveMs?: number }) {
  const { mode } = options
  const stats = { requests: [] as Array<{ method?: string; body: string }>, bytesSent: 0, keepAlivesSent: 0 }
  const timers = new Set<NodeJS.Timeout>()
  const server = createServer((request, response) => {
    let body = ''
    request.setEncoding('utf8')
    request.on('data', (text: string) => {
      body += text
    })
    request.on('end', () => {
      stats.requests.push({ method: request.method, body })
      if (request.method !== 'POST') {
        response.writeHead(405).end()
        return
      }
      const message = JSON.parse(body) as { id?: number | string; method?: string }
      const answer = (result: unknown) => {
        const text = JSON.stringify({ jsonrpc: '2.0', id: message.id, result })
        response.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 'hostile-session' })
        response.end(text)
      }
      if (message.id === undefined) return void response.writeHead(202).end()
      if (message.method === 'initialize') {
        return answer({
          protocolVersion: '2025-11-25',
          capabilities: { tools: {} },
          serverInfo: { name: `hostile-${mode}`, version: '1.0.0' },
        })
      }
      if (message.method === 'tools/list') {
        return answer({ tools: [{ name: 'x', inputSchema: { type: 'object', properties: {} } }] })
      }
      if (message.method !== 'tools/call') return answer({})
      const head = `{"jsonrpc":"2.0","id":${JSON.stringify(message.id)},"result":{"content":[{"type":"text","text":"`
      const tail = '"}]}}'
      const count = (bytes: number) => {
        stats.bytesSent += bytes
      }
      switch (mode) {
        case 'ordinary':
          return answer({ content: [{ type: 'text', text: 'ordinary' }] })
        case 'endless-event':
          response.writeHead(200, { 'content-type': 'text/event-stream' })
          return stream(response, `event: message\ndata: ${head}`, Number.POSITIVE_INFINITY, '', count)
        case 'huge-json': {
          const total = 200 * 1024 * 1024
          response.writeHead(200, {
            'content-type': 'application/json',
            'content-length': String(Buffer.byteLength(head) + total + Buffer.byteLength(tail)),
          })
          return stream(response, head, total, tail, count)
        }
        case 'chunked-gigabyte':
          response.writeHead(200, { 'content-type': 'application/json' })
          return stream(response, head, 1024 * 1024 * 1024, tail, count)
        case 'keep-alive': {
          response.writeHead(200, { 'content-type': 'text/event-stream' })
          const timer = setInterval(() => {
            if (response.destroyed) return clearInterval(timer)
            response.write(': keep-alive\n\n')
            stats.keepAlivesSent++
          }, options.keepAliveMs ?? 50)
          timers.add(timer)
          response.once('close', () => clearInterval(timer))
          return
        }
        default:
          response.writeHead(500).end(`unknown mode ${mode}`)
      }
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    stats,
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearInterval(timer)
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
