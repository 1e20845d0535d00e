// `mcp-kit task <get|cancel> <reference> <taskId>` — look at, wait for, or cancel a task a server
// runs (a call made with --detach, or one another client started).

import type { Argv } from 'yargs'
import type { CommandContext } from '../../base/command-context.js'
import { connectionFlags } from '../../session/connection-flags.js'

type Runner = 'runTaskGet' | 'runTaskCancel'

function run(runner: Runner) {
  return async (argv: unknown) => {
    const context = argv as CommandContext
    const module = await import('./run-task.js')
    const handler = module[runner] as (args: unknown, io: CommandContext['io']) => Promise<number>
    context.result.exitCode = await handler(argv, context.io)
  }
}

function taskPositionals(command: Argv) {
  return command
    .positional('reference', {
      type: 'string',
      demandOption: true,
      describe: 'The server: mcp+https://host/mcp, @profile (a tool in it is ignored)',
    })
    .positional('taskId', {
      type: 'string',
      demandOption: true,
      describe: 'The task, as --detach printed it',
    })
    .options(connectionFlags)
}

export const command = 'task <command>'
export const describe = 'Look at a task a server runs (get), wait for its result (get --wait), or cancel it'

export function builder(yargs: Argv) {
  return yargs
    .command(
      'get <reference> <taskId>',
      "Print the task's state as a record (its result inlined once it completed); --wait follows it to its end and prints its result records",
      (command: Argv) =>
        taskPositionals(command)
          .option('wait', {
            type: 'boolean',
            describe:
              "Follow the task to its end (answering its questions) and print its result, as 'cat' would",
          })
          .option('raw', {
            type: 'boolean',
            describe: 'With --wait: print the MCP result as it came, not NDJSON records',
          })
          .example('$0 task get mcp+http://127.0.0.1:3000/mcp 786512e2-9e0d-44bd-8f29-789f320fe840', '')
          .example('$0 task get @reports 786512e2-9e0d-44bd-8f29-789f320fe840 --wait', 'its result records'),
      run('runTaskGet'),
    )
    .command(
      'cancel <reference> <taskId>',
      "Ask the server to cancel the task; prints the task's state afterwards",
      (command: Argv) => taskPositionals(command),
      run('runTaskCancel'),
    )
    .demandCommand(1, 'Say which: get or cancel.')
}
