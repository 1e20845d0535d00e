// A profile written from a reference, with the live tools' schemas and hash; secrets become ${NAME}
// placeholders. `profile create` writes one, and `--save <name>` on inspect and cat.

import type { Tool } from '@mcp-kit/client'
import type { ProfileMeta, ResolvedReference } from '@mcp-kit/profiles'
import { CliError } from '../../../base/errors.js'
import { exitCodes } from '../../../base/exit-codes.js'
import { type Io, writeLine } from '../../../base/io.js'
import { writeDiagnostic } from '../../../output/diagnostics.js'
import { profileSampling, samplingChoice } from '../../../sampling/sampling-choice.js'
import type { ConnectionArguments } from '../../../session/connection-flags.js'
import { writeRoot } from './locations.js'
import { buildDocument, launchMeta } from './profile-document.js'

/** The launch fields of a profile document, as written (placeholders stay placeholders). */
function launchFields(meta: ProfileMeta): ProfileMeta {
  const fields = [
    'description',
    'transport',
    'command',
    'args',
    'env',
    'cwd',
    'url',
    'headers',
    'tool_filter',
    'concurrency',
    'registry',
    'sampling',
  ] as const
  const result: ProfileMeta = {}
  for (const field of fields)
    if (meta[field] !== undefined) (result as Record<string, unknown>)[field] = meta[field]
  if (Array.isArray(meta.tools) || meta.tools === null) result.tools = meta.tools
  return result
}

/** Writes a profile for `resolved` with the live `tools`; secrets become ${NAME} placeholders. */
export async function saveProfile(
  name: string,
  resolved: ResolvedReference,
  tools: readonly Tool[],
  args: ConnectionArguments & { project?: boolean; force?: boolean },
  io: Io,
  source: string,
  announce: (text: string) => Promise<void> = (text) => writeLine(io.stdout, text),
): Promise<number> {
  const { assertValidName, describeServer, loadProfileDocument, writeProfile } = await import(
    '@mcp-kit/profiles'
  )
  const { hashTools } = await import('@mcp-kit/schema')
  assertValidName(name, 'profile')
  let meta: ProfileMeta
  let placeholders: Array<{ where: string; variable: string }> = []
  let storedSecrets: string[] = []
  if (resolved.profile) {
    meta = launchFields((await loadProfileDocument(resolved.profile)).meta)
  } else if (resolved.registry) {
    // The entry's launch with its version pinned; secret inputs go to the secret store.
    const { registryProfileMeta } = await import('../../../registry/profile-meta.js')
    ;({ meta, secretKeys: storedSecrets } = await registryProfileMeta(name, resolved.registry, io))
    const about = resolved.registry.server.title ?? resolved.registry.server.description
    meta = {
      description: `${resolved.registry.name}@${resolved.registry.version} from the MCP Registry${typeof about === 'string' ? `: ${about.slice(0, 100)}` : ''}`,
      ...meta,
    }
  } else {
    const env = [
      ...(args.env ?? []).map((pair) => pair.slice(0, pair.indexOf('='))),
      ...(args['pass-env'] ?? []).filter((name) => !name.includes('*')),
    ]
    const headers = (args.header ?? []).map((header) => header.slice(0, header.indexOf(':')).trim())
    ;({ meta, placeholders } = launchMeta(resolved, { env, headers }, io.cwd))
    // Not the query: it may carry env.NAME=secret values.
    const from =
      resolved.reference.type === 'command' ? describeServer(resolved.server) : source.split('?')[0]
    meta = { description: `Created by mcp-kit from ${from}`, ...meta }
  }
  // The sampling flags of the command that saves it: who answers, never a key (only its secret's name).
  const sampling = profileSampling(samplingChoice(args))
  if (sampling !== undefined) meta = { ...meta, sampling }
  const document = await buildDocument(meta, tools, hashTools(tools), new Date())
  const { root, scope } = await writeRoot(io, args.project)
  const location = await writeProfile(name, document, { root, scope, force: args.force })
  await announce(
    `saved profile @${name} (${tools.length} tools, ${document.meta.schema_hash}) in ${location.path}`,
  )
  if (storedSecrets.length > 0)
    await announce(`secrets are in your secret store, not the profile: ${storedSecrets.join(', ')}`)
  if (placeholders.length > 0) {
    const list = placeholders
      .map((placeholder) => `${placeholder.where} as \${${placeholder.variable}}`)
      .join(', ')
    const variables = placeholders.map((placeholder) => placeholder.variable).join(', ')
    await announce(
      `secrets are not stored: wrote ${list}; set ${variables} in the environment when you use @${name}`,
    )
  }
  const globs = (args['pass-env'] ?? []).filter((pattern) => pattern.includes('*'))
  if (globs.length > 0 && !resolved.profile) {
    await announce(
      `--pass-env ${globs.join(' ')} is not saved (a profile names each variable): add them to "env" as \${NAME}`,
    )
  }
  return exitCodes.ok
}

/** `--save <name>`: a naked reference (not a profile) saved as a profile, its messages on stderr. */
export async function saveUsedReference(
  name: string,
  resolved: ResolvedReference,
  tools: readonly Tool[],
  args: ConnectionArguments,
  io: Io,
  source: string,
): Promise<void> {
  if (resolved.profile)
    throw new CliError('usage', `--save saves naked references; ${source} is already a profile`)
  // Messages go to stderr: stdout carries the command's own output.
  await saveProfile(name, resolved, tools, args, io, source, async (text) => writeDiagnostic(io, text))
}
