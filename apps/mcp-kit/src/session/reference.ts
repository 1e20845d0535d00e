// Resolving references the way the CLI does: with the app's bundled profiles and the variables
// bundled profiles use to find this installation (MCP_KIT_NODE, MCP_KIT_BIN); and the server a
// command names, by reference or by a command line after `--`.

import { fileURLToPath } from 'node:url'
import type { ResolvedReference } from '@mcp-kit/profiles'
import { CliError } from '../base/errors.js'
import type { Io } from '../base/io.js'
import type { RegistryArguments } from '../registry/registry-flags.js'

export const bundledDir = fileURLToPath(new URL('../../bundled', import.meta.url))
export const binPath = fileURLToPath(new URL('../bin.js', import.meta.url))

/** `${VAR}` values the app provides to profiles besides the environment. */
export function appVariables(): Record<string, string> {
  return { MCP_KIT_NODE: process.execPath, MCP_KIT_BIN: binPath }
}

export function profileOptions(io: Io) {
  return { cwd: io.cwd, env: io.env, bundledDirs: [bundledDir], variables: appVariables() }
}

/** `registry`: the registry flags and answers, for `mcp+registry://` references. */
export async function resolveForCli(
  reference: string,
  io: Io,
  registry: RegistryArguments = {},
): Promise<ResolvedReference> {
  const { resolveReference } = await import('@mcp-kit/profiles')
  if (!/^mcp\+registry:/i.test(reference)) return resolveReference(reference, profileOptions(io))
  const { registryResolver } = await import('../registry/resolve-registry.js')
  return resolveReference(reference, { ...profileOptions(io), registry: registryResolver(registry, io) })
}

/** The flags that pick an operation, as the query keys of the same names do. */
const operationFlagNames = ['tool', 'resource', 'prompt', 'list'] as const

/** How a command names its server and operation. */
export interface TargetArguments extends RegistryArguments {
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
  /** Query keys that name operations, taken as the tool's arguments (see `reservedAsArguments`). */
  reservedArguments?: ReservedArguments
}

/**
 * `?tool=generate&prompt=hi`: `prompt` is a reserved key, but the operation is already chosen.
 * It is taken as the tool's argument if the tool has such a parameter; else `refusal` stands.
 */
export interface ReservedArguments {
  names: string[]
  refusal: Error
}

/** The reserved keys a refusal says collide with the tool chosen, if that is what it says. */
function collisionsOf(error: unknown): string[] {
  const details = (error as { code?: string; details?: Record<string, unknown> }).details
  if ((error as { code?: string }).code !== 'invalid_reference' || details?.operation !== 'tool') return []
  return Object.keys((details.collisions ?? {}) as Record<string, unknown>)
}

/** The query's `name=` segments (a reference's, after its `?`, or a bare query) as `arg:name=`. */
function escapeKeys(text: string, names: readonly string[], bare = false): string {
  const at = bare ? -1 : text.indexOf('?')
  if (!bare && at === -1) return text
  const segments = text.slice(at + 1).split('&')
  const escaped = segments.map((segment) => {
    const key = segment.split('=', 1)[0] ?? ''
    return names.includes(key) ? `arg:${segment}` : segment
  })
  return `${text.slice(0, at + 1)}${escaped.join('&')}`
}

/**
 * The server and operation the command line names: a reference (`@demo/echo`, `mcp+npx://…`),
 * or `[?query] -- program args…`; operation flags (`--tool echo`) add to the query either way.
 */
export async function resolveTarget(
  args: TargetArguments,
  io: Io,
  options: { reservedAsArguments?: boolean } = {},
): Promise<Target> {
  try {
    return await resolveGiven(args, io)
  } catch (error) {
    // `--prompt x` is the operation flag as typed, never an argument.
    const names = options.reservedAsArguments
      ? collisionsOf(error).filter((name) => args[name as keyof TargetArguments] === undefined)
      : []
    if (names.length === 0) throw error
    const escaped = await resolveGiven(args, io, names)
    return { ...escaped, reservedArguments: { names, refusal: error as Error } }
  }
}

async function resolveGiven(args: TargetArguments, io: Io, asArguments: string[] = []): Promise<Target> {
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
    const given = flags === '' ? args.reference : `${args.reference}${separator}${flags}`
    const text = asArguments.length === 0 ? given : escapeKeys(given, asArguments)
    return { resolved: await resolveForCli(text, io, args), text }
  }
  if (args.reference !== undefined && !args.reference.startsWith('?')) {
    throw new CliError(
      'usage',
      `${JSON.stringify(args.reference)} before --: with a command line, the server is what follows --; a query before it starts with '?', as in '?tool=echo'`,
    )
  }
  const given = [args.reference?.slice(1) ?? '', flags].filter((part) => part !== '').join('&')
  const query = asArguments.length === 0 ? given : escapeKeys(given, asArguments, true)
  const { describeServer, parseCommandReference, resolveReference } = await import('@mcp-kit/profiles')
  const reference = parseCommandReference(command, query)
  const resolved = await resolveReference(reference, profileOptions(io))
  return { resolved, text: `${query === '' ? '' : `?${query} `}-- ${describeServer(reference.server)}` }
}
