// Resolving references the way the CLI does: with the app's bundled profiles and the variables
// bundled profiles use to find this installation (MCP_KIT_NODE, MCP_KIT_BIN); and the server a
// command names, by reference or by a command line after `--`.

import { fileURLToPath } from 'node:url'
import type { ResolvedReference } from '@mcp-kit/profiles'
import { CliError } from '../cli/errors.js'
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

/** The flags that pick an operation, as the query keys of the same names do. */
const operationFlagNames = ['tool', 'resource', 'prompt', 'list'] as const

/** How a command names its server and operation. */
export interface TargetArguments {
  /** A reference, or (with a command line) a query that starts with `?`. */
  reference?: string
  /** Everything after `--`: a stdio server's command line (see cli/main.ts). */
  serverCommand?: string[]
  tool?: string
  resource?: string
  prompt?: string
  list?: string
}

export interface Target {
  resolved: ResolvedReference
  /** The target as the user gave it, for messages and records. */
  text: string
}

/**
 * The server and operation the command line names: a reference (`@demo/echo`, `mcp+npx://…`),
 * or `[?query] -- program args…`; operation flags (`--tool echo`) add to the query either way.
 */
export async function resolveTarget(args: TargetArguments, io: Io): Promise<Target> {
  const flags = operationFlagNames
    .filter((name) => args[name] !== undefined)
    .map((name) => `${name}=${encodeURIComponent(args[name] as string)}`)
    .join('&')
  const command = args.serverCommand
  if (command === undefined) {
    if (args.reference === undefined) {
      throw new CliError(
        'usage',
        'say which server: a reference (@profile, mcp+npx://package, mcp+http://host/mcp, …) or -- followed by its command line',
      )
    }
    const separator = args.reference.includes('?') ? '&' : '?'
    const text = flags === '' ? args.reference : `${args.reference}${separator}${flags}`
    return { resolved: await resolveForCli(text, io), text }
  }
  if (args.reference !== undefined && !args.reference.startsWith('?')) {
    throw new CliError(
      'usage',
      `${JSON.stringify(args.reference)} before --: with a command line, the server is what follows --; a query before it starts with '?', as in '?tool=echo'`,
    )
  }
  const query = [args.reference?.slice(1) ?? '', flags].filter((part) => part !== '').join('&')
  const { describeServer, parseCommandReference, resolveReference } = await import('@mcp-kit/profiles')
  const reference = parseCommandReference(command, query)
  const resolved = await resolveReference(reference, profileOptions(io))
  return { resolved, text: `${query === '' ? '' : `?${query} `}-- ${describeServer(reference.server)}` }
}
