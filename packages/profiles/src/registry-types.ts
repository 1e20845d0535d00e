// The shapes of an MCP Registry entry (`server.json`) as far as launching it goes. Entries come
// from a network service: every field is checked where it is used, never trusted to be there.

/** A value an entry asks for: fixed (`value`), or given by the user (with a default, choices…). */
export interface RegistryInputField {
  description?: string
  value?: string
  default?: string
  placeholder?: string
  choices?: string[]
  isRequired?: boolean
  isSecret?: boolean
  /** string (default), number, boolean or filepath. */
  format?: string
  /** `{name}` in `value` is replaced by the variable's value. */
  variables?: Record<string, RegistryInputField>
}

/** A command-line argument: a word (`positional`) or a flag with its value (`named`). */
export interface RegistryArgument extends RegistryInputField {
  type?: 'positional' | 'named' | string
  /** The flag, dashes included (`--port`), of a named argument. */
  name?: string
  /** What a positional argument is called, for asking and for `{…}` in a transport URL. */
  valueHint?: string
  isRepeated?: boolean
}

/** An environment variable or an HTTP header. */
export interface RegistryKeyValue extends RegistryInputField {
  name?: string
}

export interface RegistryTransport {
  type?: 'stdio' | 'streamable-http' | 'sse' | string
  url?: string
  headers?: RegistryKeyValue[]
  /** A remote's `{name}` variables of its URL. */
  variables?: Record<string, RegistryInputField>
}

export interface RegistryPackage {
  registryType?: 'npm' | 'pypi' | 'oci' | 'nuget' | 'mcpb' | string
  registryBaseUrl?: string
  identifier?: string
  version?: string
  fileSha256?: string
  runtimeHint?: string
  transport?: RegistryTransport
  runtimeArguments?: RegistryArgument[]
  packageArguments?: RegistryArgument[]
  environmentVariables?: RegistryKeyValue[]
}

/** A `server.json`: the part of a registry entry its publisher wrote. */
export interface RegistryServer {
  $schema?: string
  name?: string
  title?: string
  description?: string
  version?: string
  websiteUrl?: string
  repository?: { url?: string; source?: string; id?: string; subfolder?: string }
  packages?: RegistryPackage[]
  remotes?: RegistryTransport[]
  _meta?: Record<string, unknown>
  [key: string]: unknown
}

/** Answers to an entry's inputs by input name: one value, or several for a repeated argument. */
export type RegistryAnswers = Readonly<Record<string, string | readonly string[]>>
