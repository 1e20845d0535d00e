// `mcp-kit tail <ref> [key=value…]` — Print the last N records.

import type { Argv } from 'yargs'
import { callOptions } from '../call-flags.js'
import type { CallArguments } from '../run-call.js'
import type { CommandContext } from './context.js'

export const command = 'tail <reference> [arguments..]'
export const describe = 'Print the last N records'

export function builder(yargs: Argv) {
  return callOptions(yargs)
    .option('n', { type: 'number', default: 10, describe: 'How many records', group: 'Output:' })
    .positional('arguments', {
      type: 'string',
      array: true,
      describe: 'Tool or prompt arguments as key=value',
    })
    .example("$0 tail '@demo?tool=echo&message=hi'", '')
    .example('$0 tail mcp+node://./server.js?tool=search query=mcp limit=5', '')
}

export async function handler(argv: CallArguments & CommandContext): Promise<void> {
  const { runCall } = await import('../run-call.js')
  argv.result.exitCode = await runCall(argv, argv.io, 'tail')
}
