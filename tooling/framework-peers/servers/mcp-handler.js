// mcp-handler (Vercel's adapter, on the MCP SDK v2): a fetch handler mounted on a Hono route and
// served by @hono/node-server, as it would be in any Fetch-style framework. HTTP only.
import { serve } from '@hono/node-server'
import { fromJsonSchema } from '@modelcontextprotocol/server'
import { Hono } from 'hono'
import { createMcpHandler } from 'mcp-handler'
import { addTool, greetingResource, greetPrompt, transportFromArgs } from './offerings.js'

const { port, host, kind } = transportFromArgs()
const { inputSchema } = addTool
const handler = createMcpHandler(
  (server) => {
    server.registerTool(
      addTool.name,
      { description: addTool.description, inputSchema: fromJsonSchema(inputSchema) },
      async (args) => ({ content: [{ type: 'text', text: addTool.sum(args) }] }),
    )
    server.registerResource(
      greetingResource.name,
      greetingResource.uri('mcp-handler', { kind }),
      { mimeType: greetingResource.mimeType },
      async (uri) => ({
        contents: [
          { uri: uri.href, mimeType: greetingResource.mimeType, text: greetingResource.text('mcp-handler') },
        ],
      }),
    )
    server.registerPrompt(
      greetPrompt.name,
      {
        description: greetPrompt.description,
        argsSchema: fromJsonSchema({
          type: 'object',
          properties: { name: { type: 'string', description: greetPrompt.argument.description } },
          required: ['name'],
        }),
      },
      (args) => ({ messages: [{ role: 'user', content: { type: 'text', text: greetPrompt.text(args) } }] }),
    )
  },
  { serverInfo: { name: 'mcp-handler-peer', version: '1.0.0' } },
)

const app = new Hono()
app.all('/mcp', (context) => handler(context.req.raw))

serve({ fetch: app.fetch, port, hostname: host })
