// @mcp-kit/profiles — public API. Any new export added here becomes public API; the list is
// pinned in test/exports.test.ts. What only mcp-kit's own packages use is in src/internal.ts.
// (Blank lines keep the groups apart when imports are sorted.)

// Errors

export type { ProfileErrorCode, ProfileErrorOptions } from './errors.js'
export { ProfileError } from './errors.js'

// References: parse, print, resolve

export { assertValidName, isValidName } from './names.js'
export { parseCommandReference } from './reference/command-reference.js'
export { describeServer, formatReference } from './reference/format-reference.js'
export type { OperationFlags } from './reference/operation-flags.js'
export { launchers, parseReference } from './reference/parse-reference.js'
export type {
  RegistryResolution,
  RegistryResolver,
  ResolvedProfile,
  ResolvedReference,
  ResolveOptions,
} from './resolve/resolve-reference.js'
export { resolveReference } from './resolve/resolve-reference.js'
export type { ReferenceRequest, ReferenceResolution } from './resolve/resolve-request.js'
export { resolveReferenceRequest } from './resolve/resolve-request.js'

// MCP Registry entries: names, and an entry (`server.json`) as a launch

export { isRegistryName } from './reference/registry-reference.js'
export type {
  RegistryInput,
  RegistryLaunch,
  RegistryLaunchOptions,
  RegistryLaunchSource,
} from './registry/registry-launch.js'
export { registryLaunch } from './registry/registry-launch.js'
export type * from './registry-types.js'

// Profiles: search paths, loading, listing, writing

export type { ClientConfig, ConfigInput, ConfigLocation, ImportedServer } from './store/client-config.js'
export { clientConfigLocations, parseClientConfig } from './store/client-config.js'
export type { ProfileFileSystem } from './store/file-system.js'
export type { LoadOptions, ProfileSummary, StoredTool } from './store/load-profile.js'
export {
  findProfile,
  listProfiles,
  listProfileTools,
  loadProfile,
  loadProfileDocument,
  loadProfileTool,
  storedTools,
} from './store/load-profile.js'
export type { ProfileRoot, SearchOptions } from './store/search-paths.js'
export { profileRoots, projectProfileRoot, userProfileRoot } from './store/search-paths.js'
export type { SecretStoreOptions } from './store/secret-store.js'
export { readSecrets, secretsPath, writeSecrets } from './store/secret-store.js'
export type { SeparatedSecrets, SeparateOptions } from './store/secrets.js'
export { isSecretHeader, isSecretName, looksLikeSecret, separateSecrets } from './store/secrets.js'
export type { ProfileDocument, WriteOptions } from './store/write-profile.js'
export { rewriteProfile, writeProfile } from './store/write-profile.js'
export type { Variables } from './substitute.js'
export { secretKeys } from './substitute.js'

// Data shapes

export type * from './profile-types.js'
export type * from './types.js'
