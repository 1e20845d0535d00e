// Resolving references the way the CLI does: with the app's bundled profiles and the variables
// bundled profiles use to find this installation (MCP_KIT_NODE, MCP_KIT_BIN); and the server a
// command names, by reference or by a command line after `--`.

import { fileURLToPath } from 'node:url'
import type { ResolvedReference, ResolveOptions } from '@mcp-kit/profiles'
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

/** The resolve options of the CLI; `registry`: the registry flags and answers, for `mcp+registry://` references. */
async function cliResolveOptions(
  reference: string | undefined,
  io: Io,
  registry: RegistryArguments,
): Promise<ResolveOptions> {
  if (reference === undefined || !/^mcp\+registry:/i.test(reference)) return profileOptions(io)
  const { registryResolver } = await import('../registry/resolve-registry.js')
  return { ...profileOptions(io), registry: registryResolver(registry, io) }
}

/** `registry`: the registry flags and answers, for `mcp+registry://` references. */
export async function resolveForCli(
  reference: string,
  io: Io,
  registry: RegistryArguments = {},
): Promise<ResolvedReference> {
  const { resolveReference } = await import('@mcp-kit/profiles')
  return resolveReference(reference, await cliResolveOptions(reference, io, registry))
}

/** The flags that pick an operation, as the query keys of the same names do. */
const operationFlagNames = ['tool', 'resource', 'prompt', 'list'] as const

/** How a command names its server and operation. */
export interface TargetArguments extends RegistryArguments {
  /** A reference, or (with a command line) a query that starts with `?`. */
  reference?: string
  /** Everything after `--`: a stdio server's command line (see program/run.ts). */
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
  /**
   * `?tool=generate&prompt=hi`: reserved query keys taken as the tool's arguments because the
   * tool was already chosen (with `reservedAsArguments`); they stand only if the tool has such
   * parameters (tool-arguments.ts checks that).
   */
  reservedArguments?: string[]
}

/**
 * The target as typed, for messages and records only: the operation flags are shown as the query
 * keys they stand for (`@demo --tool add` reads `@demo?tool=add`). The resolver gets them as fields.
 */
function targetText(args: TargetArguments, describe: () => string): string {
  const flags = operationFlagNames
    .filter((name) => args[name] !== undefined)
    .map((name) => `${name}=${encodeURIComponent(args[name] as string)}`)
  if (args.serverCommand === undefined) {
    const reference = args.reference as string
    if (flags.length === 0) return reference
    return `${reference}${reference.includes('?') ? '&' : '?'}${flags.join('&')}`
  }
  const query = [args.reference?.slice(1) ?? '', ...flags].filter((part) => part !== '').join('&')
  return `${query === '' ? '' : `?${query} `}-- ${describe()}`
}

/**
 * The server and operation the command line names: a reference (`@demo/echo`, `mcp+npx://…`),
 * or `[?query] -- program args…`; operation flags (`--tool echo`) join the query either way.
 * `reservedAsArguments`: a tool chosen, the query's other reserved keys may be its arguments.
 */
export async function resolveTarget(
  args: TargetArguments,
  io: Io,
  options: { reservedAsArguments?: boolean } = {},
): Promise<Target> {
  const command = args.serverCommand
  if (command === undefined && args.reference === undefined) {
    throw new CliError(
      'usage',
      'say which server: a reference (@profile, mcp+npx://package, mcp+http://host/mcp, …) or -- followed by its command line',
    )
  }
  if (command !== undefined && args.reference !== undefined && !args.reference.startsWith('?')) {
    throw new CliError(
      'usage',
      `${JSON.stringify(args.reference)} before --: with a command line, the server is what follows --; a query before it starts with '?', as in '?tool=echo'`,
    )
  }
  const { describeServer, resolveReferenceRequest } = await import('@mcp-kit/profiles')
  const operation = { tool: args.tool, resource: args.resource, prompt: args.prompt, list: args.list }
  const reservedAsArguments = options.reservedAsArguments === true
  const { resolved, ambiguous } = await resolveReferenceRequest(
    command === undefined
      ? { reference: args.reference, operation, reservedAsArguments }
      : { command, query: args.reference?.slice(1) ?? '', operation, reservedAsArguments },
    await cliResolveOptions(command === undefined ? args.reference : undefined, io, args),
  )
  const text = targetText(args, () => describeServer(resolved.server))
  return ambiguous.length === 0 ? { resolved, text } : { resolved, text, reservedArguments: ambiguous }
}
