// `mcp-kit record --out FILE -- <command…>` — run a command and save the MCP calls of every
// mcp-kit it runs as a collection.

import type { Argv } from 'yargs'
import type { CommandContext } from '../../base/command-context.js'
import type { RecordArguments } from './run-record.js'

export const command = 'record'
export const describe =
  "Run a command (after --) and save the calls every mcp-kit in it makes as a collection that 'mcp-kit test' replays"

export function builder(yargs: Argv) {
  return yargs
    .usage('$0 record --out FILE -- <command> [args…]\n\n' + describe)
    .option('out', {
      type: 'string',
      demandOption: true,
      describe: 'The collection to write (.yaml, .yml or .json)',
      group: 'Output:',
    })
    .option('append', {
      type: 'boolean',
      describe: 'Add the steps at the end of the collection in --out instead of replacing it',
      group: 'Output:',
    })
    .option('quiet', { type: 'boolean', alias: 'q', describe: 'Say nothing on success', group: 'Output:' })
    .example(
      '$0 record --out session.yaml -- mcp-kit shell @demo',
      'a shell session, replayed by: mcp-kit test session.yaml',
    )
    .example(
      "$0 record --out calls.yaml -- sh -c 'mcp-kit cat @demo/echo message=hi; mcp-kit cat @demo/add a=1 b=2'",
      '',
    )
}

export async function handler(argv: RecordArguments & CommandContext): Promise<void> {
  const { runRecord } = await import('./run-record.js')
  argv.result.exitCode = await runRecord(argv, argv.io)
}
