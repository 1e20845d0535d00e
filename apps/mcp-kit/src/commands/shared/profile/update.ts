// `mcp-kit profile update <profile>`: show the diff, then rewrite the profile's stored schemas
// and hash (asking on a terminal); what the user wrote in the profile stays. A profile made from a
// registry entry also hears of newer versions, and moves to one with --to-version
// (update-registry.ts).

import type { Profile } from '@mcp-kit/profiles'
import { CliError } from '../../../base/errors.js'
import { exitCodes } from '../../../base/exit-codes.js'
import { type Io, writeLine } from '../../../base/io.js'
import { resolveForCli } from '../../../session/reference.js'
import { describeChanges } from '../../../session/schema-check.js'
import { compare, liveTools } from './live-tools.js'
import { profileName } from './locations.js'
import { confirmUpdate, type UpdateArguments, updatedEntries } from './update-entries.js'

export type { UpdateArguments }

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
