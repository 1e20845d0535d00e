#!/usr/bin/env node
// Anchor for `mcp-kit serve --port`: the MCP SDK's recommended stateful Streamable HTTP server, as
// in the SDK's README and its simpleStreamableHttp example: `createMcpExpressApp()`, one
// `StreamableHTTPServerTransport` and one `McpServer` per session, an `echo` tool with a zod
// schema. No event store (resumability off), no logging per request: the lean form of the example.
// Usage: node sdk-http-server.js [port] — prints "listening on http://127.0.0.1:PORT/mcp" on stderr.

import { randomUUID } from 'node:crypto'
import { createMcpExpressApp } from '@modelcontextprotocol/sdk/server/express.js'
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js'
import { z } from 'zod'

function createServer() {
  const server = new McpServer({ name: 'sdk-echo', version: '1.0.0' })
  server.registerTool(
    'echo',
    { description: 'Returns the message it is given', inputSchema: { message: z.string() } },
    async ({ message }) => ({ content: [{ type: 'text', text: message }] }),
  )
  return server
}

/** @type {Map<string, StreamableHTTPServerTransport>} */
const transports = new Map()
const app = createMcpExpressApp()

app.post('/mcp', async (request, response) => {
  const sessionId = request.headers['mcp-session-id']
  let transport = sessionId ? transports.get(sessionId) : undefined
  if (!transport) {
    if (sessionId || !isInitializeRequest(request.body)) {
      response.status(sessionId ? 404 : 400).json({
        jsonrpc: '2.0',
        error: { code: -32000, message: 'Bad Request: No valid session ID provided' },
        id: null,
      })
      return
    }
    const newTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => transports.set(id, newTransport),
    })
    newTransport.onclose = () => {
      if (newTransport.sessionId) transports.delete(newTransport.sessionId)
    }
    await createServer().connect(newTransport)
    transport = newTransport
  }
  await transport.handleRequest(request, response, request.body)
})

async function handleSessionRequest(request, response) {
  const transport = transports.get(request.headers['mcp-session-id'])
  if (!transport) {
    response.status(400).send('Invalid or missing session ID')
    return
  }
  await transport.handleRequest(request, response)
}
app.get('/mcp', handleSessionRequest)
app.delete('/mcp', handleSessionRequest)

const httpServer = app.listen(Number(process.argv[2] ?? 0), '127.0.0.1', () => {
  process.stderr.write(`listening on http://127.0.0.1:${httpServer.address().port}/mcp\n`)
})
process.on('SIGTERM', () => {
  httpServer.closeAllConnections()
  httpServer.close(() => process.exit(0))
})
