// @mcp-kit/client/internal — for mcp-kit's own packages (the CLI, and the gateway's and the CLI's
// tests), not public API and not covered by semver; the public API is src/index.ts. Pinned in
// test/exports.test.ts. Cheap to import, as the main entry: no MCP SDK, no undici.

// The era cache's file, with the environment given (the CLI's own, in its tests)
export { defaultEraCachePath } from './connect/era-cache.js'
// How traces name a server (the CLI's message entries name it the same way)
export { traceServerName } from './session/trace.js'
// A stdio server's environment, as connect() builds it (the CLI keys warm sessions by it)
export type { EnvironmentOptions } from './stdio/environment.js'
export { buildEnvironment } from './stdio/environment.js'
// Whether a process or a process group still runs (tests that nothing is left behind)
export { groupRunning, processRunning } from './stdio/process-group.js'
// What a generated module's schema policy makes of a drift (`mcp-kit profile validate FILE.ts`)
export type { DriftVerdict } from './typed-clients/drift-policy.js'
export { driftVerdict, schemaPolicies } from './typed-clients/drift-policy.js'
// A generated module's launch settings with their ${NAME}s expanded (`mcp-kit profile validate FILE.ts`)
export { expandServer } from './typed-clients/variables.js'
