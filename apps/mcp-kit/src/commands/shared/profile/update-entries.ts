// What `profile update` shares with the registry profiles' update (update-registry.ts): its
// arguments, the profile's tool entries brought up to date with the live tools, and the question
// before a profile is rewritten.

import { createInterface } from 'node:readline/promises'
import type { Tool } from '@mcp-kit/client'
import type { ProfileTool } from '@mcp-kit/profiles'
import { CliError } from '../../../base/errors.js'
import { type Io, writeLine } from '../../../base/io.js'
import type { ConnectionArguments } from '../../../session/connection-flags.js'
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
