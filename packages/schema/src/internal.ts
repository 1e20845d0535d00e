// @mcp-kit/schema/internal — for mcp-kit's own packages (the server's tests), not public
// API and not covered by semver; the public API is src/index.ts. Pinned in test/exports.test.ts.

// How many schemas ajv compiled: the server's tests see that a registry compiles on first call

export type { ValidatorCacheStats } from './validate.js'
export { validatorCacheStats } from './validate.js'
