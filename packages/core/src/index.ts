// @mcp-kit/core — the vocabulary mcp-kit's packages share: the error base, protocol revisions by era, JSON-RPC
// error codes, the `Mcp-Name` method table and the `Mcp-Param-*` header rules, the server spec, the trace entry and JSON value narrowing. No runtime dependencies.

export type { KitErrorOptions } from './errors.js'
export { isKitError, KitError } from './errors.js'
export type { NamedField } from './headers.js'
export { mcpNameField, mcpNameFields } from './headers.js'
export type { ParamHeader, ParamHeadersResult } from './param-headers.js'
export {
  decodeHeaderValue,
  encodeHeaderValue,
  findParamHeaders,
  paramHeaderMismatch,
  paramHeadersFor,
} from './param-headers.js'
export type { RpcCode } from './rpc-codes.js'
export { rpcCodes } from './rpc-codes.js'
export type { HttpServerSpec, ServerSpec, StdioServerSpec } from './server-spec.js'
export type { TraceEntry, TraceKind } from './trace.js'
export { redactArguments } from './trace.js'
export { isRecord } from './values.js'
export type { Era } from './versions.js'
export {
  defaultLegacyVersion,
  isLegacyVersion,
  isModernVersion,
  latestLegacyVersion,
  latestModernVersion,
  legacyProtocolVersions,
  modernProtocolVersions,
  protocolVersions,
  resumableStreamsSince,
} from './versions.js'
