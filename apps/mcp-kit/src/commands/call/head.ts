// `mcp-kit head <ref> [key=value…]` — print the first N records (the session closes as soon as it has them).

import type { Argv } from 'yargs'
import { callOptions } from '../shared/call-flags.js'
import { recordCommandHandler, recordCommandOptions } from './call-command.js'

export const command = 'head [reference] [arguments..]'
export const describe = 'Print the first N records (the session closes as soon as it has them)'

export function builder(yargs: Argv) {
  return recordCommandOptions(
    callOptions(yargs).option('n', {
      type: 'number',
      default: 10,
      describe: 'How many records',
      group: 'Output:',
    }),
    'head',
    describe,
  )
}

export const handler = recordCommandHandler('head')
