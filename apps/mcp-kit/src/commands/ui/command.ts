// `mcp-kit ui [reference]` — a web workspace for MCP servers on a loopback port.

import type { Argv } from 'yargs'
import type { CommandContext } from '../../base/command-context.js'
import { recordFlag } from '../../record/record-flag.js'
import { connectionFlags } from '../../session/connection-flags.js'
import type { UiArguments } from './run-ui.js'

export const command = 'ui [reference]'
export const describe = 'Open a web workspace: several servers at once, forms, a live timeline, drift'

export function builder(yargs: Argv) {
  return yargs
    .usage(
      '$0 ui [reference | @profile] [options]\n$0 ui [options] -- <program> [args…]\n\nOpen a web workspace: several servers at once, forms, a live timeline, drift.',
    )
    .positional('reference', {
      type: 'string',
      describe: 'A server to connect first: mcp+npx://pkg, mcp+http://host/mcp, @profile',
    })
    .option('port', { type: 'number', default: 0, describe: 'Port to listen on (0: a free one)' })
    .option('host', {
      type: 'string',
      default: '127.0.0.1',
      describe:
        'Address to listen on; anything but loopback is reachable from other machines (a warning says so)',
    })
    .option('open', {
      type: 'boolean',
      default: true,
      describe: 'Open the browser (--no-open: print the address only)',
    })
    .option('collections', {
      type: 'string',
      describe:
        'The directory of the collection files the page lists, saves calls to and runs (default: the current directory)',
    })
    .options(connectionFlags)
    .options(recordFlag)
    .example('$0 ui', 'an empty workspace; add servers in the page')
    .example('$0 ui @demo', 'the bundled demo server, connected')
    .example('$0 ui --collections tests/mcp @demo', "save the page's calls to collections under tests/mcp")
    .example('$0 ui --no-open -- node server.js', 'a stdio server by its command line; print the address')
}

export async function handler(argv: UiArguments & CommandContext): Promise<void> {
  const { runUi } = await import('./run-ui.js')
  argv.result.exitCode = await runUi({ ...argv, serverCommand: argv.serverCommand }, argv.io)
}
