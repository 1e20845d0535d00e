// `mcp-kit generate <reference> --out FILE.ts`: connect to a server, list what it offers, and
// write a typed client module for it (render-module.ts) that depends only on @mcp-kit/client.

import { mkdir, writeFile } from 'node:fs/promises'
import { dirname, relative, resolve } from 'node:path'
import type { GeneratedServer, Session } from '@mcp-kit/client'
import { CliError } from '../../base/errors.js'
import { exitCodes } from '../../base/exit-codes.js'
import type { Io } from '../../base/io.js'
import { diagnostics } from '../../output/diagnostics.js'
import { openSession } from '../../session/open-session.js'
import { resolveTarget } from '../../session/reference.js'
import type { GenerateArguments } from './generate-arguments.js'
import { moduleServer } from './module-server.js'
import { type ModuleModel, renderModule } from './render-module.js'

export type { GenerateArguments }

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
  const { resolved } = await resolveTarget(args, io)
  if (resolved.operation.kind !== 'inspect') {
    throw new CliError(
      'usage',
      'generate takes a server, not one of its tools, resources or prompts (no tool=, resource=, prompt= or list=)',
    )
  }
  const { schemaPolicies } = await import('@mcp-kit/client/internal')
  if (args.policy !== undefined && !schemaPolicies.includes(args.policy))
    throw new CliError(
      'usage',
      `--policy ${JSON.stringify(args.policy)}: expected ${schemaPolicies.join(', ')}`,
    )
  const path = resolve(io.cwd, args.out)
  const out = relative(io.cwd, path)
  const { server, profile, source, regenerate, variables } = await moduleServer(resolved, args, out, io)
  // No answers to questions: the module's connect() declares none by default, and a server may
  // offer some tools only to clients that do (elicitation, sampling, roots).
  const session = await openSession(resolved, args, io, { input: undefined })
  let model: ModuleModel
  try {
    const { schemaFingerprint } = await import('@mcp-kit/client')
    const collected = await collect(session)
    const generated: GeneratedServer = {
      source,
      server,
      ...(profile === undefined ? {} : { profile }),
      regenerate,
      ...(args.policy === undefined ? {} : { schemaValidation: args.policy }),
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
  if (!args.quiet) {
    io.stderr.write(`mcp-kit: wrote ${out} (${counts.join(', ')})\n`)
    if (variables.length > 0)
      io.stderr.write(
        `mcp-kit: the module reads ${variables.join(', ')} from the environment when it connects (no secret is written into it)\n`,
      )
  }
  diagnostics(io, args).verbose(`schema ${model.generated.schemaHash}`)
  return exitCodes.ok
}
