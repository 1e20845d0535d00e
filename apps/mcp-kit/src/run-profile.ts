// `mcp-kit profile …`: explore → save → use → detect change → update. Create profiles from a
// reference, list and show them, hash a server's tools, validate and diff a profile against the
// live server, accept changes, and import the server lists of other MCP clients.

import { readFile } from 'node:fs/promises'
import { createInterface } from 'node:readline/promises'
import type { Session, Tool } from '@mcp-kit/client'
import type {
  Profile,
  ProfileDocument,
  ProfileMeta,
  ProfileScope,
  ProfileTool,
  ResolvedReference,
} from '@mcp-kit/profiles'
import type { ToolChange } from '@mcp-kit/schema'
import { type ConnectionArguments, openSession } from './connection.js'
import { CliError } from './errors.js'
import { exitCodes } from './exit-codes.js'
import { type Io, useColor, write } from './io.js'
import { buildDocument, launchMeta, serverFields, toolEntry } from './profile-document.js'
import { profileOptions, resolveForCli } from './reference.js'
import { createStyle } from './render-inspect.js'
import { describeChanges } from './schema-check.js'

const profiles = () => import('@mcp-kit/profiles')
const schema = () => import('@mcp-kit/schema')

function print(io: Io, text: string): Promise<void> {
  return write(io.stdout, text.endsWith('\n') ? text : `${text}\n`)
}

/** Where new profiles go: $MCP_KIT_HOME when set, else ./.mcp-kit (--project) or the user directory. */
async function writeRoot(
  io: Io,
  project: boolean | undefined,
): Promise<{ root: string; scope: ProfileScope }> {
  const { projectProfileRoot, userProfileRoot } = await profiles()
  if (project) return { root: projectProfileRoot({ cwd: io.cwd }), scope: 'project' }
  if (io.env.MCP_KIT_HOME) return { root: io.env.MCP_KIT_HOME, scope: 'env' }
  return { root: userProfileRoot({ env: io.env }), scope: 'user' }
}

function profileName(reference: string): string {
  const name = reference.startsWith('@') ? reference.slice(1) : reference
  if (name.includes('/') || name.includes('?')) {
    throw new CliError('usage', `expected a profile (@name), not ${JSON.stringify(reference)}`)
  }
  return name
}

// --- create and --save ------------------------------------------------------------------------

export interface CreateArguments extends ConnectionArguments {
  name: string
  from: string
  project?: boolean
  force?: boolean
}

/** The launch fields of a profile document, as written (placeholders stay placeholders). */
function launchFields(meta: ProfileMeta): ProfileMeta {
  const fields = [
    'description',
    'transport',
    'command',
    'args',
    'env',
    'cwd',
    'url',
    'headers',
    'tool_filter',
  ] as const
  const result: ProfileMeta = {}
  for (const field of fields)
    if (meta[field] !== undefined) (result as Record<string, unknown>)[field] = meta[field]
  if (Array.isArray(meta.tools) || meta.tools === null) result.tools = meta.tools
  return result
}

/** Writes a profile for `resolved` with the live `tools`; secrets become ${NAME} placeholders. */
export async function saveProfile(
  name: string,
  resolved: ResolvedReference,
  tools: readonly Tool[],
  args: ConnectionArguments & { project?: boolean; force?: boolean },
  io: Io,
  source: string,
  announce: (text: string) => Promise<void> = (text) => print(io, text),
): Promise<number> {
  const { assertValidName, loadProfileDocument, writeProfile } = await profiles()
  const { hashTools } = await schema()
  assertValidName(name, 'profile')
  let meta: ProfileMeta
  let placeholders: Array<{ where: string; variable: string }> = []
  if (resolved.profile) {
    meta = launchFields((await loadProfileDocument(resolved.profile)).meta)
  } else {
    const env = [
      ...(args.env ?? []).map((pair) => pair.slice(0, pair.indexOf('='))),
      ...(args['pass-env'] ?? []).filter((name) => !name.includes('*')),
    ]
    const headers = (args.header ?? []).map((header) => header.slice(0, header.indexOf(':')).trim())
    ;({ meta, placeholders } = launchMeta(resolved, { env, headers }, io.cwd))
    // Only the part before '?': the query may carry env.NAME=secret values.
    meta = { description: `Created by mcp-kit from ${source.split('?')[0]}`, ...meta }
  }
  const document = await buildDocument(meta, tools, hashTools(tools), new Date())
  const { root, scope } = await writeRoot(io, args.project)
  const location = await writeProfile(name, document, { root, scope, force: args.force })
  await announce(
    `saved profile @${name} (${tools.length} tools, ${document.meta.schema_hash}) in ${location.path}`,
  )
  if (placeholders.length > 0) {
    const list = placeholders
      .map((placeholder) => `${placeholder.where} as \${${placeholder.variable}}`)
      .join(', ')
    const variables = placeholders.map((placeholder) => placeholder.variable).join(', ')
    await announce(
      `secrets are not stored: wrote ${list}; set ${variables} in the environment when you use @${name}`,
    )
  }
  const globs = (args['pass-env'] ?? []).filter((pattern) => pattern.includes('*'))
  if (globs.length > 0 && !resolved.profile) {
    await announce(
      `--pass-env ${globs.join(' ')} is not saved (a profile names each variable): add them to "env" as \${NAME}`,
    )
  }
  return exitCodes.ok
}

export async function runProfileCreate(args: CreateArguments, io: Io): Promise<number> {
  const { assertValidName } = await profiles()
  assertValidName(args.name, 'profile')
  const resolved = await resolveForCli(args.from, io)
  const session = await openSession(resolved, args, io)
  try {
    return await saveProfile(args.name, resolved, await session.listTools(), args, io, args.from)
  } finally {
    await session.close()
  }
}

// --- list and info ----------------------------------------------------------------------------

export interface ListArguments {
  format: 'text' | 'json'
}

interface ListedProfile {
  name: string
  scope: ProfileScope
  path: string
  form: 'directory' | 'file'
  active: boolean
  transport: 'stdio' | 'http' | 'invalid'
  schemaHash: string | null
  problem?: string
}

export async function runProfileList(args: ListArguments, io: Io): Promise<number> {
  const { listProfiles, parseJsonFile } = await profiles()
  const listed: ListedProfile[] = []
  for (const summary of await listProfiles(profileOptions(io))) {
    const entry: ListedProfile = {
      name: summary.name,
      scope: summary.scope,
      path: summary.path,
      form: summary.form,
      active: summary.active,
      transport: 'invalid',
      schemaHash: null,
    }
    try {
      const meta = parseJsonFile(await readFile(summary.metaPath, 'utf8'), summary.metaPath) as ProfileMeta
      entry.transport = typeof meta.url === 'string' ? 'http' : 'stdio'
      entry.schemaHash = typeof meta.schema_hash === 'string' ? meta.schema_hash : null
    } catch (error) {
      entry.problem = (error as Error).message
    }
    listed.push(entry)
  }
  if (args.format === 'json') return print(io, JSON.stringify(listed, null, 2)).then(() => exitCodes.ok)
  if (listed.length === 0) {
    await print(io, 'no profiles yet: create one with mcp-kit profile create <name> --from <reference>')
    return exitCodes.ok
  }
  const rows = [['NAME', 'SCOPE', 'TRANSPORT', 'HASH', 'PATH']]
  for (const entry of listed) {
    const hash = entry.schemaHash ? `${entry.schemaHash.slice(0, 19)}…` : '-'
    const name = entry.active ? entry.name : `${entry.name} (hidden)`
    rows.push([name, entry.scope, entry.problem ? 'invalid' : entry.transport, hash, entry.path])
  }
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length))) ?? []
  await print(
    io,
    rows
      .map((row) =>
        row
          .map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column] ?? 0)))
          .join('  '),
      )
      .join('\n'),
  )
  return exitCodes.ok
}

export interface InfoArguments {
  profile: string
  format: 'text' | 'json'
}

export async function runProfileInfo(args: InfoArguments, io: Io): Promise<number> {
  const { loadProfile, loadProfileDocument, describeServer } = await profiles()
  const profile = await loadProfile(profileName(args.profile), { ...profileOptions(io), substitute: false })
  const document = await loadProfileDocument(profile)
  if (args.format === 'json') {
    await print(
      io,
      JSON.stringify(
        {
          name: profile.location.name,
          location: profile.location,
          meta: document.meta,
          tools: document.tools,
        },
        null,
        2,
      ),
    )
    return exitCodes.ok
  }
  const style = createStyle(useColor(io, 'stdout'))
  const lines = [
    `${style.bold(`@${profile.location.name}`)}  ${profile.location.scope}  ${profile.location.path}`,
    `launch: ${describeServer(profile.server)}`,
  ]
  if (document.meta.description) lines.push(`description: ${document.meta.description}`)
  if (profile.server.transport === 'stdio' && profile.server.env)
    lines.push(
      `env: ${Object.entries(profile.server.env)
        .map(([key, value]) => `${key}=${value}`)
        .join(' ')}`,
    )
  if (profile.server.transport === 'http' && profile.server.headers)
    lines.push(
      `headers: ${Object.entries(profile.server.headers)
        .map(([key, value]) => `${key}: ${value}`)
        .join(', ')}`,
    )
  lines.push(
    `schema: ${document.meta.schema_hash ?? '(none stored)'}${document.meta.schema_updated ? ` (${document.meta.schema_updated})` : ''}; on change: ${profile.schemaValidation}`,
  )
  if (profile.toolFilter) lines.push(`tools filter: ${profile.toolFilter.join(', ') || '(none)'}`)
  const entries = Object.entries(document.tools)
  lines.push('', style.bold(`Tools (${entries.length})`))
  for (const [name, entry] of entries) {
    const alias = entry.tool && entry.tool !== name ? ` → ${entry.tool}` : ''
    const defaults = entry.defaults ? `  defaults ${JSON.stringify(entry.defaults)}` : ''
    lines.push(
      `  ${style.accent(name)}${alias}${defaults}${entry.description ? `  ${style.dim(entry.description.replace(/\s+/g, ' ').slice(0, 80))}` : ''}`,
    )
  }
  await print(io, lines.join('\n'))
  return exitCodes.ok
}

// --- version, validate, diff, update ----------------------------------------------------------

export interface VersionArguments extends ConnectionArguments {
  reference: string
}

async function liveTools(resolved: ResolvedReference, args: ConnectionArguments, io: Io): Promise<Tool[]> {
  const session: Session = await openSession(resolved, args, io)
  try {
    return await session.listTools()
  } finally {
    await session.close()
  }
}

export async function runProfileVersion(args: VersionArguments, io: Io): Promise<number> {
  const { hashTools } = await schema()
  const resolved = await resolveForCli(args.reference, io)
  await print(io, hashTools(await liveTools(resolved, args, io)))
  return exitCodes.ok
}

interface Comparison {
  profile: Profile
  document: ProfileDocument
  resolved: ResolvedReference
  tools: Tool[]
  storedHash: string | undefined
  liveHash: string
  changes: ToolChange[]
}

async function compare(reference: string, args: ConnectionArguments, io: Io): Promise<Comparison> {
  const { loadProfileDocument, storedTools } = await profiles()
  const { diffTools, hashTools } = await schema()
  const name = profileName(reference)
  const resolved = await resolveForCli(`@${name}`, io)
  const profile = resolved.profile as Profile
  const document = await loadProfileDocument(profile)
  const stored = storedTools(document.tools)
  if (stored.length === 0 && document.meta.schema_hash === undefined) {
    throw new CliError(
      'usage',
      `profile @${name} has no stored tool schemas to compare with; run 'mcp-kit profile update @${name}' to record them`,
    )
  }
  const tools = await liveTools(resolved, args, io)
  return {
    profile,
    document,
    resolved,
    tools,
    storedHash: document.meta.schema_hash,
    liveHash: hashTools(tools),
    changes: diffTools(stored, tools),
  }
}

export interface ValidateArguments extends ConnectionArguments {
  profile: string
  strict?: boolean
}

export async function runProfileValidate(args: ValidateArguments, io: Io): Promise<number> {
  const comparison = await compare(args.profile, args, io)
  const name = `@${comparison.profile.location.name}`
  const breaking = comparison.changes.filter((change) => change.class === 'breaking')
  if (comparison.changes.length === 0) {
    await print(io, `${name}: the live tools match the profile (${comparison.liveHash})`)
    return exitCodes.ok
  }
  const failed = breaking.length > 0 || args.strict === true
  const verdict =
    breaking.length > 0 ? `${breaking.length} breaking` : `${comparison.changes.length} non-breaking`
  await print(
    io,
    [
      `${name}: the tools changed (${verdict}):`,
      ...describeChanges(comparison.changes).map((line) => `  ${line}`),
    ].join('\n'),
  )
  if (failed && !args.quiet)
    io.stderr.write(
      `mcp-kit: ${name} does not match the server${args.strict && breaking.length === 0 ? ' (--strict)' : ''}\n`,
    )
  return failed ? exitCodes.schemaChanged : exitCodes.ok
}

export interface DiffArguments extends ConnectionArguments {
  profile: string
  format: 'text' | 'json'
}

export async function runProfileDiff(args: DiffArguments, io: Io): Promise<number> {
  const comparison = await compare(args.profile, args, io)
  const { summarizeChanges } = await schema()
  const breaking = comparison.changes.some((change) => change.class === 'breaking')
  if (args.format === 'json') {
    await print(
      io,
      JSON.stringify(
        {
          profile: comparison.profile.location.name,
          storedHash: comparison.storedHash ?? null,
          liveHash: comparison.liveHash,
          summary: summarizeChanges(comparison.changes),
          changes: comparison.changes,
        },
        null,
        2,
      ),
    )
  } else if (comparison.changes.length === 0) {
    await print(io, 'no changes')
  } else {
    const width = Math.max(...comparison.changes.map((change) => change.class.length))
    await print(
      io,
      comparison.changes.map((change) => `${change.class.padEnd(width)}  ${change.message}`).join('\n'),
    )
  }
  return breaking ? exitCodes.schemaChanged : exitCodes.ok
}

export interface UpdateArguments extends ConnectionArguments {
  profile: string
  yes?: boolean
}

const userFields = ['defaults', 'notes', 'examples', 'output_format'] as const

/** The profile's tool entries brought up to date with the live tools; the user's own fields stay. */
async function updatedEntries(
  entries: Record<string, ProfileTool>,
  tools: readonly Tool[],
): Promise<Record<string, ProfileTool>> {
  const { toolFileName } = await profiles()
  const live = new Map(tools.map((tool) => [tool.name, tool]))
  const result: Record<string, ProfileTool> = {}
  const covered = new Set<string>()
  for (const [entryName, entry] of Object.entries(entries)) {
    const serverName = entry.tool ?? entryName
    const tool = live.get(serverName)
    const userEntry: ProfileTool = { ...entry }
    for (const field of serverFields) delete userEntry[field]
    if (entry.inputSchema === undefined) {
      result[entryName] = entry // an alias or notes: not ours to touch
      continue
    }
    if (tool) {
      result[entryName] = { ...userEntry, ...toolEntry(tool, entryName) }
      covered.add(serverName)
    } else if (userFields.some((field) => entry[field] !== undefined)) {
      result[entryName] = userEntry // the tool is gone; keep what the user wrote about it
    }
  }
  const taken = new Set(Object.keys(result))
  for (const tool of tools) {
    if (covered.has(tool.name)) continue
    const file = toolFileName(tool.name, taken)
    taken.add(file)
    result[file] = toolEntry(tool, file)
  }
  return result
}

async function confirm(io: Io, question: string): Promise<boolean> {
  const lines = createInterface({ input: io.stdin, output: io.stderr })
  try {
    return /^y(es)?$/i.test((await lines.question(question)).trim())
  } finally {
    lines.close()
  }
}

export async function runProfileUpdate(args: UpdateArguments, io: Io): Promise<number> {
  const comparison = await compare(args.profile, args, io).catch(async (error) => {
    // A profile with nothing stored yet: record the tools for the first time.
    if (!(error instanceof CliError && error.code === 'usage')) throw error
    const resolved = await resolveForCli(`@${profileName(args.profile)}`, io)
    const { loadProfileDocument } = await profiles()
    const { hashTools } = await schema()
    const profile = resolved.profile as Profile
    const tools = await liveTools(resolved, args, io)
    return {
      profile,
      document: await loadProfileDocument(profile),
      resolved,
      tools,
      storedHash: undefined,
      liveHash: hashTools(tools),
      changes: [],
    }
  })
  const name = `@${comparison.profile.location.name}`
  const descriptionsOnly = comparison.changes.length === 0 && comparison.storedHash === comparison.liveHash
  if (descriptionsOnly && Object.keys(comparison.document.tools).length > 0) {
    await print(io, `${name} is up to date (${comparison.liveHash})`)
    return exitCodes.ok
  }
  if (comparison.changes.length > 0)
    await print(
      io,
      [`${name}: changes to accept:`, ...describeChanges(comparison.changes).map((line) => `  ${line}`)].join(
        '\n',
      ),
    )
  if (!args.yes) {
    if (!io.stderrIsTTY || !(io.stdin as { isTTY?: boolean }).isTTY) {
      throw new CliError(
        'usage',
        `not updating ${name} without confirmation: run it on a terminal, or add --yes`,
      )
    }
    if (!(await confirm(io, `Update ${name} to the live tools? [y/N] `))) {
      await print(io, 'not updated')
      return exitCodes.ok
    }
  }
  const { rewriteProfile } = await profiles()
  const tools = await updatedEntries(comparison.document.tools, comparison.tools)
  const meta = {
    ...comparison.document.meta,
    schema_hash: comparison.liveHash,
    schema_updated: new Date().toISOString(),
  }
  await rewriteProfile(comparison.profile.location, { meta, tools })
  await print(io, `updated ${name}: ${comparison.tools.length} tools, ${comparison.liveHash}`)
  return exitCodes.ok
}

// --- import -----------------------------------------------------------------------------------

export interface ImportArguments {
  file?: string
  only?: string[]
  discover?: boolean
  project?: boolean
  force?: boolean
  quiet?: boolean
}

export async function runProfileImport(args: ImportArguments, io: Io): Promise<number> {
  const { clientConfigLocations, parseClientConfig, writeProfile } = await profiles()
  let files: Array<{ client: string; path: string }>
  if (args.discover) {
    const candidates = clientConfigLocations({ env: io.env, cwd: io.cwd })
    files = []
    for (const candidate of candidates) {
      if (
        await readFile(candidate.path).then(
          () => true,
          () => false,
        )
      )
        files.push(candidate)
    }
    if (files.length === 0) {
      await print(
        io,
        `no MCP client configs found; looked at:\n  ${candidates.map((candidate) => `${candidate.path} (${candidate.client})`).join('\n  ')}`,
      )
      return exitCodes.ok
    }
  } else if (args.file) {
    files = [{ client: 'config', path: args.file }]
  } else {
    throw new CliError('usage', 'say which file to import, or use --discover')
  }
  const { root, scope } = await writeRoot(io, args.project)
  const wanted = new Set(args.only ?? [])
  const found = new Set<string>()
  const imported: string[] = []
  const skipped: string[] = []
  for (const file of files) {
    let text: string
    try {
      text = await readFile(file.path, 'utf8')
    } catch (error) {
      throw new CliError(
        'usage',
        `cannot read ${file.path}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}`,
      )
    }
    const config = parseClientConfig(text, file.path, { cwd: io.cwd })
    for (const entry of config.skipped) skipped.push(`${entry.name} in ${file.path} (${entry.reason})`)
    for (const server of config.servers) {
      if (wanted.size > 0 && !wanted.has(server.name) && !wanted.has(server.sourceName)) continue
      found.add(server.name).add(server.sourceName)
      if (imported.includes(server.name)) {
        skipped.push(`${server.sourceName} in ${file.path} (imported from an earlier file)`)
        continue
      }
      const meta: ProfileMeta = { description: `Imported from ${file.client} (${file.path})`, ...server.meta }
      try {
        await writeProfile(server.name, { meta, tools: {} }, { root, scope, force: args.force })
        imported.push(server.name)
      } catch (error) {
        if (!(error as { message?: string }).message?.includes('already exists')) throw error
        skipped.push(`${server.name} (already exists; --force to replace it)`)
      }
    }
  }
  const missing = [...wanted].filter((name) => !found.has(name))
  if (missing.length > 0)
    throw new CliError('usage', `not in ${files.map((file) => file.path).join(', ')}: ${missing.join(', ')}`)
  await print(
    io,
    imported.length > 0
      ? `imported ${imported.map((name) => `@${name}`).join(', ')} into ${root}`
      : 'nothing imported',
  )
  if (skipped.length > 0 && !args.quiet) io.stderr.write(`mcp-kit: skipped ${skipped.join('; ')}\n`)
  return exitCodes.ok
}

/** `--save <name>` on inspect and cat: the naked reference just used, saved as a profile. */
export async function saveUsedReference(
  name: string,
  resolved: ResolvedReference,
  tools: readonly Tool[],
  args: ConnectionArguments,
  io: Io,
  source: string,
): Promise<void> {
  if (resolved.profile)
    throw new CliError('usage', `--save saves naked references; ${source} is already a profile`)
  // Messages go to stderr: stdout carries the command's own output.
  await saveProfile(
    name,
    resolved,
    tools,
    args,
    io,
    source,
    async (text) => void io.stderr.write(`mcp-kit: ${text}\n`),
  )
}
