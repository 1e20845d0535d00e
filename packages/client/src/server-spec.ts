// How to reach a server: the same plain data @mcp-kit/profiles produces, @mcp-kit/core's type.

export type { HttpServerSpec, ServerSpec, StdioServerSpec } from '@mcp-kit/core'
