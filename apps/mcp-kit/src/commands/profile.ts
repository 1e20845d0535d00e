// `mcp-kit profile <subcommand>` — create, list, info, version, validate, diff, update, import.

import type { Argv } from 'yargs'
import { connectionFlags } from '../connection.js'
import type { CommandContext } from './context.js'

type Runner =
  | 'runProfileCreate'
  | 'runProfileList'
  | 'runProfileInfo'
  | 'runProfileVersion'
  | 'runProfileValidate'
  | 'runProfileDiff'
  | 'runProfileUpdate'
  | 'runProfileImport'

function run(runner: Runner) {
  return async (argv: unknown) => {
    const context = argv as CommandContext
    const module = await import('../run-profile.js')
    const handler = module[runner] as (args: unknown, io: CommandContext['io']) => Promise<number>
    context.result.exitCode = await handler(argv, context.io)
  }
}

const format = {
  choices: ['text', 'json'] as const,
  default: 'text' as const,
  describe: 'text for people, json for scripts',
}

export const command = 'profile <command>'
export const describe =
  'Save servers as profiles, and check them against the live server (create, list, info, version, validate, diff, update, import)'

export function builder(yargs: Argv) {
  return yargs
    .command(
      'create <name>',
      'Connect to --from <reference>, and save its launch settings and tool schemas as profile <name>',
      (command: Argv) =>
        command
          .positional('name', { type: 'string', demandOption: true })
          .option('from', {
            type: 'string',
            demandOption: true,
            describe: 'The reference to save (mcp+npx://…, mcp+http://…, @other)',
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
          ),
      run('runProfileCreate'),
    )
    .command(
      'list',
      'List every profile: name, scope, transport, schema hash, path',
      (command: Argv) => command.option('format', format),
      run('runProfileList'),
    )
    .command(
      'info <profile>',
      "Show a profile's launch settings, schema record and tools",
      (command: Argv) =>
        command.positional('profile', { type: 'string', demandOption: true }).option('format', format),
      run('runProfileInfo'),
    )
    .command(
      'version <reference>',
      "Print the hash of a server's tool schemas (a profile or a naked reference)",
      (command: Argv) =>
        command.positional('reference', { type: 'string', demandOption: true }).options(connectionFlags),
      run('runProfileVersion'),
    )
    .command(
      'validate <profile>',
      'Exit 0 when the live tools match the profile (or changed without breaking it), 5 on a breaking change',
      (command: Argv) =>
        command
          .positional('profile', { type: 'string', demandOption: true })
          .option('strict', { type: 'boolean', describe: 'Any change fails, not only breaking ones' })
          .options(connectionFlags),
      run('runProfileValidate'),
    )
    .command(
      'diff <profile>',
      'List each change between the profile and the live tools, with its class; exit 5 when any breaks',
      (command: Argv) =>
        command
          .positional('profile', { type: 'string', demandOption: true })
          .option('format', format)
          .options(connectionFlags),
      run('runProfileDiff'),
    )
    .command(
      'update <profile>',
      "Show the diff, then rewrite the profile's stored schemas and hash (asks on a terminal)",
      (command: Argv) =>
        command
          .positional('profile', { type: 'string', demandOption: true })
          .option('yes', { type: 'boolean', alias: 'y', describe: 'Do not ask' })
          .options(connectionFlags),
      run('runProfileUpdate'),
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
      run('runProfileImport'),
    )
    .demandCommand(1, 'Say which profile command to run.')
}

export async function handler(): Promise<void> {
  // Every subcommand has its own handler.
}
