// Finds and loads profiles: directory form (`profiles/<server>/_meta.json` + `<tool>.json`) and
// single-file form (`profiles/<server>.json` with a `tools` map), with `${VAR}` substitution.

import { dirname, join, resolve } from 'node:path'
import { isRecord } from '@mcp-kit/core'
import { ProfileError } from '../errors.js'
import { assertValidName, isValidName } from '../names.js'
import type { Profile, ProfileAuth, ProfileLocation, ProfileMeta, ProfileTool } from '../profile-types.js'
import { secretKeys, substituteValue, type Variables } from '../substitute.js'
import type { SchemaValidationPolicy, ServerSpec } from '../types.js'
import { nodeFileSystem, type ProfileFileSystem } from './file-system.js'
import { parseJsonFile } from './json-file.js'
import { type ProfileRoot, profileRoots, type SearchOptions } from './search-paths.js'
import { readSecrets } from './secret-store.js'

export interface LoadOptions extends SearchOptions {
  /** Variables for `${VAR}` besides the environment (they take precedence), e.g. MCP_KIT_NODE. */
  variables?: Variables
  /** false: keep `${VAR}` text as written (for listing and showing profiles). Default true. */
  substitute?: boolean
  /** The secret store `${secret:KEY}` reads (default: secretsPath(env)). */
  secretsPath?: string
}

// Stored schemas are data about the server; `${…}` inside them is not ours to expand.
const unsubstitutedKeys = new Set([
  'inputSchema',
  'outputSchema',
  'annotations',
  'schema_hash',
  'schema_updated',
])
// `registry` records where a profile came from and the answers it was made with (secret ones as
// `${secret:…}` references): data for `profile update`, not launch settings.
const metaUnsubstitutedKeys = new Set([...unsubstitutedKeys, 'tools', 'registry'])
const policies: readonly SchemaValidationPolicy[] = ['warn', 'error', 'ignore']
/** The most calls a profile may say its server takes at once (the CLI's --concurrency limit too). */
export const maxConcurrency = 1024

function invalid(file: string, message: string, field?: string): ProfileError {
  return new ProfileError('profile_invalid', `${file}: ${message}`, { details: { file, field } })
}

function checkStringRecord(value: unknown, file: string, field: string): Record<string, string> | undefined {
  if (value === undefined) return undefined
  if (!isRecord(value) || !Object.values(value).every((item) => typeof item === 'string')) {
    throw invalid(file, `'${field}' must be an object of strings`, field)
  }
  return { ...(value as Record<string, string>) }
}

function checkNameList(value: unknown, file: string, field: string): string[] | null {
  if (value === undefined || value === null) return null
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) {
    throw invalid(file, `'${field}' must be null or a list of tool names`, field)
  }
  return [...value]
}

async function readJson(fs: ProfileFileSystem, file: string): Promise<unknown> {
  let text: string
  try {
    text = await fs.readFile(file)
  } catch (error) {
    throw new ProfileError('profile_invalid', `cannot read ${file}: ${(error as Error).message}`, {
      details: { file },
      cause: error,
    })
  }
  return parseJsonFile(text, file)
}

/** The launch spec a profile describes. Relative `cwd` is taken relative to the profile file's directory. */
export function serverFromMeta(meta: ProfileMeta, file: string): ServerSpec {
  if (meta.url !== undefined || meta.transport === 'http') {
    if (typeof meta.url !== 'string' || meta.url === '')
      throw invalid(file, "an HTTP profile needs a 'url'", 'url')
    let url: URL
    try {
      url = new URL(meta.url)
    } catch {
      throw invalid(file, `'url' ${JSON.stringify(meta.url)} is not a valid URL`, 'url')
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw invalid(file, "'url' must be http:// or https://", 'url')
    const spec: ServerSpec = { transport: 'http', url: url.href }
    const headers = checkStringRecord(meta.headers, file, 'headers')
    if (headers) spec.headers = headers
    return spec
  }
  if (typeof meta.command !== 'string' || meta.command === '') {
    throw invalid(file, "a profile needs a 'command' (stdio) or a 'url' (HTTP)", 'command')
  }
  if (meta.command.includes('\0')) throw invalid(file, "'command' contains a NUL character", 'command')
  const args = meta.args ?? []
  if (!Array.isArray(args) || !args.every((item) => typeof item === 'string' && !item.includes('\0'))) {
    throw invalid(file, "'args' must be a list of strings", 'args')
  }
  const spec: ServerSpec = { transport: 'stdio', command: meta.command, args: [...args] }
  const env = checkStringRecord(meta.env, file, 'env')
  if (env) spec.env = env
  if (meta.cwd !== undefined) {
    if (typeof meta.cwd !== 'string') throw invalid(file, "'cwd' must be a string", 'cwd')
    spec.cwd = resolve(dirname(file), meta.cwd)
  }
  return spec
}

async function locateIn(
  root: ProfileRoot,
  name: string,
  fs: ProfileFileSystem,
): Promise<ProfileLocation | undefined> {
  const directory = join(root.dir, 'profiles', name)
  const metaPath = join(directory, '_meta.json')
  const filePath = `${directory}.json`
  if ((await fs.kind(metaPath)) === 'file') {
    return { name, scope: root.scope, root: root.dir, form: 'directory', path: directory, metaPath }
  }
  if ((await fs.kind(filePath)) === 'file') {
    return { name, scope: root.scope, root: root.dir, form: 'file', path: filePath, metaPath: filePath }
  }
  if ((await fs.kind(directory)) === 'directory') {
    throw new ProfileError('profile_invalid', `profile directory ${directory} has no _meta.json`, {
      details: { file: metaPath },
    })
  }
  return undefined
}

/** Finds where profile `name` lives; `profile_not_found` lists every place searched. */
export async function findProfile(name: string, options: SearchOptions = {}): Promise<ProfileLocation> {
  assertValidName(name, 'profile')
  const fs = options.fs ?? nodeFileSystem
  const roots = await profileRoots(options)
  for (const root of roots) {
    const location = await locateIn(root, name, fs)
    if (location) return location
  }
  const searched = roots.map((root) => `${join(root.dir, 'profiles')} (${root.scope})`)
  throw new ProfileError(
    'profile_not_found',
    `profile '${name}' not found; looked in: ${searched.join(', ')}`,
    {
      details: { name, searched: roots.map((root) => join(root.dir, 'profiles')) },
    },
  )
}

/**
 * The environment, the caller's variables, and the secrets `value` refers to (read from the
 * store only when it refers to any).
 */
async function variablesFor(
  options: LoadOptions,
  value: unknown,
  skipKeys: ReadonlySet<string>,
): Promise<Variables> {
  const variables: Record<string, string | undefined> = {}
  for (const [name, item] of Object.entries({ ...(options.env ?? process.env), ...options.variables })) {
    // Only the store says what a secret is, never an environment variable named like one.
    if (!name.startsWith('secret:')) variables[name] = item
  }
  const wanted = secretKeys(
    isRecord(value) ? Object.fromEntries(Object.entries(value).filter(([key]) => !skipKeys.has(key))) : value,
  )
  if (wanted.size > 0) {
    const secrets = await readSecrets({ env: options.env, fs: options.fs, secretsPath: options.secretsPath })
    for (const key of wanted) if (Object.hasOwn(secrets, key)) variables[`secret:${key}`] = secrets[key]
  }
  return variables
}

function readMeta(raw: unknown, location: ProfileLocation): ProfileMeta {
  if (!isRecord(raw)) throw invalid(location.metaPath, 'a profile must be a JSON object')
  return raw as ProfileMeta
}

/** Loads a profile's launch settings (not its tool files). */
export async function loadProfile(name: string, options: LoadOptions = {}): Promise<Profile> {
  const fs = options.fs ?? nodeFileSystem
  const location = await findProfile(name, options)
  const raw = readMeta(await readJson(fs, location.metaPath), location)
  // `tools` is skipped here: a single-file profile's tool entries are substituted one by one, when used.
  const meta =
    options.substitute === false
      ? raw
      : substituteValue(
          raw,
          await variablesFor(options, raw, metaUnsubstitutedKeys),
          location.metaPath,
          metaUnsubstitutedKeys,
        )
  const policy = meta.schema_validation ?? 'warn'
  if (!policies.includes(policy)) {
    throw invalid(
      location.metaPath,
      `'schema_validation' must be one of ${policies.join(', ')}`,
      'schema_validation',
    )
  }
  if (meta.schema_hash !== undefined && typeof meta.schema_hash !== 'string') {
    throw invalid(location.metaPath, "'schema_hash' must be a string", 'schema_hash')
  }
  const toolsField = isRecord(meta.tools) ? undefined : meta.tools
  if (isRecord(meta.tools) && location.form === 'directory') {
    throw invalid(
      location.metaPath,
      "'tools' in _meta.json is the tools filter: null or a list of names",
      'tools',
    )
  }
  const toolFilter = checkNameList(
    meta.tool_filter ?? toolsField,
    location.metaPath,
    meta.tool_filter === undefined ? 'tools' : 'tool_filter',
  )
  const concurrency = meta.concurrency
  if (
    concurrency !== undefined &&
    !(Number.isInteger(concurrency) && concurrency >= 1 && concurrency <= maxConcurrency)
  ) {
    throw invalid(
      location.metaPath,
      `'concurrency' must be a whole number from 1 to ${maxConcurrency}`,
      'concurrency',
    )
  }
  const profile: Profile = {
    location,
    meta,
    server: serverFromMeta(meta, location.metaPath),
    schemaValidation: policy,
    schemaHash: meta.schema_hash,
    toolFilter,
    auth: checkAuth(meta.auth, location.metaPath),
  }
  if (concurrency !== undefined) profile.concurrency = concurrency
  return profile
}

const authFields = ['client_id', 'client_metadata_url', 'scopes'] as const

function checkAuth(raw: unknown, file: string): ProfileAuth | undefined {
  if (raw === undefined) return undefined
  if (!isRecord(raw)) throw invalid(file, "'auth' must be an object", 'auth')
  for (const key of Object.keys(raw)) {
    if (!(authFields as readonly string[]).includes(key)) {
      const secret = /token|secret|password/i.test(key)
      throw invalid(
        file,
        secret
          ? `'auth.${key}': a profile never holds secrets (tokens and client secrets live in the credentials file)`
          : `'auth.${key}' is not an auth setting (${authFields.join(', ')})`,
        `auth.${key}`,
      )
    }
    if (typeof raw[key] !== 'string' || raw[key] === '')
      throw invalid(file, `'auth.${key}' must be a string`, `auth.${key}`)
  }
  if (typeof raw.client_metadata_url === 'string' && !raw.client_metadata_url.startsWith('https://')) {
    throw invalid(file, "'auth.client_metadata_url' must be an https:// URL", 'auth.client_metadata_url')
  }
  return raw as ProfileAuth
}

function checkTool(raw: unknown, file: string, field: string): ProfileTool {
  if (!isRecord(raw)) throw invalid(file, `${field} must be a JSON object`, field)
  if (raw.tool !== undefined && (typeof raw.tool !== 'string' || raw.tool === ''))
    throw invalid(file, `${field}: 'tool' must be a tool name`, field)
  if (raw.defaults !== undefined && !isRecord(raw.defaults))
    throw invalid(file, `${field}: 'defaults' must be an object`, field)
  return raw as ProfileTool
}

/** Loads one tool entry of a profile (or undefined when the profile says nothing about that tool). */
export async function loadProfileTool(
  profile: Profile,
  tool: string,
  options: LoadOptions = {},
): Promise<ProfileTool | undefined> {
  assertValidName(tool, 'tool')
  const fs = options.fs ?? nodeFileSystem
  let raw: unknown
  let file: string
  if (profile.location.form === 'directory') {
    file = join(profile.location.path, `${tool}.json`)
    if ((await fs.kind(file)) !== 'file') return undefined
    raw = await readJson(fs, file)
  } else {
    file = profile.location.metaPath
    const tools = profile.meta.tools
    if (!isRecord(tools) || !Object.hasOwn(tools, tool)) return undefined
    raw = tools[tool]
  }
  const entry = checkTool(
    raw,
    file,
    profile.location.form === 'directory' ? 'the tool file' : `tools.${tool}`,
  )
  if (options.substitute === false) return entry
  return substituteValue(
    entry,
    await variablesFor(options, entry, unsubstitutedKeys),
    file,
    unsubstitutedKeys,
    profile.location.form === 'directory' ? '' : `tools.${tool}`,
  )
}

/** Names of the tools a profile has entries for, sorted. */
export async function listProfileTools(profile: Profile, options: SearchOptions = {}): Promise<string[]> {
  if (profile.location.form === 'file') {
    return isRecord(profile.meta.tools) ? Object.keys(profile.meta.tools).filter(isValidName).sort() : []
  }
  const fs = options.fs ?? nodeFileSystem
  const entries = await fs.readdir(profile.location.path)
  return entries
    .filter((entry) => entry.endsWith('.json') && entry !== '_meta.json')
    .map((entry) => entry.slice(0, -'.json'.length))
    .filter(isValidName)
    .sort()
}

export interface ProfileSummary extends ProfileLocation {
  /** False when a profile of the same name earlier in the search order hides this one. */
  active: boolean
}

/** Every profile in every root, in search order (hidden duplicates marked inactive). */
export async function listProfiles(options: SearchOptions = {}): Promise<ProfileSummary[]> {
  const fs = options.fs ?? nodeFileSystem
  const seen = new Set<string>()
  const summaries: ProfileSummary[] = []
  for (const root of await profileRoots(options)) {
    const dir = join(root.dir, 'profiles')
    const names = new Set<string>()
    for (const entry of await fs.readdir(dir)) {
      const name = entry.endsWith('.json') ? entry.slice(0, -'.json'.length) : entry
      if (isValidName(name)) names.add(name)
    }
    for (const name of [...names].sort()) {
      let location: ProfileLocation | undefined
      try {
        location = await locateIn(root, name, fs)
      } catch {
        continue // a directory without _meta.json is not a profile
      }
      if (!location) continue
      summaries.push({ ...location, active: !seen.has(name) })
      seen.add(name)
    }
  }
  return summaries
}

/** A tool as a profile stored it: the server's name and what it said about the tool. */
export interface StoredTool {
  name: string
  title?: string
  description?: string
  inputSchema?: unknown
  outputSchema?: unknown
  annotations?: unknown
}

/**
 * The whole profile as written, `${VAR}` left as is: meta plus every tool entry, keyed by
 * entry name (file name without .json, or key of the single file's `tools`).
 */
export async function loadProfileDocument(
  profile: Profile,
  options: SearchOptions = {},
): Promise<{ meta: ProfileMeta; tools: Record<string, ProfileTool> }> {
  const fs = options.fs ?? nodeFileSystem
  const raw = readMeta(await readJson(fs, profile.location.metaPath), profile.location)
  const tools: Record<string, ProfileTool> = {}
  if (profile.location.form === 'file') {
    const { tools: entries, ...meta } = raw
    if (isRecord(entries)) {
      for (const [name, entry] of Object.entries(entries))
        tools[name] = checkTool(entry, profile.location.metaPath, `tools.${name}`)
    }
    return { meta: meta as ProfileMeta, tools }
  }
  for (const name of await listProfileTools(profile, options)) {
    const file = join(profile.location.path, `${name}.json`)
    tools[name] = checkTool(await readJson(fs, file), file, 'the tool file')
  }
  return { meta: raw, tools }
}

/** The tools a profile recorded (entries with a stored inputSchema), by the server's names. */
export function storedTools(tools: Record<string, ProfileTool>): StoredTool[] {
  const byName = new Map<string, StoredTool>()
  for (const [entryName, entry] of Object.entries(tools)) {
    if (entry.inputSchema === undefined) continue // an alias or notes only
    const name = entry.tool ?? entryName
    const stored: StoredTool = { name, inputSchema: entry.inputSchema }
    if (entry.title !== undefined) stored.title = entry.title
    if (entry.description !== undefined) stored.description = entry.description
    if (entry.outputSchema !== undefined) stored.outputSchema = entry.outputSchema
    if (entry.annotations !== undefined) stored.annotations = entry.annotations
    byName.set(name, stored)
  }
  return [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
}
