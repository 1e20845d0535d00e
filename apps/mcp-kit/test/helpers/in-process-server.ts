// A real MCP server in the test's own process (@mcp-kit/server over HTTP on 127.0.0.1), for unit
// tests of the CLI's connect and argument layers: no child process, no built code.

import { createToolRegistry, type RunningHttpServer, startHttpServer } from '@mcp-kit/server'

export async function startToolServer(): Promise<RunningHttpServer> {
  const registry = createToolRegistry()
    .tool({
      name: 'echo',
      inputSchema: {
        type: 'object',
        properties: { text: { type: 'string' }, count: { type: 'integer', minimum: 1 } },
        required: ['text'],
      },
      handler: (args) => JSON.stringify(args),
    })
    .tool({
      name: 'generate',
      inputSchema: {
        type: 'object',
        properties: { prompt: { type: 'string' }, style: { type: 'string' } },
        required: ['prompt'],
      },
      handler: (args) => JSON.stringify(args),
    })
  return startHttpServer(registry, { port: 0 })
}
