// What a user's program does with @mcp-kit/server, compiled against its built declarations under
// the strictest settings (tsconfig.json here): test/declarations.test.ts. Values a program would
// get from elsewhere are `declare`d.

import {
  createHttpHandler,
  createRuntime,
  createToolRegistry,
  type DefinedApp,
  defineApp,
  type HttpServerOptions,
  type JsonSchema,
  type MessageTransport,
  type ServerInfoOptions,
  serveStdio,
  startHttpServer,
  type ToolArguments,
  type ToolDefinition,
} from '@mcp-kit/server'
import { z } from 'zod'

declare const port: number | undefined
declare const token: string | undefined
declare const instructions: string | undefined
declare const upstreamSchema: JsonSchema

// Optional inputs take `undefined` as well as a missing key.
const info: ServerInfoOptions = { name: 'word-tools', version: '1.0.0', instructions }
const registry = createToolRegistry({ ...info, cache: { tools: { ttlMs: 1000 } } })
  .tool({
    name: 'repeat',
    description: undefined,
    inputSchema: {
      type: 'object',
      properties: { text: { type: 'string' }, times: { type: 'integer' } },
      required: ['text'],
    },
    outputSchema: { type: 'object', properties: { result: { type: 'string' } }, required: ['result'] },
    handler: ({ text, times }) => ({ result: text.repeat(times ?? 1) }),
  })
  .tool({
    name: 'shout',
    inputSchema: z.object({ text: z.string() }),
    handler: ({ text }) => text.toUpperCase(),
  })
  .prompt({
    name: 'summarize',
    arguments: [{ name: 'text', required: true }],
    get: ({ text }) => `Summarize: ${text}`,
  })

// A definition built elsewhere, as a gateway passes on an upstream's.
const passed: ToolDefinition = {
  name: 'relay',
  inputSchema: upstreamSchema,
  outputSchema: undefined,
  passthrough: true,
  handler: (args) => JSON.stringify(args),
}
registry.tool(passed)

const arguments_: ToolArguments<typeof upstreamSchema> = {}
console.log(arguments_)

const options: HttpServerOptions = { port, token, host: undefined, auth: undefined }
const server = await startHttpServer(registry, options)
const handler = createHttpHandler(registry, { stateless: undefined, onError: undefined })
const runtime = createRuntime(registry, { onTrace: undefined })
const result = await runtime.callTool('repeat', { text: 'a' }, { signal: undefined })
console.log(server.url, handler.stats(), result.structuredContent)

declare const transport: MessageTransport
const stdio = serveStdio(registry, { signal: undefined, name: undefined })
console.log(transport.sessionId, stdio)

// An MCP App: the view's URI must be ui://, the CSP's keys and the permissions are the spec's.
const app: DefinedApp = defineApp({
  uri: 'ui://clock/view',
  name: 'Clock',
  html: () => '<p>tick</p>',
  csp: { connectDomains: ['https://api.example.com'], resourceDomains: undefined },
  permissions: { clipboardWrite: {} },
  visibility: ['app'],
})
registry.resource(app.resource).tool({ name: 'clock', _meta: app.toolMeta, handler: () => 'noon' })
// @ts-expect-error: an app's view is a ui:// resource
defineApp({ uri: 'https://example.com/view', name: 'x', html: '' })
// @ts-expect-error: scriptDomains is no CSP key of the spec
defineApp({ uri: 'ui://x', name: 'x', html: '', csp: { scriptDomains: [] } })
// @ts-expect-error: usb is no permission of the spec
defineApp({ uri: 'ui://x', name: 'x', html: '', permissions: { usb: {} } })
