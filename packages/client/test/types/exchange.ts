// What a user's program does with @mcp-kit/client and @mcp-kit/schema, compiled against their
// built declarations under the strictest settings (tsconfig.json here): test/declarations.test.ts.
// Values a program would get from elsewhere are `declare`d.

import {
  ClientError,
  type ClientErrorCode,
  type ConnectOptions,
  compareGenerated,
  connect,
  type InputHandler,
  memoryEraCache,
  type ServerSpec,
  schemaFingerprint,
} from '@mcp-kit/client'
import { coerceArguments, diffTools, hashTools, summarizeChanges, validateArguments } from '@mcp-kit/schema'

declare const cwd: string | undefined
declare const timeoutMs: number | undefined
declare const token: string | undefined

// Optional inputs take `undefined` as well as a missing key.
const server: ServerSpec = { transport: 'stdio', command: 'node', args: ['server.js'], cwd }
const input: InputHandler = { elicit: undefined, roots: async () => [] }
const options: ConnectOptions = {
  callTimeoutMs: timeoutMs,
  bearerToken: token,
  eraCache: memoryEraCache(),
  input,
  signal: undefined,
}
const session = await connect(server, options)

// The tool list as the client gives it is what @mcp-kit/schema takes.
const tools = await session.listTools()
const hash: string = hashTools(tools)
const changes = diffTools(tools, await session.listTools())
console.log(hash, summarizeChanges(changes), compareGenerated(await schemaFingerprint(tools), tools))
const tool = await session.getTool('echo')
if (tool !== undefined) {
  const args = coerceArguments({ message: 'hi' }, tool.inputSchema)
  if (validateArguments(args, tool.inputSchema).ok) await session.callTool(tool.name, args, { timeoutMs })
}
const [first] = await session.listResources({ limit: 5, timeoutMs })
if (first !== undefined) await session.readResource(first.uri)

try {
  await session.readResource('file:///missing')
} catch (error) {
  if (ClientError.isInstance(error)) {
    const code: ClientErrorCode = error.code
    if (code === 'resource_not_found') console.log(error.message)
  }
}
await session.close()
