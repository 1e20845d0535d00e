// Resolves a reference to what the client needs: the server to reach and the operation to run.
// Profile references are looked up on disk and merged (_meta.json + <tool>.json, `${VAR}`,
// tool aliasing, argument defaults); naked references to local scripts are checked to exist.

import { resolve } from 'node:path'
import { ProfileError } from './errors.js'
import { nodeFileSystem } from './file-system.js'
import { type LoadOptions, loadProfile, loadProfileTool } from './load-profile.js'
import { isValidName } from './names.js'
import { parseReference } from './parse-reference.js'
import type { Profile, ProfileTool } from './profile-types.js'
import type { Operation, ParsedReference, ProfileReference, ServerSpec } from './types.js'

export interface ResolvedProfile extends Profile {
  /** The tool entry used by this reference's tool call, if the profile has one. */
  tool?: { name: string; entry: ProfileTool }
}

export interface ResolvedReference {
  reference: ParsedReference
  server: ServerSpec
  operation: Operation
  profile?: ResolvedProfile
}

function withQueryLaunchParts(server: ServerSpec, reference: ProfileReference, profile: Profile): ServerSpec {
  const { launchArgs, env } = reference.query
  if (launchArgs.length === 0 && Object.keys(env).length === 0) return server
  if (server.transport === 'http') {
    throw new ProfileError(
      'invalid_reference',
      `arg= and env.* apply to launched servers; profile '${profile.location.name}' is an HTTP server`,
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
  return { reference, server: withQueryLaunchParts(profile.server, reference, profile), operation, profile }
}

/**
 * Parses (if given a string) and resolves a reference. Errors are `ProfileError`s:
 * invalid_reference, profile_not_found, profile_invalid, missing_env.
 */
export async function resolveReference(
  input: string | ParsedReference,
  options: LoadOptions = {},
): Promise<ResolvedReference> {
  // Anything but parsed data goes through the parser, which refuses non-strings with invalid_reference.
  const reference = typeof input === 'object' && input !== null ? input : parseReference(input as string)
  if (reference.type === 'profile') return resolveProfileReference(reference, options)
  if (reference.type === 'command')
    return { reference, server: reference.server, operation: reference.operation }
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
