// Resolves a reference to what the client needs: the server to reach and the operation to run.
// Profile references are looked up on disk and merged (_meta.json + <tool>.json, `${VAR}`,
// tool aliasing, argument defaults); naked references to local scripts are checked to exist.

import { resolve } from 'node:path'
import { ProfileError } from '../errors.js'
import { isValidName } from '../names.js'
import type { Profile, ProfileTool } from '../profile-types.js'
import { parseReference } from '../reference/parse-reference.js'
import type { RegistryLaunch } from '../registry/registry-launch.js'
import type { RegistryAnswers, RegistryServer } from '../registry-types.js'
import { nodeFileSystem } from '../store/file-system.js'
import { type LoadOptions, loadProfile, loadProfileTool } from '../store/load-profile.js'
import type { Operation, ParsedReference, ProfileReference, RegistryReference, ServerSpec } from '../types.js'

export interface ResolvedProfile extends Profile {
  /** The tool entry used by this reference's tool call, if the profile has one. */
  tool?: { name: string; entry: ProfileTool }
}

/** Where a `mcp+registry://` reference's server came from, and how it was turned into a launch. */
export interface RegistryResolution {
  /** The registry's base URL. */
  registry: string
  name: string
  /** The entry's exact version (the latest, when the reference named none). */
  version: string
  /** The entry as published. */
  server: RegistryServer
  /** What the registry says of the entry (`_meta`: status, publishedAt, isLatest…). */
  meta?: Record<string, unknown>
  launch: RegistryLaunch
  /** The answers the launch used, by input name. */
  values: RegistryAnswers
  /** The launch choice asked for (`registryLaunch`'s `choose`), if any. */
  choice?: string
  /** True when the registry could not be reached and a cached copy of the entry was used. */
  offline?: boolean
}

export interface ResolvedReference {
  reference: ParsedReference
  server: ServerSpec
  operation: Operation
  profile?: ResolvedProfile
  registry?: RegistryResolution
}

/** Fetches a registry entry and turns it into a launch (the CLI's registry client; profiles does no network). */
export type RegistryResolver = (reference: RegistryReference) => Promise<RegistryResolution>

export interface ResolveOptions extends LoadOptions {
  /** How `mcp+registry://` references are resolved; without it they are refused. */
  registry?: RegistryResolver
}

function withQueryLaunchParts(
  server: ServerSpec,
  reference: ProfileReference | RegistryReference,
  what: string,
): ServerSpec {
  const { launchArgs, env } = reference.query
  if (launchArgs.length === 0 && Object.keys(env).length === 0) return server
  if (server.transport === 'http') {
    throw new ProfileError(
      'invalid_reference',
      `arg= and env.* apply to launched servers; ${what} is an HTTP server`,
    )
  }
  const merged: ServerSpec = { ...server, args: [...server.args, ...launchArgs] }
  if (Object.keys(env).length > 0) merged.env = { ...server.env, ...env }
  return merged
}

async function resolveProfileReference(
  reference: ProfileReference,
  options: LoadOptions,
): Promise<ResolvedReference> {
  const profile: ResolvedProfile = await loadProfile(reference.profile, options)
  let operation = reference.operation
  if (operation.kind === 'callTool' && isValidName(operation.name)) {
    const entry = await loadProfileTool(profile, operation.name, options)
    if (entry) {
      profile.tool = { name: operation.name, entry }
      const call: Operation = { ...operation, name: entry.tool ?? operation.name }
      if (entry.defaults) call.defaults = { ...entry.defaults }
      operation = call
    }
  }
  return {
    reference,
    server: withQueryLaunchParts(profile.server, reference, `profile '${profile.location.name}'`),
    operation,
    profile,
  }
}

/**
 * Parses (if given a string) and resolves a reference. Errors are `ProfileError`s:
 * invalid_reference, profile_not_found, profile_invalid, missing_env; and whatever
 * `options.registry` throws for a `mcp+registry://` reference.
 */
export async function resolveReference(
  input: string | ParsedReference,
  options: ResolveOptions = {},
): Promise<ResolvedReference> {
  // Anything but parsed data goes through the parser, which refuses non-strings with invalid_reference.
  const reference = typeof input === 'object' && input !== null ? input : parseReference(input as string)
  if (reference.type === 'profile') return resolveProfileReference(reference, options)
  if (reference.type === 'command')
    return { reference, server: reference.server, operation: reference.operation }
  if (reference.type === 'registry') {
    if (options.registry === undefined) {
      throw new ProfileError(
        'invalid_reference',
        `mcp+registry://${reference.name}: registry references need a registry to resolve them (resolveReference's registry option)`,
      )
    }
    const registry = await options.registry(reference)
    const server = withQueryLaunchParts(registry.launch.server, reference, `registry entry ${reference.name}`)
    return { reference, server, operation: reference.operation, registry }
  }
  if (reference.launcher === 'node' || reference.launcher === 'python') {
    const fs = options.fs ?? nodeFileSystem
    const path = resolve(options.cwd ?? process.cwd(), reference.target)
    if ((await fs.kind(path)) !== 'file') {
      throw new ProfileError(
        'invalid_reference',
        `mcp+${reference.launcher}: no such file: ${reference.target}`,
        {
          details: { path },
        },
      )
    }
  }
  return { reference, server: reference.server, operation: reference.operation }
}
