// Flags of the commands that call a server (cat, head, tail, put).

import type { Argv } from 'yargs'
import type { CommandContext } from '../../cli/command-context.js'
import { connectionFlags } from '../../session/connection-flags.js'
import type { CallArguments, CallMode } from './run-call.js'

export function callOptions(yargs: Argv) {
  return yargs
    .positional('reference', {
      type: 'string',
      demandOption: true,
      describe: 'Server and operation: mcp+npx://pkg?tool=name&key=value, @profile/tool?key=value, …',
    })
    .option('args', {
      type: 'string',
      describe: 'Tool arguments as a JSON object, e.g. --args \'{"limit": 5}\'',
      group: 'Arguments:',
    })
    .option('raw-strings', {
      type: 'boolean',
      describe: 'Send query and key=value arguments as strings (no type coercion)',
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
      describe: 'Print the MCP result as it came, not NDJSON records',
      group: 'Output:',
    })
    .options(connectionFlags)
}

/** `--detach` (cat, put): a call the server turns into a task prints the task instead of waiting. */
export function detachOption(yargs: Argv) {
  return yargs.option('detach', {
    type: 'boolean',
    describe:
      'When the server runs the call as a task, print the task (its taskId) instead of waiting for it; ' +
      "follow it later with 'mcp-kit task get <reference> <taskId> --wait'. HTTP servers only",
    group: 'Output:',
  })
}

/** The positional `key=value` arguments and examples of cat, head and tail. */
export function recordCommandOptions(yargs: Argv, mode: CallMode) {
  return yargs
    .positional('arguments', {
      type: 'string',
      array: true,
      describe: 'Tool or prompt arguments as key=value',
    })
    .example(`$0 ${mode} '@demo?tool=echo&message=hi'`, '')
    .example(`$0 ${mode} mcp+node://./server.js?tool=search query=mcp limit=5`, '')
}

/** The handler of cat, head and tail: load the runner only when the command runs. */
export function recordCommandHandler(mode: CallMode) {
  return async (argv: CallArguments & CommandContext): Promise<void> => {
    const { runCall } = await import('./run-call.js')
    argv.result.exitCode = await runCall(argv, argv.io, mode)
  }
}
