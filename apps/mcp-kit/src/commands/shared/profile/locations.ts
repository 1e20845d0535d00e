// Which profile a profile command means, and where new profiles are written.

import type { ProfileScope } from '@mcp-kit/profiles'
import { CliError } from '../../../base/errors.js'
import type { Io } from '../../../base/io.js'

/** Where new profiles go: $MCP_KIT_HOME when set, else ./.mcp-kit (--project) or the user directory. */
export async function writeRoot(
  io: Io,
  project: boolean | undefined,
): Promise<{ root: string; scope: ProfileScope }> {
  const { projectProfileRoot, userProfileRoot } = await import('@mcp-kit/profiles')
  if (project) return { root: projectProfileRoot({ cwd: io.cwd }), scope: 'project' }
  if (io.env.MCP_KIT_HOME) return { root: io.env.MCP_KIT_HOME, scope: 'env' }
  return { root: userProfileRoot({ env: io.env }), scope: 'user' }
}

export function profileName(reference: string): string {
  const name = reference.startsWith('@') ? reference.slice(1) : reference
  if (name.includes('/') || name.includes('?')) {
    throw new CliError('usage', `expected a profile (@name), not ${JSON.stringify(reference)}`)
  }
  return name
}
