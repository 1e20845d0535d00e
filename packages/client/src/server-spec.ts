// How to reach a server: the same plain data @mcp-kit/profiles produces (kept here as a type so
// the client depends on no other mcp-kit package).

export interface StdioServerSpec {
  transport: 'stdio'
  command: string
  args: string[]
  env?: Record<string, string> | undefined
  cwd?: string | undefined
}

export interface HttpServerSpec {
  transport: 'http'
  url: string
  headers?: Record<string, string> | undefined
}

export type ServerSpec = StdioServerSpec | HttpServerSpec
