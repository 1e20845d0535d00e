// `mcp-kit watch <ref>` — print a server's change notifications as NDJSON until interrupted.

import type { Argv } from 'yargs'
import type { CommandContext } from '../../base/command-context.js'
import { connectionFlags } from '../../session/connection-flags.js'
import { targetUsage } from '../shared/target-usage.js'
import type { WatchArguments } from './run-watch.js'

export const command = 'watch [reference]'
export const describe = "Print a server's change notifications (lists, resources) as NDJSON until interrupted"

export function builder(yargs: Argv) {
  return yargs
    .usage(targetUsage('watch', '', '', describe))
    .positional('reference', {
      type: 'string',
      describe:
        'mcp+npx://pkg, mcp+http://host/mcp, @profile (a ?resource=uri is watched too); or, before -- <program> [args…], a query',
    })
    .option('resource', {
      type: 'string',
      array: true,
      describe: 'A resource URI whose updates to report (repeatable)',
    })
    .option('lists', {
      type: 'boolean',
      default: true,
      describe: 'Report tool, prompt and resource list changes (--no-lists for resources only)',
    })
    .options(connectionFlags)
    .example('$0 watch mcp+http://127.0.0.1:3000/mcp', 'list changes of a served registry')
    .example("$0 watch @notes --resource 'notes://todo'", 'updates of one resource')
    .example('$0 watch -- node server.js', 'any stdio server, by its command line')
}

export async function handler(argv: WatchArguments & CommandContext): Promise<void> {
  const { runWatch } = await import('./run-watch.js')
  argv.result.exitCode = await runWatch(argv, argv.io)
}
