// An mcp-framework server (npm `mcp-framework`): tools, resources and prompts are classes, added
// here by code rather than found in a project's folders; stdio or its `http-stream` transport.
import { MCPPrompt, MCPResource, MCPServer, MCPTool } from 'mcp-framework'
import { z } from 'zod'
import { addTool, greetingResource, greetPrompt, transportFromArgs } from './offerings.js'

const transport = transportFromArgs()

class AddTool extends MCPTool {
  name = addTool.name
  description = addTool.description
  schema = z.object({ a: z.number().describe('first'), b: z.number().describe('second') })
  async execute(input) {
    return addTool.sum(input)
  }
}

class GreetingResource extends MCPResource {
  uri = greetingResource.uri('mcp-framework', transport)
  name = greetingResource.name
  mimeType = greetingResource.mimeType
  async read() {
    return [{ uri: this.uri, mimeType: this.mimeType, text: greetingResource.text('mcp-framework') }]
  }
}

class GreetPrompt extends MCPPrompt {
  name = greetPrompt.name
  description = greetPrompt.description
  schema = {
    name: { type: z.string(), description: greetPrompt.argument.description, required: true },
  }
  async generateMessages(args) {
    return [{ role: 'user', content: { type: 'text', text: greetPrompt.text(args) } }]
  }
}

const server = new MCPServer({
  name: 'mcp-framework-peer',
  version: '1.0.0',
  // Nothing to discover on disk: everything is added below.
  basePath: new URL('.', import.meta.url).pathname,
  transport:
    transport.kind === 'http'
      ? {
          type: 'http-stream',
          options: { port: transport.port, host: transport.host, endpoint: transport.path },
        }
      : { type: 'stdio' },
})
server.addTool(AddTool)
server.addResource(GreetingResource)
server.addPrompt(GreetPrompt)
await server.start()
