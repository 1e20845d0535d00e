// @mcp-kit/client — public API. Any new export added here becomes public API.
// Importing this module is cheap: the MCP SDK and undici load when a session connects.

// MCP result types, re-exported for convenience
export type {
  CallToolResult,
  GetPromptResult,
  Implementation,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
  ServerCapabilities,
  Tool,
} from '@modelcontextprotocol/sdk/types.js'
export type { ConnectOptions } from './connect.js'
// Connecting
export { connect } from './connect.js'
export type { EnvironmentOptions } from './environment.js'
export { buildEnvironment, inheritedEnvironmentNames } from './environment.js'
export type { ClientErrorCode, ClientErrorOptions } from './errors.js'
// Errors
export { ClientError } from './errors.js'
export { groupRunning, processRunning } from './process-group.js'
export type { ProcessExit, ProcessTransportOptions } from './process-transport.js'
// Stdio processes and their environment
export { formatBytes, ProcessTransport } from './process-transport.js'
export type { HttpServerSpec, ServerSpec, StdioServerSpec } from './server-spec.js'
export type { CallOptions, ListOptions, Progress, ToolFilter, TransportKind } from './session.js'
export { describeExit, filterTools, Session } from './session.js'
export type { TraceEntry, TraceKind } from './trace.js'
// Traces
export { redactArguments, traceServerName } from './trace.js'
