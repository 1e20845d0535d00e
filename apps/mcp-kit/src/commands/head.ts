// `mcp-kit head <ref> [key=value…]` — Print the first N records (the session closes as soon as it has them).

import type { Argv } from 'yargs'
import { callOptions } from '../call-flags.js'
import type { CallArguments } from '../run-call.js'
import type { CommandContext } from './context.js'

export const command = 'head <reference> [arguments..]'
export const describe = 'Print the first N records (the session closes as soon as it has them)'

export function builder(yargs: Argv) {
  return callOptions(yargs)
    .option('n', { type: 'number', default: 10, describe: 'How many records', group: 'Output:' })
    .positional('arguments', {
      type: 'string',
      array: true,
      describe: 'Tool or prompt arguments as key=value',
    })
    .example("$0 head '@demo?tool=echo&message=hi'", '')
    .example('$0 head mcp+node://./server.js?tool=search query=mcp limit=5', '')
}

export async function handler(argv: CallArguments & CommandContext): Promise<void> {
  const { runCall } = await import('../run-call.js')
  argv.result.exitCode = await runCall(argv, argv.io, 'head')
}
