// @mcp-kit/profiles — public API. Any new export added here becomes public API; the list is
// pinned in test/exports.test.ts. What only mcp-kit's own packages use is in src/internal.ts.
// (Blank lines keep the groups apart when imports are sorted.)

// Errors

export type { ProfileErrorCode, ProfileErrorOptions } from './errors.js'
export { ProfileError } from './errors.js'

// References: parse, print, resolve

export { describeServer, formatReference } from './format-reference.js'
export { assertValidName, isValidName } from './names.js'
export { launchers, parseCommandReference, parseReference } from './parse-reference.js'
export type {
  RegistryResolution,
  RegistryResolver,
  ResolvedProfile,
  ResolvedReference,
  ResolveOptions,
} from './resolve-reference.js'
export { resolveReference } from './resolve-reference.js'

// MCP Registry entries: names, and an entry (`server.json`) as a launch

export type {
  RegistryInput,
  RegistryLaunch,
  RegistryLaunchOptions,
  RegistryLaunchSource,
} from './registry-launch.js'
export { registryLaunch } from './registry-launch.js'
export { isRegistryName } from './registry-reference.js'
export type * from './registry-types.js'

// Profiles: search paths, loading, listing, writing

export type { ClientConfig, ConfigInput, ConfigLocation, ImportedServer } from './client-config.js'
export { clientConfigLocations, parseClientConfig } from './client-config.js'
export type { ProfileFileSystem } from './file-system.js'
export type { LoadOptions, ProfileSummary, StoredTool } from './load-profile.js'
export {
  findProfile,
  listProfiles,
  listProfileTools,
  loadProfile,
  loadProfileDocument,
  loadProfileTool,
  storedTools,
} from './load-profile.js'
export type { ProfileRoot, SearchOptions } from './search-paths.js'
export { profileRoots, projectProfileRoot, userProfileRoot } from './search-paths.js'
export type { SecretStoreOptions } from './secret-store.js'
export { readSecrets, secretsPath, writeSecrets } from './secret-store.js'
export type { SeparatedSecrets, SeparateOptions } from './secrets.js'
export { isSecretHeader, isSecretName, looksLikeSecret, separateSecrets } from './secrets.js'
export type { Variables } from './substitute.js'
export { secretKeys } from './substitute.js'
export type { ProfileDocument, WriteOptions } from './write-profile.js'
export { rewriteProfile, writeProfile } from './write-profile.js'

// Data shapes

export type * from './profile-types.js'
export type * from './types.js'
