// @mcp-kit/profiles — public API. Any new export added here becomes public API; the list is
// pinned in test/exports.test.ts. (Blank lines keep the groups apart when imports are sorted.)

// Errors

export type { ProfileErrorCode, ProfileErrorOptions } from './errors.js'
export { ProfileError } from './errors.js'

// References: parse, print, resolve

export { describeServer, formatReference } from './format-reference.js'
export { assertValidName, isValidName } from './names.js'
export { launchers, parseCommandReference, parseReference } from './parse-reference.js'
export type { ResolvedProfile, ResolvedReference } from './resolve-reference.js'
export { resolveReference } from './resolve-reference.js'

// Profiles: search paths, loading, listing, writing

export type { ClientConfig, ConfigLocation, ImportedServer } from './client-config.js'
export { clientConfigLocations, parseClientConfig, profileNameFor } from './client-config.js'
export type { ProfileFileSystem } from './file-system.js'
export { nodeFileSystem } from './file-system.js'
export { parseJsonFile } from './json-file.js'
export type { LoadOptions, ProfileSummary, StoredTool } from './load-profile.js'
export {
  findProfile,
  listProfiles,
  listProfileTools,
  loadProfile,
  loadProfileDocument,
  loadProfileTool,
  serverFromMeta,
  storedTools,
} from './load-profile.js'
export type { ProfileRoot, SearchOptions } from './search-paths.js'
export { profileRoots, projectProfileRoot, userProfileRoot } from './search-paths.js'
export type { Variables } from './substitute.js'
export { substituteString, substituteValue } from './substitute.js'
export type { ProfileDocument, WriteOptions } from './write-profile.js'
export { rewriteProfile, toolFileName, writeProfile } from './write-profile.js'

// Data shapes

export type * from './profile-types.js'
export type * from './types.js'
