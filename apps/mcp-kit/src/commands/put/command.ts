// `mcp-kit put <ref-with-tool>` — one tool call per NDJSON record on stdin, over one session.

import type { Argv } from 'yargs'
import type { CommandContext } from '../../base/command-context.js'
import { callOptions, commandLinePositionals, detachOption } from '../shared/call-flags.js'
import { targetUsage } from '../shared/target-usage.js'
import type { PutArguments } from './run-put.js'

export const command = 'put [reference] [arguments..]'
export const describe =
  'Call a tool once per NDJSON record on stdin; print one record per input record, in order'

export function builder(yargs: Argv) {
  return detachOption(callOptions(yargs))
    .usage(targetUsage('put', '[key=value…]', '[--tool name]', describe))
    .positional('arguments', {
      type: 'string',
      array: true,
      describe: 'Arguments shared by every call, as key=value',
    })
    .option('concurrency', {
      type: 'number',
      describe:
        "Calls in flight at once (default: the profile's concurrency, else 1). Raise it only for servers " +
        'that take parallel calls: a server that rewrites its state on every call loses data to ' +
        'concurrent calls. Output order stays input order',
      group: 'Output:',
    })
    .option('fail-fast', { type: 'boolean', describe: 'Stop at the first failed record', group: 'Output:' })
    .example('printf \'{"message":"a"}\\n{"message":"b"}\\n\' | $0 put \'@demo?tool=echo\'', '')
    .example(
      "$0 put '@search/lookup' --concurrency 8 < queries.ndjson",
      'a server known to take parallel calls',
    )
    .example('$0 put --tool echo -- node server.js < messages.ndjson', 'any stdio server')
}

export async function handler(argv: PutArguments & CommandContext): Promise<void> {
  const { runPut } = await import('./run-put.js')
  argv.result.exitCode = await runPut(commandLinePositionals(argv), argv.io)
}
