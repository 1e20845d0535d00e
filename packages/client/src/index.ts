// @mcp-kit/client — public API. Any new export added here becomes public API; the list is pinned in
// test/exports.test.ts. What only mcp-kit's own packages use is in src/internal.ts.
// Importing this module is cheap: the MCP SDK and undici load when a session connects.

export type { Era } from '@mcp-kit/core'
export { modernProtocolVersions } from '@mcp-kit/core'
// MCP result types, re-exported for convenience
export type {
  CallToolResult,
  ElicitRequestParams,
  ElicitResult,
  GetPromptResult,
  Implementation,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplateType as ResourceTemplate,
  Root,
  ServerCapabilities,
  Tool,
} from '@modelcontextprotocol/client'
// OAuth: credentials and logins
export type { CredentialData, CredentialStore, TokenEntry } from './auth/credential-store.js'
export {
  defaultCredentialsPath,
  fileCredentialStore,
  memoryCredentialStore,
} from './auth/credential-store.js'
export type { LoopbackOptions } from './auth/loopback.js'
export { loopbackAuthorizer } from './auth/loopback.js'
export type { AuthHook, OAuthHookOptions } from './auth/oauth.js'
export { createOAuthHook } from './auth/oauth.js'
export type { Authorizer, OAuthSettings } from './auth/provider.js'
export { serverKey as credentialKey } from './auth/provider.js'
export type { LogoutResult } from './auth/revoke.js'
export { logout } from './auth/revoke.js'
// Connecting, in whichever protocol era the server speaks
export { connect } from './connect/connect.js'
export type { EraCache } from './connect/era-cache.js'
export { fileEraCache, memoryEraCache, noEraCache } from './connect/era-cache.js'
export type { ConnectOptions } from './connect/options.js'
export type { ClientErrorCode, ClientErrorOptions } from './errors.js'
// Errors
export { ClientError } from './errors.js'
export type { MessageObserver } from './protocol/connection.js'
export type { InputContext, InputHandler, SamplingRequest, SamplingResult } from './protocol/input.js'
export { capabilitiesOf } from './protocol/input.js'
export type { Negotiated, ProtocolChoice } from './protocol/negotiate.js'
// Tasks: calls a server turned into tasks, followed to their end
export type { TaskDetails, TaskState, TaskStatus } from './protocol/tasks.js'
export type { HttpServerSpec, ServerSpec, StdioServerSpec } from './server-spec.js'
export { describeExit, Session } from './session/session.js'
export type { TraceEntry, TraceKind } from './session/trace.js'
// Traces
export { redactArguments } from './session/trace.js'
export type {
  BorrowOptions,
  CacheHint,
  CallOptions,
  Completion,
  CompletionReference,
  ListOptions,
  Progress,
  ToolFilter,
  ToolStart,
  TransportKind,
} from './session/types.js'
export type { WatchedNotification, WatchOptions } from './session/watch.js'
// Stdio processes and their environment: the transport is made by connect(), so it is a type here
export { inheritedEnvironmentNames } from './stdio/environment.js'
export type { ProcessExit, ProcessTransport } from './stdio/process-transport.js'
// Generated typed clients (`mcp-kit generate`): their runtime and their schema check
export type { SchemaPolicy } from './typed-clients/drift-policy.js'
export { describeDrift } from './typed-clients/drift-policy.js'
export type { GeneratedConnectOptions, GeneratedServer, ToolContent } from './typed-clients/open-generated.js'
export { callForContent, callForStructured, openGenerated } from './typed-clients/open-generated.js'
export type { GeneratedTool, SchemaDrift, SchemaFingerprint } from './typed-clients/schema-drift.js'
export { compareGenerated, schemaFingerprint } from './typed-clients/schema-drift.js'
