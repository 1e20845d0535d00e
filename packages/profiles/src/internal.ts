// @mcp-kit/profiles/internal — for mcp-kit's own packages (the gateway and the CLI), not public
// API and not covered by semver; the public API is src/index.ts. Pinned in test/exports.test.ts.

// Other clients' configs, as `mcp-kit profile import` and the gateway translate them

export type { TranslatedServer } from './store/client-config.js'
export { profileNameFor, translateConfigVariables, workspaceFolderOf } from './store/client-config.js'

// Profile files: reading, `${VAR}` substitution, launch settings, tool file names

export { parseJsonFile } from './store/json-file.js'
export { serverFromMeta } from './store/load-profile.js'
export { toolFileName } from './store/write-profile.js'
export { substituteString, substituteValue } from './substitute.js'
