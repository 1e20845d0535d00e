// @mcp-kit/server — public API. Any new export added here becomes public API; the sorted export
// list is pinned in test/exports.test.ts so that growth is a conscious act. What only mcp-kit's
// own packages use is in src/internal.ts.
// (Each group comment stands apart so that import sorting keeps the groups.)

// Registry: what a server offers

export type {
  Completer,
  JsonSchema,
  ListCaller,
  ListName,
  ListView,
  PromptArgument,
  PromptDefinition,
  PromptOutput,
  RegistryEvent,
  ResourceDefinition,
  ResourceMatch,
  ResourceOutput,
  ResourceTemplateDefinition,
  ServerInfoOptions,
  TaskSupport,
  ToolCommon,
  ToolDefinition,
  ToolOutput,
  ToolRegistry,
  ToolRegistryOptions,
  TypedPromptDefinition,
  TypedToolDefinition,
} from './registry/registry.js'

// Types from schemas: handler arguments and results from JSON Schema literals or validators

export type {
  FromJsonSchema,
  InferSchema,
  JsonSchemaLiteral,
  JsonTypeName,
  PromptArguments,
  StandardSchema,
  ToolArguments,
  ToolResult,
  ToolSchema,
} from './registry/registry.js'
export { createToolRegistry, isToolRegistry } from './registry/registry.js'

// MCP Apps (io.modelcontextprotocol/ui): a tool's HTML view as a ui:// resource, with its CSP

export type { AppCsp, AppDefinition, AppPermissions, AppVisibility, DefinedApp } from './registry/app.js'
export { defineApp } from './registry/app.js'

// Handler context: cancellation, progress, logging, sampling, elicitation

export type {
  AuthInfo,
  ElicitationRequest,
  HandlerContext,
  InputRequest,
  LoggingLevel,
  SamplingRequest,
  SamplingResult,
  TraceContext,
} from './context.js'

// Embedded runtime: the registry in-process, with validation and traces

export type {
  Completion,
  CompletionReference,
  Runtime,
  RuntimeCallOptions,
  RuntimeOptions,
} from './runtime/runtime.js'
export { createRuntime } from './runtime/runtime.js'
export type { TraceAnnotations, TraceEntry, TraceKind } from './trace.js'

// Serving: stdio, Streamable HTTP, or any SDK transport

export type { OAuthResource, OAuthResourceOptions, Refusal, Verdict } from './auth/oauth-resource.js'
export { createOAuthResource } from './auth/oauth-resource.js'
/** Who a request's authentication says is asking, as one comparable string (see the README). */
export { principalOf } from './auth/principal.js'
export type { ConnectionStats } from './http/guard/connection-guard.js'
export type { GuardOptions } from './http/guard/request-guard.js'
export type { ExtraRoute, HttpHandler, HttpHandlerOptions, HttpHandlerStats } from './http/handler.js'
export { createHttpHandler } from './http/handler.js'
export type { HttpServerOptions, RunningHttpServer } from './http/server.js'
export { startHttpServer } from './http/server.js'
export type { ProtocolServerOptions } from './server/core.js'
export type { MessageTransport } from './server/protocol-server.js'
export { createProtocolServer, ProtocolServer } from './server/protocol-server.js'
export type { StdioServeOptions } from './stdio/serve.js'
export { serveStdio } from './stdio/serve.js'

// Shared state for several instances: in memory, or on Redis

export type { RedisStoreOptions } from './store/redis/options.js'
export { redisStore } from './store/redis/store.js'
export type { Store, TokenBucket, TokensTaken, WriteOptions } from './store/store.js'
export { memoryStore } from './store/store.js'

// Tasks (the io.modelcontextprotocol/tasks extension): where task records live

export type { TaskOptions } from './tasks/options.js'
export type {
  MemoryTaskStoreOptions,
  TaskError,
  TaskRecord,
  TaskStatus,
  TaskStore,
} from './tasks/store.js'
export { memoryTaskStore } from './tasks/store.js'

// Errors

export type { ServerErrorCode, ServerErrorOptions } from './errors.js'
export { ServerError } from './errors.js'
/** A JSON-RPC error to answer as it is (code, message, data), e.g. one a gateway's upstream gave. */
export { RpcFailure } from './protocol/rpc.js'
