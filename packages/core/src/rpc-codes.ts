// The JSON-RPC error codes of MCP (2025-11-25 and 2026-07-28) and mcp-kit, by name: a code is
// written as a number here and nowhere else (test/boundary.test.ts checks the other packages).

export const rpcCodes = {
  /** JSON-RPC: the text is not JSON. */
  parseError: -32700,
  /** JSON-RPC: the JSON is not a request. */
  invalidRequest: -32600,
  /** JSON-RPC: no such method (also a notification-only or unknown method called as a request). */
  methodNotFound: -32601,
  /** JSON-RPC: the params are wrong; also an unknown tool or prompt, and (2026-07-28) a missing resource. */
  invalidParams: -32602,
  /** JSON-RPC: the server failed in a way it does not say more about. */
  internalError: -32603,
  /** Transport-level failures (the SDK's ConnectionClosed; HTTP errors without a request id); also too many tasks running. */
  transportError: -32000,
  /** 2025-11-25 Streamable HTTP: the session id is not (or no longer) known. */
  sessionNotFound: -32001,
  /** 2025-11-25 only; 2026-07-28 answers a missing resource with invalidParams. */
  resourceNotFound: -32002,
  /** 2026-07-28: a standard header (`Mcp-Method`, `Mcp-Name`, `Mcp-Param-*`) disagrees with the body. */
  headerMismatch: -32020,
  /** 2026-07-28: the request needs a client capability (or extension) it did not declare. */
  missingClientCapability: -32021,
  /** 2026-07-28: the request's protocol version is not one the server speaks. */
  unsupportedProtocolVersion: -32022,
  /** mcp-kit's gateway: a rate limit refused the call. */
  rateLimited: -32029,
} as const

/** One of the codes above. */
export type RpcCode = (typeof rpcCodes)[keyof typeof rpcCodes]
