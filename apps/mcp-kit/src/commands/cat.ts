// `mcp-kit cat <ref> [key=value…]` — Run the reference's operation and print NDJSON records.

import type { Argv } from 'yargs'
import { callOptions } from '../call-flags.js'
import type { CallArguments } from '../run-call.js'
import type { CommandContext } from './context.js'

export const command = 'cat <reference> [arguments..]'
export const describe = "Run the reference's operation and print NDJSON records"

export function builder(yargs: Argv) {
  return callOptions(yargs)
    .option('save', {
      type: 'string',
      describe: 'Save this (naked) reference as a profile of that name',
      group: 'Output:',
    })
    .positional('arguments', {
      type: 'string',
      array: true,
      describe: 'Tool or prompt arguments as key=value',
    })
    .example("$0 cat '@demo?tool=echo&message=hi'", '')
    .example('$0 cat mcp+node://./server.js?tool=search query=mcp limit=5', '')
}

export async function handler(argv: CallArguments & CommandContext): Promise<void> {
  const { runCall } = await import('../run-call.js')
  argv.result.exitCode = await runCall(argv, argv.io, 'cat')
}
