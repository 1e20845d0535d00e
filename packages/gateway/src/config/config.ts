// A desktop client's config file as a gateway's upstreams: `mcpServers` (Claude Desktop, Claude
// Code, Cursor, Windsurf) or `servers` (VS Code), each key naming an upstream, so an existing
// file works as it is. `${NAME}` and VS Code's `${env:NAME}` take values from the environment;
// VS Code's `${input:…}` prompts cannot be answered by a gateway and are refused by name.
// Optional keys per entry, ignored by the clients: `prefix`, `tools`, `resources`, `prompts`
// filters (null, [] or names and globs), and `oauth` for an HTTP entry (`clientId`,
// `clientSecret`, `scope`, `grant`, `issuer`: the authorization server the secret belongs to;
// Claude Code's files name the client the same way). An entry
// with `openapi` is a REST API, not a server: see config-apis.ts; one whose `url` is an
// `mcp+registry://` reference is resolved by the caller: see config-references.ts.

import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { ProfileError, parseClientConfig } from '@mcp-kit/profiles'
import { profileNameFor, serverFromMeta, substituteValue } from '@mcp-kit/profiles/internal'
import { ConfigError } from '../config-error.js'
import type { ControlsSpec } from '../controls/controls-types.js'
import { parseControls } from '../controls/parse-controls.js'
import type { NameFilter, UpstreamOAuth, UpstreamOptions } from '../types.js'
import { type ConfigApi, configApiOf } from './config-apis.js'
import { type ConfigReference, configReferenceOf, isReferenceUrl } from './config-references.js'

export { ConfigError }

export interface ConfigResult {
  /** The operator's controls in the file's `gateway` object (tokens, policy, limits, admin), if any. */
  controls: ControlsSpec | undefined
  upstreams: UpstreamOptions[]
  /** Entries left out (disabled, neither command nor url), with why. */
  skipped: Array<{ name: string; reason: string }>
  /** Entries that are REST APIs (`openapi`), for the server to offer as tools. */
  apis: ConfigApi[]
  /** Entries named by an MCP Registry entry (`mcp+registry://`), for the caller to resolve. */
  references: ConfigReference[]
}

function filterOf(value: unknown, file: string, entry: string, key: string): NameFilter | undefined {
  if (value === undefined) return undefined
  if (value === null) return null
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value as string[]
  throw new ConfigError(`${file}: '${entry}'.${key} must be null, [] or a list of names and globs`)
}

const grants = ['authorization_code', 'client_credentials']

/** An entry's `oauth`: strings only, a known grant, and a clientId for a client_credentials one. */
function oauthOf(value: unknown, file: string, entry: string): UpstreamOAuth | undefined {
  if (value === undefined) return undefined
  const where = `${file}: '${entry}'.oauth`
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new ConfigError(`${where} must be an object`)
  const oauth: Record<string, string> = {}
  for (const [key, item] of Object.entries(value)) {
    if (!['clientId', 'clientSecret', 'scope', 'grant', 'issuer'].includes(key)) continue // e.g. Claude Code's callbackPort
    if (typeof item !== 'string') throw new ConfigError(`${where}.${key} must be a string`)
    oauth[key] = item
  }
  if (oauth.grant !== undefined && !grants.includes(oauth.grant))
    throw new ConfigError(`${where}.grant must be ${grants.join(' or ')}`)
  const credentials =
    oauth.grant === 'client_credentials' || (oauth.grant === undefined && oauth.clientSecret)
  if (credentials && (oauth.clientId === undefined || oauth.clientSecret === undefined))
    throw new ConfigError(`${where}: the client_credentials grant needs a clientId and a clientSecret`)
  if (oauth.issuer !== undefined && !isHttpUrl(oauth.issuer))
    throw new ConfigError(`${where}.issuer must be the authorization server's issuer URL (https://…)`)
  return oauth as UpstreamOAuth
}

function isHttpUrl(text: string): boolean {
  try {
    return ['https:', 'http:'].includes(new URL(text).protocol)
  } catch {
    return false
  }
}

/** `${env:NAME}` → `${NAME}`; `${input:…}` is refused. */
function normalizeVariables(value: unknown, file: string, entry: string): unknown {
  if (typeof value === 'string') {
    const input = /\$\{input:([^}]*)\}/.exec(value)
    if (input) {
      throw new ConfigError(
        `${file}: '${entry}' asks for \${input:${input[1]}}, which a gateway cannot prompt for: put the value in the environment and write \${env:NAME}`,
      )
    }
    return value.replace(/\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}/g, '${$1}')
  }
  if (Array.isArray(value)) return value.map((item) => normalizeVariables(item, file, entry))
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, normalizeVariables(item, file, entry)]),
    )
  }
  return value
}

/** Reads an MCP client's config file (`mcpServers` or `servers`) into upstreams, skipped entries and APIs. */
export function readGatewayConfig(
  path: string,
  options: { cwd?: string; env?: Readonly<Record<string, string | undefined>> } = {},
): ConfigResult {
  const file = resolve(options.cwd ?? process.cwd(), path)
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    throw new ConfigError(
      `cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    )
  }
  const config = parseClientConfig(text, file, { cwd: options.cwd })
  const variables = Object.fromEntries(
    Object.entries(options.env ?? process.env).filter(
      (entry): entry is [string, string] => entry[1] !== undefined,
    ),
  )
  const fail = (message: string): never => {
    throw new ConfigError(message)
  }
  const upstreams: UpstreamOptions[] = []
  const references: ConfigReference[] = []
  for (const server of config.servers) {
    const meta = substituteValue(
      normalizeVariables(server.meta, file, server.sourceName),
      variables,
      file,
    ) as typeof server.meta
    const entry = server.entry ?? {}
    let spec: UpstreamOptions['server'] | undefined
    let reference: Omit<ConfigReference, 'options' | 'index'> | undefined
    if (isReferenceUrl(meta.url)) {
      const inputs = substituteValue(
        normalizeVariables(entry.inputs, file, server.sourceName),
        variables,
        file,
      )
      const where = `${file}: '${server.sourceName}'`
      reference = configReferenceOf(server.name, meta.url, entry, inputs, where, fail)
    } else {
      try {
        spec = serverFromMeta(meta, file)
      } catch (error) {
        if (ProfileError.isInstance(error)) throw new ConfigError(`'${server.sourceName}': ${error.message}`)
        throw error
      }
    }
    const upstream: Omit<UpstreamOptions, 'server'> = { name: server.name }
    if (entry.prefix !== undefined) {
      if (typeof entry.prefix !== 'string' || /[^A-Za-z0-9_-]/.test(entry.prefix)) {
        throw new ConfigError(`${file}: '${server.sourceName}'.prefix must be letters, digits, '_' or '-'`)
      }
      upstream.prefix = entry.prefix
    }
    for (const key of ['tools', 'resources', 'prompts'] as const) {
      const filter = filterOf(entry[key], file, server.sourceName, key)
      if (filter !== undefined) upstream[key] = filter
    }
    if (entry.oauth !== undefined) {
      // A registry entry's launch is known once it is resolved: the caller checks it is a remote.
      if (spec !== undefined && spec.transport !== 'http')
        throw new ConfigError(`${file}: '${server.sourceName}'.oauth is for url entries`)
      const oauth = substituteValue(normalizeVariables(entry.oauth, file, server.sourceName), variables, file)
      upstream.oauth = oauthOf(oauth, file, server.sourceName)
    }
    if (spec !== undefined) upstreams.push({ ...upstream, server: spec })
    else if (reference !== undefined) {
      const { name: _name, ...options } = upstream
      references.push({ ...reference, options, index: upstreams.length + references.length })
    }
  }
  const apis: ConfigApi[] = []
  const skipped: ConfigResult['skipped'] = []
  for (const left of config.skipped) {
    const entry = left.entry
    if (typeof entry !== 'object' || entry === null || !('openapi' in entry)) {
      skipped.push({ name: left.name, reason: left.reason })
      continue
    }
    const written = substituteValue(normalizeVariables(entry, file, left.name), variables, file)
    apis.push(configApiOf(profileNameFor(left.name), written as Record<string, unknown>, file, fail))
  }
  const controls = parseControls(text, file, 'gateway', (value) =>
    substituteValue(normalizeVariables(value, file, 'gateway'), variables, file),
  )
  return { controls, upstreams, skipped, apis, references }
}

/** A file of controls of its own (`mcp-kit serve --policy FILE`): the `gateway` object's fields at its top. */
export function readControlsFile(
  path: string,
  options: { cwd?: string; env?: Readonly<Record<string, string | undefined>> } = {},
): ControlsSpec {
  const file = resolve(options.cwd ?? process.cwd(), path)
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    throw new ConfigError(
      `cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    )
  }
  const variables = Object.fromEntries(
    Object.entries(options.env ?? process.env).filter(
      (entry): entry is [string, string] => entry[1] !== undefined,
    ),
  )
  return parseControls(text, file, undefined, (value) =>
    substituteValue(normalizeVariables(value, file, 'controls'), variables, file),
  ) as ControlsSpec
}
