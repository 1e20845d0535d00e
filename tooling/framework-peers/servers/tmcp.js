// A tmcp server (npm `tmcp`, an MCP server written apart from the official SDK), with its zod v3
// adapter; over its stdio transport or its HTTP transport served by @hono/node-server.
import { serve } from '@hono/node-server'
import { ZodV3JsonSchemaAdapter } from '@tmcp/adapter-zod-v3'
import { HttpTransport } from '@tmcp/transport-http'
import { StdioTransport } from '@tmcp/transport-stdio'
import { McpServer } from 'tmcp'
import { z } from 'zod'
import { addTool, greetingResource, greetPrompt, transportFromArgs } from './offerings.js'

const transport = transportFromArgs()
const server = new McpServer(
  { name: 'tmcp-peer', version: '1.0.0', description: 'mcp-kit interop peer' },
  { adapter: new ZodV3JsonSchemaAdapter(), capabilities: { tools: {}, resources: {}, prompts: {} } },
)
server.tool(
  {
    name: addTool.name,
    description: addTool.description,
    schema: z.object({ a: z.number().describe('first'), b: z.number().describe('second') }),
  },
  async (args) => ({ content: [{ type: 'text', text: addTool.sum(args) }] }),
)
server.resource(
  { name: greetingResource.name, description: 'A greeting', uri: greetingResource.uri('tmcp', transport) },
  async (uri) => ({
    contents: [{ uri, mimeType: greetingResource.mimeType, text: greetingResource.text('tmcp') }],
  }),
)
server.prompt(
  {
    name: greetPrompt.name,
    description: greetPrompt.description,
    schema: z.object({ name: z.string().describe(greetPrompt.argument.description) }),
  },
  async (args) => ({ messages: [{ role: 'user', content: { type: 'text', text: greetPrompt.text(args) } }] }),
)

if (transport.kind === 'http') {
  const http = new HttpTransport(server, { path: transport.path })
  serve({
    fetch: async (request) => (await http.respond(request)) ?? new Response(null, { status: 404 }),
    port: transport.port,
    hostname: transport.host,
  })
} else {
  new StdioTransport(server).listen()
}
