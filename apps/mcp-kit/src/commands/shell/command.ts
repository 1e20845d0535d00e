// `mcp-kit shell <ref>` — an interactive session on one connection, for exploring a server.

import type { Argv } from 'yargs'
import type { CommandContext } from '../../base/command-context.js'
import { recordFlag } from '../../record/record-flag.js'
import { connectionFlags } from '../../session/connection-flags.js'
import type { ShellArguments } from './run-shell.js'

export const command = 'shell <reference>'
export const describe =
  'Explore a server interactively on one connection: call tools (key=value, Tab completion), read resources, with history'

export function builder(yargs: Argv) {
  return yargs
    .positional('reference', {
      type: 'string',
      demandOption: true,
      describe: 'The server: @profile, mcp+npx://pkg, mcp+http://host/mcp, …',
    })
    .option('raw-strings', {
      type: 'boolean',
      describe: 'Send key=value arguments as strings (no type coercion)',
      group: 'Arguments:',
    })
    .option('validate', {
      type: 'boolean',
      default: true,
      describe: 'Check arguments against the tool schema before calling (--no-validate to skip)',
      group: 'Arguments:',
    })
    .option('raw', {
      type: 'boolean',
      describe: 'Print MCP results as they came, not NDJSON records',
      group: 'Output:',
    })
    .option('history', {
      type: 'boolean',
      default: true,
      describe: 'Keep the lines in $XDG_STATE_HOME/mcp-kit/shell_history (--no-history: not this time)',
      group: 'Output:',
    })
    .options(connectionFlags)
    .options(recordFlag)
    .example('$0 shell @demo', 'then: echo message=hi, add a=1 b=2, help add, exit')
}

export async function handler(argv: ShellArguments & CommandContext): Promise<void> {
  const { runShell } = await import('./run-shell.js')
  argv.result.exitCode = await runShell(argv, argv.io)
}
