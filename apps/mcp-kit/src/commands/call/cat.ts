// `mcp-kit cat <ref> [key=value…]` — run the reference's operation and print NDJSON records.

import type { Argv } from 'yargs'
import { callOptions, detachOption, recordCommandHandler, recordCommandOptions } from './call-flags.js'

export const command = 'cat <reference> [arguments..]'
export const describe = "Run the reference's operation and print NDJSON records"

export function builder(yargs: Argv) {
  return recordCommandOptions(
    detachOption(callOptions(yargs)).option('save', {
      type: 'string',
      describe: 'Save this (naked) reference as a profile of that name',
      group: 'Output:',
    }),
    'cat',
  )
}

export const handler = recordCommandHandler('cat')
