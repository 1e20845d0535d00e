// @mcp-kit/server — public API. Any new export added here becomes public API.

export { createDemoRegistry } from './demo.js'
export type { ServerErrorCode, ServerErrorOptions } from './errors.js'
// Errors
export { ServerError } from './errors.js'
export type { ProtocolServerOptions } from './protocol-server.js'
// Serving
export { createProtocolServer } from './protocol-server.js'
export type {
  HandlerContext,
  JsonSchema,
  PromptArgument,
  PromptDefinition,
  ResourceDefinition,
  ToolDefinition,
  ToolOutput,
  ToolRegistry,
} from './registry.js'
// Registry
export { createToolRegistry, isToolRegistry } from './registry.js'
export type { StdioServeOptions } from './stdio.js'
export { serveStdio } from './stdio.js'
