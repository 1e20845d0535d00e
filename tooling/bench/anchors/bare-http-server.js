#!/usr/bin/env node
// The ceiling for HTTP tools/call throughput: a bare `node:http` server that reads each POST body,
// parses it for its id and answers the JSON-RPC result an echo tool would give. No sessions, no
// validation, no protocol: whatever an MCP server does costs something on top of this.
// Usage: node bare-http-server.js [port] — prints "listening on http://127.0.0.1:PORT/mcp" on stderr.

import { createServer } from 'node:http'

const server = createServer((request, response) => {
  const chunks = []
  request.on('data', (chunk) => chunks.push(chunk))
  request.on('end', () => {
    let message
    try {
      message = JSON.parse(Buffer.concat(chunks).toString('utf8'))
    } catch {
      response.writeHead(400).end()
      return
    }
    const text = message?.params?.arguments?.message ?? ''
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: message?.id ?? null,
      result: { content: [{ type: 'text', text }] },
    })
    response.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 'bare' })
    response.end(body)
  })
})
server.listen(Number(process.argv[2] ?? 0), '127.0.0.1', () => {
  process.stderr.write(`listening on http://127.0.0.1:${server.address().port}/mcp\n`)
})
process.on('SIGTERM', () => {
  server.closeAllConnections()
  server.close(() => process.exit(0))
})
