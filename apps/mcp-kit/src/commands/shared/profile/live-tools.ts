// A profile's stored tools against its live server's: what `profile diff|validate|update` and the
// drift view of `mcp-kit ui` compare.

import type { Session, Tool } from '@mcp-kit/client'
import type { Profile, ProfileDocument, ResolvedReference } from '@mcp-kit/profiles'
import type { ToolChange } from '@mcp-kit/schema'
import { CliError } from '../../../base/errors.js'
import type { Io } from '../../../base/io.js'
import type { ConnectionArguments } from '../../../session/connection-flags.js'
import { openSession } from '../../../session/open-session.js'
import { resolveForCli } from '../../../session/reference.js'
import { profileName } from './locations.js'

export async function liveTools(
  resolved: ResolvedReference,
  args: ConnectionArguments,
  io: Io,
): Promise<Tool[]> {
  const session: Session = await openSession(resolved, args, io)
  try {
    return await session.listTools()
  } finally {
    await session.close()
  }
}

export interface Comparison {
  profile: Profile
  document: ProfileDocument
  resolved: ResolvedReference
  tools: Tool[]
  storedHash: string | undefined
  liveHash: string
  changes: ToolChange[]
}

export async function compare(reference: string, args: ConnectionArguments, io: Io): Promise<Comparison> {
  const { loadProfileDocument, storedTools } = await import('@mcp-kit/profiles')
  const { diffTools, hashTools } = await import('@mcp-kit/schema')
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
