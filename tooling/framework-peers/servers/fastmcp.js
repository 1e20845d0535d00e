// A fastmcp server (npm `fastmcp`), over stdio or its `httpStream` transport.
import { FastMCP } from 'fastmcp'
import { z } from 'zod'
import { addTool, greetingResource, greetPrompt, transportFromArgs } from './offerings.js'

const transport = transportFromArgs()
const server = new FastMCP({ name: 'fastmcp-peer', version: '1.0.0' })
server.addTool({
  name: addTool.name,
  description: addTool.description,
  parameters: z.object({ a: z.number().describe('first'), b: z.number().describe('second') }),
  execute: async (args) => addTool.sum(args),
})
server.addResource({
  uri: greetingResource.uri('fastmcp', transport),
  name: greetingResource.name,
  mimeType: greetingResource.mimeType,
  load: async () => ({ text: greetingResource.text('fastmcp') }),
})
server.addPrompt({
  name: greetPrompt.name,
  description: greetPrompt.description,
  arguments: [greetPrompt.argument],
  load: async (args) => greetPrompt.text(args),
})

if (transport.kind === 'http') {
  await server.start({
    transportType: 'httpStream',
    httpStream: { port: transport.port, host: transport.host, endpoint: transport.path },
  })
} else {
  await server.start({ transportType: 'stdio' })
}
