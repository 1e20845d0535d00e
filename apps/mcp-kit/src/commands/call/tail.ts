// `mcp-kit tail <ref> [key=value…]` — print the last N records.

import type { Argv } from 'yargs'
import { callOptions } from '../shared/call-flags.js'
import { recordCommandHandler, recordCommandOptions } from './call-command.js'

export const command = 'tail [reference] [arguments..]'
export const describe = 'Print the last N records'

export function builder(yargs: Argv) {
  return recordCommandOptions(
    callOptions(yargs).option('n', {
      type: 'number',
      default: 10,
      describe: 'How many records',
      group: 'Output:',
    }),
    'tail',
    describe,
  )
}

export const handler = recordCommandHandler('tail')
