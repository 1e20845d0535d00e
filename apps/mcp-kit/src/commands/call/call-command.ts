// The options, examples and handler of cat, head and tail: the three differ only in their mode.

import type { Argv } from 'yargs'
import type { CommandContext } from '../../base/command-context.js'
import { commandLinePositionals } from '../shared/call-flags.js'
import type { CallArguments } from '../shared/call-tool.js'
import { targetUsage } from '../shared/target-usage.js'
import type { CallMode } from './run-call.js'

/** The positional `key=value` arguments, the other operation flags and the examples of cat, head and tail. */
export function recordCommandOptions(yargs: Argv, mode: CallMode, describe: string) {
  return yargs
    .usage(targetUsage(mode, '[key=value…]', '[--tool name]', describe))
    .positional('arguments', {
      type: 'string',
      array: true,
      describe: 'Tool or prompt arguments as key=value',
    })
    .option('resource', { type: 'string', describe: 'A resource URI to read', group: 'Operation:' })
    .option('prompt', { type: 'string', describe: 'A prompt to get', group: 'Operation:' })
    .option('list', {
      choices: ['tools', 'resources', 'templates', 'prompts'] as const,
      describe: 'List instead of calling',
      group: 'Operation:',
    })
    .example(`$0 ${mode} '@demo?tool=echo&message=hi'`, '')
    .example(`$0 ${mode} mcp+node://./server.js?tool=search query=mcp limit=5`, '')
    .example(
      `$0 ${mode} --tool search query=mcp limit=5 -- python3 server.py --db ./data`,
      'any stdio server',
    )
    .example(`$0 ${mode} '?tool=search&query=mcp' -- ./server`, 'the same, with a query')
}

/** The handler of cat, head and tail: load the runner only when the command runs. */
export function recordCommandHandler(mode: CallMode) {
  return async (argv: CallArguments & CommandContext): Promise<void> => {
    const { runCall } = await import('./run-call.js')
    argv.result.exitCode = await runCall(commandLinePositionals(argv), argv.io, mode)
  }
}
