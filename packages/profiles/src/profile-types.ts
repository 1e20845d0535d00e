// Shapes of profile files. `_meta.json` (or the top of a single-file profile) says how to launch
// or reach the server and what its tools looked like; `<tool>.json` adds per-tool knowledge.

import type { ProfileScope, SchemaValidationPolicy, ServerSpec } from './types.js'

export interface ProfileMeta {
  description?: string
  transport?: 'stdio' | 'http'
  command?: string
  args?: string[]
  env?: Record<string, string>
  cwd?: string
  url?: string
  headers?: Record<string, string>
  schema_hash?: string
  schema_updated?: string
  schema_validation?: SchemaValidationPolicy
  /**
   * Tool calls the server takes at once (`mcp-kit put`), 1 to 1024. Absent: one at a time, since
   * servers that rewrite their state on every call lose writes to concurrent calls.
   */
  concurrency?: number
  /**
   * Keep the server running in the background after each command, for this long (`"10m"`, `"60s"`,
   * or seconds), so later commands reuse it (mcp-kit's warm sessions). The CLI's --keep-alive wins.
   */
  keepAlive?: string | number
  /** Tools filter: null (or absent) = all, [] = none, names = only those. */
  tools?: string[] | null | Record<string, ProfileTool>
  /** The tools filter in a single-file profile, where `tools` holds the tool definitions. */
  tool_filter?: string[] | null
  /** OAuth settings for an HTTP server that needs a login (never tokens: those live in the credentials file). */
  auth?: ProfileAuth
  /** Who answers the server's sampling requests (mcp-kit's --sampling-* flags win over it). */
  sampling?: ProfileSampling
  [key: string]: unknown
}

/**
 * Who answers a server's sampling requests: a program (run without a shell), an OpenAI-compatible
 * chat-completions endpoint, or the person at the terminal. An endpoint's API key is never here:
 * `keySecret` names its entry in the secret store.
 */
export type ProfileSampling =
  | { command: string[] }
  | { url: string; model?: string; keySecret?: string }
  | { ask: true }

export interface ProfileAuth {
  /** A pre-registered OAuth client id (no dynamic registration). */
  client_id?: string
  /** An HTTPS URL of a Client ID Metadata Document, used as the client id where supported. */
  client_metadata_url?: string
  /** Scopes to ask for, space-separated. */
  scopes?: string
}

export interface ProfileTool {
  /** The server's name for the tool, when the profile uses another (aliasing). */
  tool?: string
  title?: string
  description?: string
  /** Argument defaults; the call's own arguments override them. */
  defaults?: Record<string, unknown>
  notes?: string
  output_format?: string
  examples?: unknown[]
  inputSchema?: unknown
  outputSchema?: unknown
  annotations?: unknown
  [key: string]: unknown
}

export interface ProfileLocation {
  name: string
  scope: ProfileScope
  /** The root the profile was found in (holds `profiles/`). */
  root: string
  form: 'directory' | 'file'
  /** The profile directory (directory form) or file (single-file form). */
  path: string
  /** The file holding the launch settings: `_meta.json` or the single file. */
  metaPath: string
}

export interface Profile {
  location: ProfileLocation
  meta: ProfileMeta
  server: ServerSpec
  schemaValidation: SchemaValidationPolicy
  schemaHash: string | undefined
  /** null = all tools, [] = none, names = only those. */
  toolFilter: string[] | null
  /** OAuth settings, when the profile has them. */
  auth: ProfileAuth | undefined
  /** Tool calls the server takes at once, when the profile says (`concurrency`). */
  concurrency?: number
}
