// `mcp-kit profile create <name> --from <ref>`: a profile from a reference, with the live tools'
// schemas and hash (commands/shared/profile/save-profile.ts writes it).

import { CliError } from '../../base/errors.js'
import type { Io } from '../../base/io.js'
import type { ConnectionArguments } from '../../session/connection-flags.js'
import { openSession } from '../../session/open-session.js'
import { resolveTarget } from '../../session/reference.js'
import { saveProfile } from '../shared/profile/save-profile.js'

export interface CreateArguments extends ConnectionArguments {
  name: string
  from?: string
  serverCommand?: string[]
  project?: boolean
  force?: boolean
}

export async function runProfileCreate(args: CreateArguments, io: Io): Promise<number> {
  const { assertValidName } = await import('@mcp-kit/profiles')
  assertValidName(args.name, 'profile')
  if ((args.from === undefined) === (args.serverCommand === undefined)) {
    throw new CliError(
      'usage',
      'say which server to save: --from <reference>, or -- followed by its command line (not both)',
    )
  }
  const { resolved, text } = await resolveTarget(
    {
      reference: args.from,
      serverCommand: args.serverCommand,
      registry: args.registry,
      'registry-header': args['registry-header'],
      'registry-choice': args['registry-choice'],
      input: args.input,
      'input-json': args['input-json'],
    },
    io,
  )
  const session = await openSession(resolved, args, io)
  try {
    return await saveProfile(args.name, resolved, await session.listTools(), args, io, text)
  } finally {
    await session.close()
  }
}
