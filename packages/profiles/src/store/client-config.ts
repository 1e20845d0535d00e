// Reading the MCP server lists of other clients — Claude Desktop, Claude Code, Cursor, Windsurf
// (`mcpServers`) and VS Code (`servers`, or `mcp.servers` in settings) — into profile launch
// settings, and knowing where those files usually live on Linux, macOS and Windows.

import { homedir } from 'node:os'
import { basename, dirname, join, resolve, sep } from 'node:path'
import { isRecord } from '@mcp-kit/core'
import { type ParseError, parse as parseJsonc, printParseErrorCode } from 'jsonc-parser'
import { ProfileError } from '../errors.js'
import { isValidName } from '../names.js'
import type { ProfileMeta } from '../profile-types.js'

export interface ImportedServer {
  /** The profile name to use (the config's name, made safe). */
  name: string
  /** The name as the config file has it. */
  sourceName: string
  meta: ProfileMeta
  /** The config's entry as written (extra keys included); not enumerable, so copies stay small. */
  readonly entry?: Readonly<Record<string, unknown>>
}

export interface ClientConfig {
  file: string
  servers: ImportedServer[]
  /** Entries that could not be imported, with the reason (and, not enumerable, the entry as written). */
  skipped: Array<{ name: string; reason: string; readonly entry?: unknown }>
  /** VS Code's `inputs`: the values `${input:ID}` asks the user for, by ID. */
  inputs: Record<string, ConfigInput>
}

export interface ConfigInput {
  description?: string
  /** Typed without echo: a secret. */
  password?: boolean
  default?: string
}

function stringRecord(value: unknown): Record<string, string> | undefined {
  if (!isRecord(value)) return undefined
  const result: Record<string, string> = {}
  for (const [key, item] of Object.entries(value)) if (typeof item === 'string') result[key] = item
  return result
}

/** Parses JSON, or JSON with comments and trailing commas (VS Code's files). */
function parseConfigText(text: string, file: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    const errors: ParseError[] = []
    const value = parseJsonc(text, errors, { allowTrailingComma: true, disallowComments: false })
    const first = errors[0]
    if (first) {
      const before = text.slice(0, first.offset)
      const line = before.split('\n').length
      const column = first.offset - before.lastIndexOf('\n')
      throw new ProfileError(
        'profile_invalid',
        `${file}:${line}:${column}: not valid JSON (${printParseErrorCode(first.error)})`,
        {
          details: { file, line, column },
        },
      )
    }
    return value
  }
}

/** A profile name from a config's server name: `My Server/v2` → `My-Server-v2`. */
export function profileNameFor(sourceName: string): string {
  const cleaned = sourceName
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[^A-Za-z0-9]+/, '')
    .replace(/-+$/, '')
  return isValidName(cleaned) ? cleaned : 'server'
}

function entryToMeta(entry: unknown): ProfileMeta | string {
  if (!isRecord(entry)) return 'not an object'
  const url =
    typeof entry.url === 'string'
      ? entry.url
      : typeof entry.serverUrl === 'string'
        ? entry.serverUrl
        : undefined
  if (url !== undefined) {
    const meta: ProfileMeta = { url }
    const headers = stringRecord(entry.headers)
    if (headers && Object.keys(headers).length > 0) meta.headers = headers
    return meta
  }
  if (typeof entry.command !== 'string' || entry.command === '') return "neither a 'command' nor a 'url'"
  const meta: ProfileMeta = { command: entry.command }
  if (Array.isArray(entry.args))
    meta.args = entry.args.filter((item): item is string => typeof item === 'string')
  const env = stringRecord(entry.env)
  if (env && Object.keys(env).length > 0) meta.env = env
  if (typeof entry.cwd === 'string') meta.cwd = entry.cwd
  return meta
}

function serverMaps(root: Record<string, unknown>, cwd: string): Array<Record<string, unknown>> {
  const maps: Array<Record<string, unknown>> = []
  if (isRecord(root.mcpServers)) maps.push(root.mcpServers)
  if (isRecord(root.servers)) maps.push(root.servers)
  if (isRecord(root.mcp) && isRecord(root.mcp.servers)) maps.push(root.mcp.servers)
  // ~/.claude.json keeps per-project servers under projects["/abs/path"].mcpServers.
  if (isRecord(root.projects)) {
    for (let dir = resolve(cwd); ; dir = dirname(dir)) {
      const project = root.projects[dir]
      if (isRecord(project) && isRecord(project.mcpServers)) maps.push(project.mcpServers)
      if (dirname(dir) === dir) break
    }
  }
  return maps
}

/**
 * Reads a client config file's servers. Env values and headers are kept as given. A file
 * with no server map is `profile_invalid` naming the file.
 */
export function parseClientConfig(text: string, file: string, options: { cwd?: string } = {}): ClientConfig {
  const root = parseConfigText(text, file)
  if (!isRecord(root))
    throw new ProfileError(
      'profile_invalid',
      `${file} is not an MCP client config: it is not a JSON object`,
      { details: { file } },
    )
  const maps = serverMaps(root, options.cwd ?? process.cwd())
  if (maps.length === 0) {
    throw new ProfileError(
      'profile_invalid',
      `${file} is not an MCP client config: it has no 'mcpServers' or 'servers' map`,
      { details: { file } },
    )
  }
  const config: ClientConfig = { file, servers: [], skipped: [], inputs: configInputs(root) }
  const taken = new Set<string>()
  for (const map of maps) {
    for (const [sourceName, entry] of Object.entries(map)) {
      if (isRecord(entry) && entry.disabled === true) {
        config.skipped.push({ name: sourceName, reason: 'disabled in the config' })
        continue
      }
      const meta = entryToMeta(entry)
      if (typeof meta === 'string') {
        const skipped = { name: sourceName, reason: meta }
        // Kept for readers that know other kinds of entries (a gateway's `openapi` ones).
        Object.defineProperty(skipped, 'entry', { value: entry, enumerable: false })
        config.skipped.push(skipped)
        continue
      }
      const name = profileNameFor(sourceName)
      if (taken.has(name)) {
        config.skipped.push({
          name: sourceName,
          reason: `a server named '${name}' came earlier in this file`,
        })
        continue
      }
      taken.add(name)
      const server: ImportedServer = { name, sourceName, meta }
      Object.defineProperty(server, 'entry', { value: entry, enumerable: false })
      config.servers.push(server)
    }
  }
  return config
}

/** VS Code's `inputs` list (in mcp.json, or `mcp.inputs` in settings.json), by id. */
function configInputs(root: Record<string, unknown>): Record<string, ConfigInput> {
  const lists = [root.inputs, isRecord(root.mcp) ? root.mcp.inputs : undefined]
  const inputs: Record<string, ConfigInput> = {}
  for (const list of lists) {
    if (!Array.isArray(list)) continue
    for (const item of list) {
      if (!isRecord(item) || typeof item.id !== 'string') continue
      const input: ConfigInput = {}
      if (typeof item.description === 'string') input.description = item.description
      if (item.password === true) input.password = true
      if (typeof item.default === 'string') input.default = item.default
      Object.defineProperty(inputs, item.id, {
        value: input,
        enumerable: true,
        writable: true,
        configurable: true,
      })
    }
  }
  return inputs
}

export interface TranslatedServer {
  /** The launch settings in profile syntax: `${NAME}` for the environment, inputs filled in where answered. */
  meta: ProfileMeta
  /** Each `${input:ID}` and the field it is in (`env.API_KEY`, `headers.Authorization`, `args[2]`, `url`). */
  inputs: Array<{ field: string; id: string }>
  /** Variables mcp-kit cannot fill in (`${command:…}`, `${config:…}`), as written. */
  unsupported: string[]
}

/**
 * Rewrites the variables of a client config entry in profile syntax: `${env:NAME}` → `${NAME}`
 * (VS Code, Cursor); `${NAME}` and `${NAME:-default}` stay (Claude Code writes them as profiles
 * do); `${userHome}` → `${HOME}`; `${workspaceFolder}` → the folder the config belongs to;
 * `${input:ID}` → its answer in `inputs` (a literal: `${` in it is escaped), else left for the
 * caller to ask for.
 */
export function translateConfigVariables(
  meta: ProfileMeta,
  options: { workspaceFolder: string; inputs?: Readonly<Record<string, string>> },
): TranslatedServer {
  const inputs: TranslatedServer['inputs'] = []
  const unsupported = new Set<string>()
  // A literal in profile syntax: `${` is written `$${`.
  const literal = (text: string) => text.replace(/\$\{/g, () => '$${')
  const folder = literal(options.workspaceFolder)
  const translate = (text: string, field: string): string =>
    text.replace(/\$\$\{|\$\{([^}]*)\}/g, (whole, inner: string | undefined) => {
      if (inner === undefined) return whole
      const colon = inner.indexOf(':')
      const kind = colon === -1 ? inner : inner.slice(0, colon)
      const rest = colon === -1 ? '' : inner.slice(colon + 1)
      if (kind === 'env' && /^[A-Za-z_][A-Za-z0-9_]*$/.test(rest)) return `\${${rest}}`
      if (kind === 'input' && rest !== '') {
        inputs.push({ field, id: rest })
        const answer =
          options.inputs && Object.hasOwn(options.inputs, rest) ? options.inputs[rest] : undefined
        return answer === undefined ? whole : literal(answer)
      }
      if (inner === 'userHome') return '${HOME}'
      if (inner === 'workspaceFolder') return folder
      if (inner === 'workspaceFolderBasename') return basename(folder)
      if (inner === 'pathSeparator' || inner === '/') return sep
      if (/^[A-Za-z_][A-Za-z0-9_]*(?::-[^}]*)?$/.test(inner)) return whole
      unsupported.add(whole)
      return whole
    })
  const result: ProfileMeta = { ...meta }
  for (const field of ['command', 'url', 'cwd'] as const) {
    const value = meta[field]
    if (typeof value === 'string') result[field] = translate(value, field)
  }
  if (Array.isArray(meta.args)) result.args = meta.args.map((arg, index) => translate(arg, `args[${index}]`))
  for (const field of ['env', 'headers'] as const) {
    const record = meta[field]
    if (!record) continue
    const translated: Record<string, string> = {}
    for (const [name, value] of Object.entries(record))
      translated[name] = translate(value, `${field}.${name}`)
    result[field] = translated
  }
  return { meta: result, inputs, unsupported: [...unsupported] }
}

/** The folder a project config belongs to: the parent of `.vscode/` or `.cursor/`, else `cwd`. */
export function workspaceFolderOf(file: string, cwd: string): string {
  const directory = dirname(resolve(cwd, file))
  return ['.vscode', '.cursor'].includes(basename(directory)) ? dirname(directory) : resolve(cwd)
}

export interface ConfigLocation {
  client: string
  path: string
}

/** Where MCP clients keep their server lists, user-wide and for the project in `cwd`. */
export function clientConfigLocations(
  options: {
    platform?: NodeJS.Platform
    home?: string
    env?: Readonly<Record<string, string | undefined>>
    cwd?: string
  } = {},
): ConfigLocation[] {
  const platform = options.platform ?? process.platform
  const env = options.env ?? process.env
  const home = options.home ?? env.HOME ?? env.USERPROFILE ?? homedir()
  const cwd = resolve(options.cwd ?? process.cwd())
  const appData = env.APPDATA ?? join(home, 'AppData', 'Roaming')
  const configHome = env.XDG_CONFIG_HOME ?? join(home, '.config')
  const applicationSupport = join(home, 'Library', 'Application Support')
  const userDir = platform === 'darwin' ? applicationSupport : platform === 'win32' ? appData : configHome
  return [
    { client: 'Claude Desktop', path: join(userDir, 'Claude', 'claude_desktop_config.json') },
    { client: 'Claude Code', path: join(home, '.claude.json') },
    { client: 'Claude Code (project)', path: join(cwd, '.mcp.json') },
    { client: 'Cursor', path: join(home, '.cursor', 'mcp.json') },
    { client: 'Cursor (project)', path: join(cwd, '.cursor', 'mcp.json') },
    { client: 'Windsurf', path: join(home, '.codeium', 'windsurf', 'mcp_config.json') },
    { client: 'VS Code', path: join(userDir, 'Code', 'User', 'mcp.json') },
    { client: 'VS Code (project)', path: join(cwd, '.vscode', 'mcp.json') },
  ]
}
