// `mcp-kit profile update <profile>`: show the diff, then rewrite the profile's stored schemas
// and hash (asking on a terminal); what the user wrote in the profile stays. A profile made from a
// registry entry also hears of newer versions, and moves to one with --to-version
// (update-registry.ts).

import { createInterface } from 'node:readline/promises'
import type { Tool } from '@mcp-kit/client'
import type { Profile, ProfileTool } from '@mcp-kit/profiles'
import { CliError } from '../../cli/errors.js'
import { exitCodes } from '../../cli/exit-codes.js'
import { type Io, writeLine } from '../../cli/io.js'
import type { ConnectionArguments } from '../../session/connection-flags.js'
import { resolveForCli } from '../../session/reference.js'
import { describeChanges } from '../../session/schema-check.js'
import { compare, liveTools } from './compare.js'
import { profileName } from './locations.js'
import { serverFields, toolEntry } from './profile-document.js'

export interface UpdateArguments extends ConnectionArguments {
  profile: string
  yes?: boolean
  /** A registry profile: the version to pin instead (`latest` for the registry's latest). */
  'to-version'?: string
}

const userFields = ['defaults', 'notes', 'examples', 'output_format'] as const

/** The profile's tool entries brought up to date with the live tools; the user's own fields stay. */
export async function updatedEntries(
  entries: Record<string, ProfileTool>,
  tools: readonly Tool[],
): Promise<Record<string, ProfileTool>> {
  const { toolFileName } = await import('@mcp-kit/profiles/internal')
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

/** --yes, or a yes on the terminal; without either nothing is written (a usage error off a terminal). */
export async function confirmUpdate(
  args: UpdateArguments,
  io: Io,
  name: string,
  question: string,
): Promise<boolean> {
  if (args.yes) return true
  if (!io.stderrIsTTY || !(io.stdin as { isTTY?: boolean }).isTTY) {
    throw new CliError(
      'usage',
      `not updating ${name} without confirmation: run it on a terminal, or add --yes`,
    )
  }
  if (await confirm(io, question)) return true
  await writeLine(io.stdout, 'not updated')
  return false
}

export async function runProfileUpdate(args: UpdateArguments, io: Io): Promise<number> {
  const { updateRegistryProfile } = await import('./update-registry.js')
  const moved = await updateRegistryProfile(args, io)
  if (moved !== undefined) return moved
  const comparison = await compare(args.profile, args, io).catch(async (error) => {
    // A profile with nothing stored yet: record the tools for the first time.
    if (!(error instanceof CliError && error.code === 'usage')) throw error
    const resolved = await resolveForCli(`@${profileName(args.profile)}`, io)
    const { loadProfileDocument } = await import('@mcp-kit/profiles')
    const { hashTools } = await import('@mcp-kit/schema')
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
    await writeLine(io.stdout, `${name} is up to date (${comparison.liveHash})`)
    return exitCodes.ok
  }
  if (comparison.changes.length > 0)
    await writeLine(
      io.stdout,
      [`${name}: changes to accept:`, ...describeChanges(comparison.changes).map((line) => `  ${line}`)].join(
        '\n',
      ),
    )
  if (!(await confirmUpdate(args, io, name, `Update ${name} to the live tools? [y/N] `))) return exitCodes.ok
  const { rewriteProfile } = await import('@mcp-kit/profiles')
  const tools = await updatedEntries(comparison.document.tools, comparison.tools)
  const meta = {
    ...comparison.document.meta,
    schema_hash: comparison.liveHash,
    schema_updated: new Date().toISOString(),
  }
  await rewriteProfile(comparison.profile.location, { meta, tools })
  await writeLine(io.stdout, `updated ${name}: ${comparison.tools.length} tools, ${comparison.liveHash}`)
  return exitCodes.ok
}
