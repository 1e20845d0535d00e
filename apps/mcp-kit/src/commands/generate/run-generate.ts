// `mcp-kit generate <reference> --out FILE.ts`: connect to a server, list what it offers, and
// write a typed client module for it (render-module.ts) that depends only on @mcp-kit/client.

import { mkdir, writeFile } from 'node:fs/promises'
import { dirname, relative, resolve } from 'node:path'
import type { GeneratedServer, ServerSpec, Session } from '@mcp-kit/client'
import type { ResolvedReference } from '@mcp-kit/profiles'
import { CliError } from '../../cli/errors.js'
import { exitCodes } from '../../cli/exit-codes.js'
import type { Io } from '../../cli/io.js'
import { diagnostics } from '../../output/diagnostics.js'
import type { ConnectionArguments } from '../../session/connection-flags.js'
import { openSession } from '../../session/open-session.js'
import { appVariables, profileOptions, resolveTarget } from '../../session/reference.js'
import { type ModuleModel, renderModule } from './render-module.js'

export interface GenerateArguments extends ConnectionArguments {
  reference?: string
  serverCommand?: string[]
  out: string
}

/** A word as a POSIX shell reads it back. */
function shellWord(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`
}

/** The command that writes the same module again, as the user would type it here. */
export function regenerateCommand(
  args: Pick<GenerateArguments, 'reference' | 'serverCommand'>,
  out: string,
): string {
  const words = ['mcp-kit', 'generate']
  if (args.reference !== undefined) words.push(args.reference)
  words.push('--out', out)
  if (args.serverCommand !== undefined) words.push('--', ...args.serverCommand)
  return words.map(shellWord).join(' ')
}

/**
 * The variables this installation gives profiles (MCP_KIT_NODE, MCP_KIT_BIN: the bundled `@demo`)
 * filled in, as a program using the module has no such variables.
 */
function withAppVariables(server: ServerSpec): ServerSpec {
  const variables = Object.entries(appVariables())
  const fill = (text: string) =>
    variables.reduce((value, [name, path]) => value.split(`\${${name}}`).join(path), text)
  if (server.transport === 'http') return server
  return { ...server, command: fill(server.command), args: server.args.map(fill) }
}

/**
 * The server the module connects to: a profile's launch settings as written (its `${VAR}` and
 * `${secret:KEY}` stay, expanded when the module connects), else the reference's server.
 */
async function moduleServer(
  resolved: ResolvedReference,
  io: Io,
): Promise<{ server: ServerSpec; profile?: string }> {
  const reference = resolved.reference
  const registry = resolved.registry
  const secret = registry?.launch.inputs.find(
    (input) => input.secret && Object.hasOwn(registry.values, input.name),
  )
  if (registry !== undefined && secret !== undefined) {
    // The module is source code: a secret answer in its launch would be in the user's repository.
    throw new CliError(
      'usage',
      `${registry.name}@${registry.version} takes the secret ${secret.name}, which a generated module would hold: save the server as a profile (mcp-kit profile create NAME --from mcp+registry://${registry.name}@${registry.version}), which keeps it in the secret store, and generate from @NAME`,
    )
  }
  if (reference.type !== 'profile') return { server: resolved.server }
  const { loadProfile } = await import('@mcp-kit/profiles')
  const profile = await loadProfile(reference.profile, { ...profileOptions(io), substitute: false })
  const { launchArgs, env } = reference.query
  let server: ServerSpec = withAppVariables(profile.server)
  if (server.transport === 'stdio' && (launchArgs.length > 0 || Object.keys(env).length > 0)) {
    server = { ...server, args: [...server.args, ...launchArgs], env: { ...server.env, ...env } }
  }
  return { server, profile: reference.profile }
}

/** A list the server may not answer: an error means none (as the gateway and inspect take it). */
async function optional<Item>(list: () => Promise<Item[]>): Promise<Item[]> {
  try {
    return await list()
  } catch {
    return []
  }
}

async function collect(session: Session): Promise<Omit<ModuleModel, 'generated' | 'out'>> {
  const tools = await session.listTools()
  const { name, version } = session.serverInfo
  const model: Omit<ModuleModel, 'generated' | 'out'> = { server: { name, version }, tools }
  if (session.capabilities.resources !== undefined) {
    const [listed, templates] = await Promise.all([
      optional(() => session.listResources({ limit: 1000 })),
      optional(() => session.listResourceTemplates({ limit: 1000 })),
    ])
    model.resources = { listed, templates }
  }
  if (session.capabilities.prompts !== undefined) model.prompts = await optional(() => session.listPrompts())
  return model
}

export async function runGenerate(args: GenerateArguments, io: Io): Promise<number> {
  if (typeof args.out !== 'string' || args.out === '')
    throw new CliError('usage', 'say where to write the module: --out FILE.ts')
  const { resolved, text } = await resolveTarget(args, io)
  if (resolved.operation.kind !== 'inspect') {
    throw new CliError(
      'usage',
      'generate takes a server, not one of its tools, resources or prompts (no tool=, resource=, prompt= or list=)',
    )
  }
  const path = resolve(io.cwd, args.out)
  const out = relative(io.cwd, path)
  const { server, profile } = await moduleServer(resolved, io)
  // No answers to questions: the module's connect() declares none by default, and a server may
  // offer some tools only to clients that do (elicitation, sampling, roots).
  const session = await openSession(resolved, args, io, { input: undefined })
  let model: ModuleModel
  try {
    const { schemaFingerprint } = await import('@mcp-kit/client')
    const collected = await collect(session)
    const generated: GeneratedServer = {
      source: text,
      server,
      ...(profile === undefined ? {} : { profile }),
      regenerate: regenerateCommand(args, out),
      ...(await schemaFingerprint(collected.tools)),
    }
    model = { ...collected, generated, out }
  } finally {
    await session.close()
  }
  const code = await renderModule(model)
  await mkdir(dirname(path), { recursive: true })
  await writeFile(path, code)
  const count = (items: readonly unknown[], word: string) =>
    `${items.length} ${word}${items.length === 1 ? '' : 's'}`
  const counts = [count(model.tools, 'tool')]
  if (model.resources !== undefined)
    counts.push(count(model.resources.listed, 'resource'), count(model.resources.templates, 'template'))
  if (model.prompts !== undefined) counts.push(count(model.prompts, 'prompt'))
  if (!args.quiet) io.stderr.write(`mcp-kit: wrote ${out} (${counts.join(', ')})\n`)
  diagnostics(io, args).verbose(`schema ${model.generated.schemaHash}`)
  return exitCodes.ok
}
