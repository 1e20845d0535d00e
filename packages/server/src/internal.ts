// @mcp-kit/server/internal — for mcp-kit's own packages (the CLI's `serve`, @mcp-kit/openapi), not public API and not
// covered by semver; the public API is src/index.ts. Pinned in test/exports.test.ts.

// Schemas built bottom-up (an OpenAPI document's) sealed as they are made, so registering them
// walks none of them again
export { sealJson } from './registry/checks.js'
// The bundled demo: what `mcp-kit serve` serves without a module
export { createDemoRegistry } from './registry/demo.js'
// Serving one registry over stdio without loading the HTTP side, the stores and the rest of the
// package's index (`serve --stdio --openapi` of a large API starts sooner)
export { createToolRegistry } from './registry/registry.js'
export { serveStdio } from './stdio/serve.js'
// A store URL checked before connecting, and shown without its password (for the CLI's messages)
export { redactedUrl, redisUrlProblem } from './store/redis/url.js'
