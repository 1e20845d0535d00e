// `mcp-kit profile validate FILE.ts`: the CI gate for a module `mcp-kit generate` wrote. Its
// `generated` record (server, schema hash, each tool's contract and hash, policy) is read back
// from the file, without running it, and compared with the live server: exit 5 when a change is
// one the policy refuses (the module's, or --policy), as connect() would (with --strict also when
// the server has tools the module lacks).

import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import type { GeneratedServer, SchemaPolicy } from '@mcp-kit/client'
import { isRecord } from '@mcp-kit/core'
import type { ResolvedReference } from '@mcp-kit/profiles'
import { CliError } from '../../base/errors.js'
import { exitCodes } from '../../base/exit-codes.js'
import { type Io, writeLine } from '../../base/io.js'
import { sanitizeLine } from '../../output/sanitize.js'
import type { ConnectionArguments } from '../../session/connection-flags.js'
import { openSession } from '../../session/open-session.js'
import { resolveForCli } from '../../session/reference.js'

const marker = 'export const generated: kit.GeneratedServer = '

/** A path to a generated module rather than a profile name. */
export function isModulePath(text: string): boolean {
  return /\.[cm]?ts$/.test(text)
}

/** The `generated` record of a module's text. */
export function readGenerated(code: string, file: string): GeneratedServer {
  const start = code.indexOf(marker)
  const end = start === -1 ? -1 : code.indexOf('\n}\n', start)
  let value: unknown
  try {
    value = end === -1 ? undefined : JSON.parse(code.slice(start + marker.length, end + 2))
  } catch {
    value = undefined
  }
  const server = isRecord(value) ? value.server : undefined
  if (
    !isRecord(value) ||
    typeof value.schemaHash !== 'string' ||
    typeof value.regenerate !== 'string' ||
    typeof value.source !== 'string' ||
    !Array.isArray(value.tools) ||
    !value.tools.every(
      (tool) => isRecord(tool) && typeof tool.name === 'string' && typeof tool.hash === 'string',
    ) ||
    !isRecord(server) ||
    (server.transport !== 'stdio' && server.transport !== 'http') ||
    !['error', 'breaking', 'warn', 'ignore', undefined].includes(value.schemaValidation as string | undefined)
  ) {
    throw new CliError('usage', `${file} is not a module that 'mcp-kit generate' wrote (no generated record)`)
  }
  return value as unknown as GeneratedServer
}

/**
 * The module's server as the CLI reaches it: a profile resolved as any (its secrets too), else the
 * module's launch settings with their `${NAME}`s from the environment, as the module's connect().
 */
async function serverOf(generated: GeneratedServer, io: Io): Promise<ResolvedReference> {
  if (generated.profile !== undefined) return resolveForCli(`@${generated.profile}`, io)
  const { expandServer } = await import('@mcp-kit/client/internal')
  const environment = Object.entries(io.env).filter(
    (entry): entry is [string, string] => entry[1] !== undefined && !entry[0].startsWith('secret:'),
  )
  const server = expandServer(generated.server, Object.fromEntries(environment), 'the module')
  if (server.transport === 'http') return { ...(await resolveForCli(`mcp+${server.url}`, io)), server }
  const { parseCommandReference } = await import('@mcp-kit/profiles')
  const reference = parseCommandReference([server.command, ...server.args])
  return { reference, server, operation: reference.operation }
}

export interface ModuleValidateArguments extends ConnectionArguments {
  profile: string
  strict?: boolean
  /** Overrides the module's own policy (`ignore` checks nothing). */
  policy?: SchemaPolicy
}

export async function runModuleValidate(args: ModuleValidateArguments, io: Io): Promise<number> {
  const path = resolve(io.cwd, args.profile)
  let code: string
  try {
    code = await readFile(path, 'utf8')
  } catch (error) {
    throw new CliError('usage', `cannot read ${args.profile}: ${(error as Error).message}`)
  }
  const generated = readGenerated(code, args.profile)
  const { compareGenerated } = await import('@mcp-kit/client')
  const { driftVerdict } = await import('@mcp-kit/client/internal')
  const policy = args.policy ?? generated.schemaValidation ?? 'error'
  const session = await openSession(await serverOf(generated, io), args, io, { input: undefined })
  let drift: Awaited<ReturnType<typeof compareGenerated>>
  try {
    drift = await compareGenerated(generated, await session.listTools())
  } finally {
    await session.close()
  }
  const name = sanitizeLine(args.profile)
  const verdict = driftVerdict(generated, drift, policy)
  if (verdict.message !== '') {
    await writeLine(io.stdout, `${name}: ${sanitizeLine(verdict.message)} (policy ${policy})`)
  } else if (drift.added.length > 0) {
    const added = drift.added.map((tool) => sanitizeLine(JSON.stringify(tool))).join(', ')
    await writeLine(
      io.stdout,
      `${name}: the module's tools match; the server also has ${added} (regenerate to use them: ${sanitizeLine(generated.regenerate)})`,
    )
  } else {
    await writeLine(io.stdout, `${name}: the live tools match the module (${generated.schemaHash})`)
  }
  const failed = verdict.refused || (args.strict === true && drift.added.length > 0)
  if (failed && !args.quiet) io.stderr.write(`mcp-kit: ${name} does not match the server\n`)
  return failed ? exitCodes.schemaChanged : exitCodes.ok
}
