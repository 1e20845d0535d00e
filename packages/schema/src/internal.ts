// @mcp-kit/schema/internal — for mcp-kit's own packages (the client and the server), not public
// API and not covered by semver; the public API is src/index.ts. Pinned in test/exports.test.ts.

// MCP 2026-07-28 x-mcp-header: parameters mirrored into Mcp-Param-* headers, and the header
// value encoding shared with Mcp-Name

export type { ParamHeader, ParamHeadersResult } from './param-headers.js'
export {
  decodeHeaderValue,
  encodeHeaderValue,
  findParamHeaders,
  paramHeaderMismatch,
  paramHeadersFor,
} from './param-headers.js'

// How many schemas ajv compiled: the server's tests see that a registry compiles on first call

export type { ValidatorCacheStats } from './validate.js'
export { validatorCacheStats } from './validate.js'
