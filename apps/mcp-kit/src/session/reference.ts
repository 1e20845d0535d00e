// Resolving references the way the CLI does: with the app's bundled profiles and the variables
// bundled profiles use to find this installation (MCP_KIT_NODE, MCP_KIT_BIN).

import { fileURLToPath } from 'node:url'
import type { ResolvedReference } from '@mcp-kit/profiles'
import type { Io } from '../cli/io.js'

export const bundledDir = fileURLToPath(new URL('../../bundled', import.meta.url))
export const binPath = fileURLToPath(new URL('../bin.js', import.meta.url))

/** `${VAR}` values the app provides to profiles besides the environment. */
export function appVariables(): Record<string, string> {
  return { MCP_KIT_NODE: process.execPath, MCP_KIT_BIN: binPath }
}

export function profileOptions(io: Io) {
  return { cwd: io.cwd, env: io.env, bundledDirs: [bundledDir], variables: appVariables() }
}

export async function resolveForCli(reference: string, io: Io): Promise<ResolvedReference> {
  const { resolveReference } = await import('@mcp-kit/profiles')
  return resolveReference(reference, profileOptions(io))
}
