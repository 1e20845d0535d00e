// Serves a registry over stdio: newline-delimited JSON-RPC on stdin/stdout, nothing else on
// stdout, and the process's work is done when stdin closes.

import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { createProtocolServer, type ProtocolServerOptions } from './protocol-server.js'
import type { ToolRegistry } from './registry.js'

export interface StdioServeOptions extends ProtocolServerOptions {
  stdin?: NodeJS.ReadableStream
  stdout?: NodeJS.WritableStream
}

/** Serves until stdin ends; resolves when the session is closed. */
export async function serveStdio(registry: ToolRegistry, options: StdioServeOptions = {}): Promise<void> {
  const server = createProtocolServer(registry, options)
  const stdin = (options.stdin ?? process.stdin) as NodeJS.ReadStream
  const transport = new StdioServerTransport(stdin, (options.stdout ?? process.stdout) as NodeJS.WriteStream)
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve()
  })
  const unsubscribe = registry.onChange((kind) => {
    if (kind === 'tools') void server.sendToolListChanged().catch(() => {})
    else if (kind === 'resources') void server.sendResourceListChanged().catch(() => {})
    else void server.sendPromptListChanged().catch(() => {})
  })
  stdin.once('end', () => void server.close())
  await server.connect(transport)
  await closed
  unsubscribe()
}
