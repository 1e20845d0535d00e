// `mcp-kit auth <login|status|logout>` — log in to OAuth-protected servers, see and forget logins.

import type { Argv } from 'yargs'
import type { CommandContext } from '../../base/command-context.js'
import { connectionFlags } from '../../session/connection-flags.js'

type Runner = (args: never, io: CommandContext['io']) => Promise<number>

/** A handler that loads its runner only when the command runs. */
function run(load: () => Promise<Runner>) {
  return async (argv: unknown) => {
    const context = argv as CommandContext
    const handler = (await load()) as (args: unknown, io: CommandContext['io']) => Promise<number>
    context.result.exitCode = await handler(argv, context.io)
  }
}

export const command = 'auth <command>'
export const describe = 'Log in to servers that need OAuth (login), see logins (status), forget one (logout)'

export function builder(yargs: Argv) {
  return yargs
    .command(
      'login <reference>',
      'Log in to an HTTP server: a browser page (or the URL, with --no-browser) and a redirect back to this machine',
      (command: Argv) =>
        command
          .positional('reference', {
            type: 'string',
            demandOption: true,
            describe: 'mcp+https://host/mcp or @profile',
          })
          .option('login-timeout', {
            type: 'number',
            default: 300,
            describe: 'Seconds to wait for the browser',
          })
          .options(connectionFlags)
          .example('$0 auth login mcp+https://mcp.example.com/mcp', '')
          .example('$0 auth login @notes --no-browser', 'prints the URL to open'),
      run(async () => (await import('../shared/auth-login.js')).runAuthLogin),
    )
    .command(
      'status [reference]',
      'Who is logged in where: server, authorization server, scopes, expiry (never a token)',
      (command: Argv) =>
        command
          .positional('reference', { type: 'string', describe: 'One server (default: all)' })
          .option('format', { choices: ['text', 'json'] as const, default: 'text' as const }),
      run(async () => (await import('./run-auth.js')).runAuthStatus),
    )
    .command(
      'logout <reference>',
      "Forget a server's tokens",
      (command: Argv) => command.positional('reference', { type: 'string', demandOption: true }),
      run(async () => (await import('./run-auth.js')).runAuthLogout),
    )
    .demandCommand(1, 'Say which: login, status or logout.')
}
