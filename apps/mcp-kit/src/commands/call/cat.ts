// `mcp-kit cat <ref> [key=value…]` — run the reference's operation and print NDJSON records.

import type { Argv } from 'yargs'
import { callOptions, detachOption } from '../shared/call-flags.js'
import { recordCommandHandler, recordCommandOptions } from './call-command.js'

export const command = 'cat [reference] [arguments..]'
export const describe =
  'Run an operation on a server (call a tool, read a resource, get a prompt, list) and print NDJSON records'

export function builder(yargs: Argv) {
  return recordCommandOptions(
    detachOption(callOptions(yargs)).option('save', {
      type: 'string',
      describe: 'Save this server (a naked reference or a command line) as a profile of that name',
      group: 'Output:',
    }),
    'cat',
    describe,
  )
}

export const handler = recordCommandHandler('cat')
