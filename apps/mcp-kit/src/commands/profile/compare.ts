// `mcp-kit profile version|validate|diff`: the live server's tools against a profile's stored ones.

import type { SchemaPolicy } from '@mcp-kit/client'
import { CliError } from '../../base/errors.js'
import { exitCodes } from '../../base/exit-codes.js'
import { type Io, writeLine } from '../../base/io.js'
import { sanitizeLine } from '../../output/sanitize.js'
import { writeJson } from '../../output/write-records.js'
import type { ConnectionArguments } from '../../session/connection-flags.js'
import { resolveTarget } from '../../session/reference.js'
import { describeChanges } from '../../session/schema-check.js'
import { compare, liveTools } from '../shared/profile/live-tools.js'

export interface VersionArguments extends ConnectionArguments {
  reference?: string
  serverCommand?: string[]
}

export async function runProfileVersion(args: VersionArguments, io: Io): Promise<number> {
  const { hashTools } = await import('@mcp-kit/schema')
  const { resolved } = await resolveTarget(
    { reference: args.reference, serverCommand: args.serverCommand },
    io,
  )
  await writeLine(io.stdout, hashTools(await liveTools(resolved, args, io)))
  return exitCodes.ok
}

export interface ValidateArguments extends ConnectionArguments {
  profile: string
  strict?: boolean
  /** For a module `mcp-kit generate` wrote: the schema policy to check it by. */
  policy?: SchemaPolicy
}

export async function runProfileValidate(args: ValidateArguments, io: Io): Promise<number> {
  const { isModulePath, runModuleValidate } = await import('./validate-module.js')
  if (isModulePath(args.profile)) return runModuleValidate(args, io)
  if (args.policy !== undefined)
    throw new CliError(
      'usage',
      "--policy is for a module that 'mcp-kit generate' wrote (FILE.ts); a profile fails on breaking changes, with --strict on any",
    )
  const comparison = await compare(args.profile, args, io)
  const name = `@${comparison.profile.location.name}`
  const breaking = comparison.changes.filter((change) => change.class === 'breaking')
  if (comparison.changes.length === 0) {
    await writeLine(io.stdout, `${name}: the live tools match the profile (${comparison.liveHash})`)
    return exitCodes.ok
  }
  const failed = breaking.length > 0 || args.strict === true
  const verdict =
    breaking.length > 0 ? `${breaking.length} breaking` : `${comparison.changes.length} non-breaking`
  await writeLine(
    io.stdout,
    [
      `${name}: the tools changed (${verdict}):`,
      ...describeChanges(comparison.changes).map((line) => `  ${line}`),
    ].join('\n'),
  )
  if (failed && !args.quiet)
    io.stderr.write(
      `mcp-kit: ${name} does not match the server${args.strict && breaking.length === 0 ? ' (--strict)' : ''}\n`,
    )
  return failed ? exitCodes.schemaChanged : exitCodes.ok
}

export interface DiffArguments extends ConnectionArguments {
  profile: string
  format: 'text' | 'json'
}

export async function runProfileDiff(args: DiffArguments, io: Io): Promise<number> {
  const comparison = await compare(args.profile, args, io)
  const { summarizeChanges } = await import('@mcp-kit/schema')
  const breaking = comparison.changes.some((change) => change.class === 'breaking')
  if (args.format === 'json') {
    await writeJson(
      io,
      {
        profile: comparison.profile.location.name,
        storedHash: comparison.storedHash ?? null,
        liveHash: comparison.liveHash,
        summary: summarizeChanges(comparison.changes),
        changes: comparison.changes,
      },
      2,
    )
  } else if (comparison.changes.length === 0) {
    await writeLine(io.stdout, 'no changes')
  } else {
    const width = Math.max(...comparison.changes.map((change) => change.class.length))
    await writeLine(
      io.stdout,
      comparison.changes
        .map((change) => `${change.class.padEnd(width)}  ${sanitizeLine(change.message)}`)
        .join('\n'),
    )
  }
  return breaking ? exitCodes.schemaChanged : exitCodes.ok
}
