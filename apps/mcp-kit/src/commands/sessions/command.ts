// `mcp-kit sessions [list]` and `mcp-kit sessions stop [<ref>|--all]` — the warm servers that
// --keep-alive commands left running in the background, and ending them.

import type { Argv } from 'yargs'
import type { CommandContext } from '../../base/command-context.js'
import type { SessionsArguments } from './run-sessions.js'

export const command = 'sessions [action] [target]'
export const describe =
  'List the warm servers --keep-alive left running (list), or end them (stop <ref> | --all)'

export function builder(yargs: Argv) {
  return yargs
    .positional('action', { choices: ['list', 'stop'] as const, default: 'list' as const })
    .positional('target', {
      type: 'string',
      describe: 'stop: a session id (or its start), a server pid, or a reference as listed',
    })
    .option('all', { type: 'boolean', describe: 'stop: every warm session (and the daemon)' })
    .option('format', { choices: ['text', 'json'] as const, default: 'text' as const })
    .example('$0 sessions', 'what runs, for how long, how many calls, how much memory')
    .example('$0 sessions stop 3fa9c2', 'end one')
    .example('$0 sessions stop --all', 'end all of them')
}

export async function handler(argv: SessionsArguments & CommandContext): Promise<void> {
  const { runSessions } = await import('./run-sessions.js')
  argv.result.exitCode = await runSessions(argv, argv.io)
}
