// Drift: a saved profile against its live server, with the schema package's classification of each
// change, through `mcp-kit profile diff`'s compare(); and the profile brought up to date through
// `mcp-kit profile update --yes`.

import { CliError } from '../../base/errors.js'
import { compare } from '../shared/profile/live-tools.js'
import { runProfileUpdate } from '../shared/profile/update.js'
import { cliEquivalent } from './cli-equivalent.js'
import type { ServerEntry } from './server-entry.js'
import type { Workspace } from './workspace.js'

function profileOf(entry: ServerEntry): string {
  const name = entry.resolved?.profile?.location.name
  if (name === undefined)
    throw new CliError(
      'usage',
      `${entry.name} is not a profile: drift compares a saved profile with its server`,
    )
  return name
}

export async function driftView(entry: ServerEntry, workspace: Workspace): Promise<Record<string, unknown>> {
  const name = profileOf(entry)
  const { summarizeChanges } = await import('@mcp-kit/schema')
  const comparison = await compare(name, { ...workspace.args, 'keep-alive': '0' }, entry.io())
  return {
    profile: name,
    storedHash: comparison.storedHash ?? null,
    liveHash: comparison.liveHash,
    summary: summarizeChanges(comparison.changes),
    changes: comparison.changes,
    command: cliEquivalent(entry, { kind: 'diff' }),
    updateCommand: cliEquivalent(entry, { kind: 'update' }),
  }
}

export async function updateProfile(
  entry: ServerEntry,
  workspace: Workspace,
): Promise<Record<string, unknown>> {
  const name = profileOf(entry)
  const lines: string[] = []
  const io = { ...entry.io() }
  const { lineSink } = await import('./ui-io.js')
  io.stdout = lineSink((line) => lines.push(line))
  await runProfileUpdate({ ...workspace.args, 'keep-alive': '0', profile: name, yes: true }, io)
  // The profile's stored hash changed: connect again so the server's view says so.
  await entry.connect()
  return { ok: true, output: lines, command: cliEquivalent(entry, { kind: 'update' }) }
}
