// @hono/mcp: the MCP SDK's McpServer behind Hono's Streamable HTTP transport, as its README sets it
// up (one transport for the app), served by @hono/node-server. HTTP only.

import { StreamableHTTPTransport } from '@hono/mcp'
import { serve } from '@hono/node-server'
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { Hono } from 'hono'
import { z } from 'zod'
import { addTool, greetingResource, greetPrompt, transportFromArgs } from './offerings.js'

const { port, host, kind } = transportFromArgs()
const mcpServer = new McpServer({ name: 'hono-mcp-peer', version: '1.0.0' })
mcpServer.registerTool(
  addTool.name,
  {
    description: addTool.description,
    inputSchema: { a: z.number().describe('first'), b: z.number().describe('second') },
  },
  async (args) => ({ content: [{ type: 'text', text: addTool.sum(args) }] }),
)
mcpServer.registerResource(
  greetingResource.name,
  greetingResource.uri('hono-mcp', { kind }),
  { mimeType: greetingResource.mimeType },
  async (uri) => ({
    contents: [
      { uri: uri.href, mimeType: greetingResource.mimeType, text: greetingResource.text('@hono/mcp') },
    ],
  }),
)
mcpServer.registerPrompt(
  greetPrompt.name,
  {
    description: greetPrompt.description,
    argsSchema: { name: z.string().describe(greetPrompt.argument.description) },
  },
  (args) => ({ messages: [{ role: 'user', content: { type: 'text', text: greetPrompt.text(args) } }] }),
)

const transport = new StreamableHTTPTransport()
const app = new Hono()
app.all('/mcp', async (context) => {
  if (!mcpServer.isConnected()) await mcpServer.connect(transport)
  return transport.handleRequest(context)
})

serve({ fetch: app.fetch, port, hostname: host })
