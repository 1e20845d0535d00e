// `mcp-kit put <ref-with-tool>` — one tool call per NDJSON record on stdin, over one session.

import type { Argv } from 'yargs'
import { callOptions } from '../call-flags.js'
import type { PutArguments } from '../run-put.js'
import type { CommandContext } from './context.js'

export const command = 'put <reference> [arguments..]'
export const describe =
  'Call a tool once per NDJSON record on stdin; print one record per input record, in order'

export function builder(yargs: Argv) {
  return callOptions(yargs)
    .positional('arguments', {
      type: 'string',
      array: true,
      describe: 'Arguments shared by every call, as key=value',
    })
    .option('concurrency', {
      type: 'number',
      default: 16,
      describe: 'Calls in flight at once (output order stays input order)',
      group: 'Output:',
    })
    .option('fail-fast', { type: 'boolean', describe: 'Stop at the first failed record', group: 'Output:' })
    .example('printf \'{"message":"a"}\\n{"message":"b"}\\n\' | $0 put \'@demo?tool=echo\'', '')
}

export async function handler(argv: PutArguments & CommandContext): Promise<void> {
  const { runPut } = await import('../run-put.js')
  argv.result.exitCode = await runPut(argv, argv.io)
}
