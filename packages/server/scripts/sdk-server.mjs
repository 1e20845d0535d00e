// The anchor of the throughput comparison: the MCP SDK's recommended stateful Streamable HTTP
// server (McpServer + one StreamableHTTPServerTransport per session, createMcpExpressApp), with
// the same echo tool. Prints its URL on stderr like `mcp-kit serve`.
import { randomUUID } from 'node:crypto'
import { createRequire } from 'node:module'
import { createMcpExpressApp } from '@modelcontextprotocol/sdk/server/express.js'
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js'

const require = createRequire(require_resolve_sdk())
const { z } = require('zod')

function require_resolve_sdk() {
  return createRequire(import.meta.url).resolve('@modelcontextprotocol/sdk/server/mcp.js')
}

function createServer() {
  const server = new McpServer({ name: 'sdk-anchor', version: '1.0.0' })
  server.registerTool(
    'echo',
    { description: 'Returns the message it is given', inputSchema: { message: z.string() } },
    async ({ message }) => ({ content: [{ type: 'text', text: message }] }),
  )
  return server
}

const app = createMcpExpressApp()
const transports = new Map()
app.post('/mcp', async (request, response) => {
  const sessionId = request.headers['mcp-session-id']
  let transport = sessionId ? transports.get(sessionId) : undefined
  if (!transport) {
    if (sessionId || !isInitializeRequest(request.body)) {
      response.status(400).json({ jsonrpc: '2.0', error: { code: -32000, message: 'Bad Request' }, id: null })
      return
    }
    transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => transports.set(id, transport),
    })
    transport.onclose = () => transport.sessionId && transports.delete(transport.sessionId)
    await createServer().connect(transport)
  }
  await transport.handleRequest(request, response, request.body)
})
const listener = app.listen(0, '127.0.0.1', () => {
  console.error(`sdk anchor at http://127.0.0.1:${listener.address().port}/mcp`)
})
