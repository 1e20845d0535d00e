// How to reach a server, as plain data: what @mcp-kit/profiles resolves a reference to and what
// @mcp-kit/client connects to.

/** A server launched as a child process speaking MCP over stdin/stdout. */
export interface StdioServerSpec {
  transport: 'stdio'
  command: string
  args: string[]
  env?: Record<string, string> | undefined
  cwd?: string | undefined
}

/** A server reached over Streamable HTTP (falling back to legacy SSE). */
export interface HttpServerSpec {
  transport: 'http'
  url: string
  headers?: Record<string, string> | undefined
}

export type ServerSpec = StdioServerSpec | HttpServerSpec
