// `mcp-kit profile <subcommand>` — create, list, info, version, validate, diff, update, import.

import type { Argv } from 'yargs'
import type { CommandContext } from '../../base/command-context.js'
import { connectionFlags } from '../../session/connection-flags.js'

type Runner = (args: never, io: CommandContext['io']) => Promise<number>

/** A subcommand's handler: loads its module (and the heavy code it needs) only when it runs. */
function run<Module>(load: () => Promise<Module>, pick: (module: Module) => Runner) {
  return async (argv: unknown) => {
    const context = argv as CommandContext
    const runner = pick(await load())
    context.result.exitCode = await runner(argv as never, context.io)
  }
}

const format = {
  choices: ['text', 'json'] as const,
  default: 'text' as const,
  describe: 'text for people, json for scripts',
}

export const command = 'profile <command>'
export const describe =
  'Save servers as profiles, and check them against the live server (create, list, info, version, validate, diff, update, import, secret)'

export function builder(yargs: Argv) {
  return yargs
    .command(
      'create <name>',
      'Connect to --from <reference> (or the command line after --), and save its launch settings and tool schemas as profile <name>',
      (command: Argv) =>
        command
          .positional('name', { type: 'string', demandOption: true })
          .usage(
            '$0 profile create <name> --from <reference>\n$0 profile create <name> -- <program> [args…]\n\nConnect to a server and save its launch settings and tool schemas as a profile',
          )
          .option('from', {
            type: 'string',
            describe:
              'The reference to save (mcp+npx://…, mcp+http://…, @other); or give -- <program> [args…]',
          })
          .option('project', {
            type: 'boolean',
            describe: 'Write to ./.mcp-kit instead of the user directory',
          })
          .option('force', { type: 'boolean', describe: 'Replace an existing profile of that name' })
          .options(connectionFlags)
          .example(
            '$0 profile create everything --from mcp+npx://@modelcontextprotocol/server-everything',
            '',
          )
          .example(
            '$0 profile create mine -- python3 server.py --db ./data',
            'any stdio server (run from here)',
          ),
      run(
        () => import('./create.js'),
        (module) => module.runProfileCreate,
      ),
    )
    .command(
      'list',
      'List every profile: name, scope, transport, schema hash, path',
      (command: Argv) => command.option('format', format),
      run(
        () => import('./list.js'),
        (module) => module.runProfileList,
      ),
    )
    .command(
      'info <profile>',
      "Show a profile's launch settings, schema record and tools",
      (command: Argv) =>
        command.positional('profile', { type: 'string', demandOption: true }).option('format', format),
      run(
        () => import('./list.js'),
        (module) => module.runProfileInfo,
      ),
    )
    .command(
      'version [reference]',
      "Print the hash of a server's tool schemas (a profile, a naked reference, or -- <program> [args…])",
      (command: Argv) => command.positional('reference', { type: 'string' }).options(connectionFlags),
      run(
        () => import('./compare.js'),
        (module) => module.runProfileVersion,
      ),
    )
    .command(
      'validate <profile>',
      'Exit 0 when the live tools match the profile (or changed without breaking it), 5 on a breaking change; given a FILE.ts that mcp-kit generate wrote, 5 on a change its policy refuses (by default any change to its tools)',
      (command: Argv) =>
        command
          .positional('profile', {
            type: 'string',
            demandOption: true,
            describe: '@profile, or a module written by mcp-kit generate (FILE.ts)',
          })
          .option('strict', { type: 'boolean', describe: 'Any change fails, not only breaking ones' })
          .option('policy', {
            type: 'string',
            choices: ['error', 'breaking', 'warn', 'ignore'],
            describe:
              "For a FILE.ts: check by this policy instead of the module's (breaking: only breaking changes fail)",
          })
          .options(connectionFlags),
      run(
        () => import('./compare.js'),
        (module) => module.runProfileValidate,
      ),
    )
    .command(
      'diff <profile>',
      'List each change between the profile and the live tools, with its class; exit 5 when any breaks',
      (command: Argv) =>
        command
          .positional('profile', { type: 'string', demandOption: true })
          .option('format', format)
          .options(connectionFlags),
      run(
        () => import('./compare.js'),
        (module) => module.runProfileDiff,
      ),
    )
    .command(
      'update <profile>',
      "Show the diff, then rewrite the profile's stored schemas and hash (asks on a terminal); a registry profile also hears of newer versions and moves with --to-version",
      (command: Argv) =>
        command
          .positional('profile', { type: 'string', demandOption: true })
          .option('yes', { type: 'boolean', alias: 'y', describe: 'Do not ask' })
          .option('to-version', {
            type: 'string',
            describe:
              "A profile made from a registry entry: pin this version instead (latest: the registry's latest), with the answers the profile was made with",
          })
          .options(connectionFlags),
      run(
        () => import('../shared/profile/update.js'),
        (module) => module.runProfileUpdate,
      ),
    )
    .command(
      'import [file]',
      'Import the servers of a Claude Desktop, Claude Code, Cursor, Windsurf or VS Code config as profiles',
      (command: Argv) =>
        command
          .positional('file', { type: 'string', describe: 'The config file' })
          .option('only', { type: 'string', array: true, describe: 'Import only these servers' })
          .option('discover', { type: 'boolean', describe: 'Find the config files in their usual places' })
          .option('project', {
            type: 'boolean',
            describe: 'Write to ./.mcp-kit instead of the user directory',
          })
          .option('force', { type: 'boolean', describe: 'Replace existing profiles of the same names' })
          .option('quiet', { type: 'boolean', alias: 'q' })
          .example('$0 profile import ~/.config/Claude/claude_desktop_config.json', ''),
      run(
        () => import('./import.js'),
        (module) => module.runProfileImport,
      ),
    )
    .command(
      'secret <command>',
      'The secret store profiles refer to as ${secret:KEY} (set, list, remove); values are never printed',
      (command: Argv) =>
        command
          .command(
            'set <key>',
            'Store a secret: typed without echo on a terminal, or read from stdin',
            (sub: Argv) => sub.positional('key', { type: 'string', demandOption: true }),
            run(
              () => import('./secret.js'),
              (module) => module.runSecretSet,
            ),
          )
          .command(
            'list',
            'The secrets stored and the profiles that use each (keys only)',
            (sub: Argv) => sub.option('format', format),
            run(
              () => import('./secret.js'),
              (module) => module.runSecretList,
            ),
          )
          .command(
            'remove <key>',
            'Forget a secret',
            (sub: Argv) => sub.positional('key', { type: 'string', demandOption: true }),
            run(
              () => import('./secret.js'),
              (module) => module.runSecretRemove,
            ),
          )
          .demandCommand(1, 'Say which: set, list or remove.'),
    )
    .demandCommand(1, 'Say which profile command to run.')
}

export async function handler(): Promise<void> {
  // Every subcommand has its own handler.
}
