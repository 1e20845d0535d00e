// @mcp-kit/profiles — public API. Any new export added here becomes public API.

export type { ProfileErrorCode, ProfileErrorOptions } from './errors.js'
// Errors
export { ProfileError } from './errors.js'
export type { ProfileFileSystem } from './file-system.js'
export { nodeFileSystem } from './file-system.js'
export { describeServer, formatReference } from './format-reference.js'
export { parseJsonFile } from './json-file.js'
export type { LoadOptions, ProfileSummary } from './load-profile.js'
export {
  findProfile,
  listProfiles,
  listProfileTools,
  loadProfile,
  loadProfileTool,
  serverFromMeta,
} from './load-profile.js'
export { assertValidName, isValidName } from './names.js'
// References: parse, print, resolve
export { launchers, parseReference } from './parse-reference.js'
export type * from './profile-types.js'
export type { ResolvedProfile, ResolvedReference } from './resolve-reference.js'
export { resolveReference } from './resolve-reference.js'
export type { ProfileRoot, SearchOptions } from './search-paths.js'
// Profiles: search paths, loading, listing
export { profileRoots, projectProfileRoot, userProfileRoot } from './search-paths.js'
export type { Variables } from './substitute.js'
export { substituteString, substituteValue } from './substitute.js'
// Data shapes
export type * from './types.js'
