// @mcp-kit/registry — public API. Any new export added here becomes public API; the list is
// pinned in test/exports.test.ts.
// (Blank lines keep the groups apart when imports are sorted.)

// Errors

export type { RegistryErrorCode, RegistryErrorOptions } from './errors.js'
export { RegistryError } from './errors.js'

// The registry API: servers, versions, one entry; answers cached with their ETags

export type { OfficialMeta, RegistryEntry, ServerPage } from './client/entries.js'
export { officialMetaKey } from './client/entries.js'
export type {
  EntryAnswer,
  ListOptions,
  RegistryClient,
  RegistryClientOptions,
} from './client/registry-client.js'
export { createRegistryClient, defaultRegistryUrl } from './client/registry-client.js'
export type { CachedResponse, ResponseCache } from './http/response-cache.js'
export { defaultRegistryCacheDir, fileResponseCache, memoryResponseCache } from './http/response-cache.js'

// server.json: the registry's schema and publishing rules, with line numbers

export type { LintOptions, LintProblem, LintResult } from './lint/lint-server-json.js'
export { lintServerJson } from './lint/lint-server-json.js'
export type { LoadedSchema, SchemaSourceOptions } from './lint/schema-source.js'
export { currentSchemaUrl, loadServerSchema } from './lint/schema-source.js'
