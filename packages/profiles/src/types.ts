// Plain-data shapes produced by parsing and resolving server references. Nothing here holds
// behaviour: a ServerSpec says how to reach a server, an Operation says what to do there.

import type { HttpServerSpec, ServerSpec, StdioServerSpec } from '@mcp-kit/core'

export type { HttpServerSpec, ServerSpec, StdioServerSpec }

/** Tool or prompt arguments as they come from a query string: strings, or lists of strings for repeated keys. */
export type QueryArguments = Record<string, string | string[]>

export type ListTarget = 'tools' | 'resources' | 'templates' | 'prompts'

export type Operation =
  | { kind: 'inspect' }
  | { kind: 'listTools' }
  | { kind: 'listResources' }
  | { kind: 'listResourceTemplates' }
  | { kind: 'listPrompts' }
  | {
      kind: 'callTool'
      name: string
      args: QueryArguments
      /** Typed argument defaults from a profile tool file; the call's own arguments override them. */
      defaults?: Record<string, unknown>
    }
  | { kind: 'readResource'; uri: string }
  | { kind: 'getPrompt'; name: string; args: QueryArguments }

export type Launcher = 'uvx' | 'npx' | 'python' | 'node' | 'http' | 'https'

/** What a query string said, before it is turned into an operation. */
export interface ReferenceQuery {
  tool?: string
  resource?: string
  prompt?: string
  list?: ListTarget
  /** `command=`: the sub-command appended after the launched program (uvx: `biomcp run`). */
  command?: string
  /** `arg=` values, in order: extra launch arguments. */
  launchArgs: string[]
  /** `env.NAME=value` pairs for the launched process. */
  env: Record<string, string>
  /** Every other key: tool or prompt arguments. */
  params: QueryArguments
}

export interface NakedReference {
  type: 'naked'
  launcher: Launcher
  /** The decoded part between `://` and `?`: package, path or URL without scheme. */
  target: string
  query: ReferenceQuery
  server: ServerSpec
  operation: Operation
}

export interface ProfileReference {
  type: 'profile'
  profile: string
  /** The tool named in the path (`@server/tool`), before aliasing through the profile. */
  tool?: string
  query: ReferenceQuery
  operation: Operation
}

/**
 * A stdio server given as a command line (`mcp-kit inspect -- node server.js`): the program and
 * its arguments, run as they are, without a shell. There is no reference string for it.
 */
export interface CommandReference {
  type: 'command'
  /** The program, then its arguments. */
  command: string[]
  query: ReferenceQuery
  server: StdioServerSpec
  operation: Operation
}

/**
 * A server named by its entry in an MCP Registry (`mcp+registry://io.github.owner/name@1.2.0`):
 * what to launch or reach is only known once the entry is fetched (resolveReference's `registry`).
 */
export interface RegistryReference {
  type: 'registry'
  /** The entry's name: reverse-DNS namespace, a slash, the server (`io.github.owner/name`). */
  name: string
  /** An exact version; undefined for the latest. */
  version?: string
  query: ReferenceQuery
  operation: Operation
}

export type ParsedReference = NakedReference | ProfileReference | CommandReference | RegistryReference

export type SchemaValidationPolicy = 'warn' | 'error' | 'ignore'

export type ProfileScope = 'env' | 'project' | 'user' | 'bundled'
