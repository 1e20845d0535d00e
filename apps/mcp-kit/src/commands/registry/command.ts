// `mcp-kit registry <search|show|lint|launch>` — servers by name from an MCP Registry, and
// server.json checked and launched before it is published.

import type { Argv } from 'yargs'
import type { CommandContext } from '../../base/command-context.js'
import { registryChoiceFlag, registryFlags } from '../../registry/registry-flags.js'
import { connectionFlags } from '../../session/connection-flags.js'

type Runner = 'runSearch' | 'runShow' | 'runLint' | 'runLaunch'

const modules: Record<Runner, () => Promise<Record<string, unknown>>> = {
  runSearch: () => import('./run-search.js'),
  runShow: () => import('./run-show.js'),
  runLint: () => import('./run-lint.js'),
  runLaunch: () => import('./run-launch.js'),
}

function run(runner: Runner) {
  return async (argv: unknown) => {
    const context = argv as CommandContext
    const handler = (await modules[runner]())[runner] as (
      args: unknown,
      io: CommandContext['io'],
    ) => Promise<number>
    context.result.exitCode = await handler(argv, context.io)
  }
}

const format = {
  choices: ['text', 'json'] as const,
  describe: 'text (a table, on a terminal) or json (NDJSON, the default on a pipe)',
}

export const command = 'registry <command>'
export const describe = 'Servers from an MCP Registry (search, show) and server.json files (lint, launch)'

export function builder(yargs: Argv) {
  return yargs
    .command(
      'search [term]',
      'Servers whose name contains TERM, page after page (latest versions; deleted ones left out)',
      (command: Argv) =>
        command
          .positional('term', { type: 'string', describe: 'Text in the server name (none: every server)' })
          .option('limit', { type: 'number', default: 100, describe: 'At most this many servers' })
          .option('page-size', {
            type: 'number',
            describe: 'Servers per request (the registry’s default when absent)',
          })
          .option('cursor', { type: 'string', describe: 'Start where an earlier search stopped' })
          .option('updated-since', { type: 'string', describe: 'Only servers changed since (RFC 3339 time)' })
          .option('include-deleted', { type: 'boolean', describe: 'List deleted entries too' })
          .option('format', format)
          .options(registryFlags)
          .example('$0 registry search weather', '')
          .example('$0 registry search --format json | jq .name', 'NDJSON for scripts'),
      run('runSearch'),
    )
    .command(
      'show <name>',
      'One server: its versions, packages, remotes, inputs, and the command line or URL that would be run',
      (command: Argv) =>
        command
          .positional('name', { type: 'string', demandOption: true, describe: 'namespace/name[@version]' })
          .option('input', {
            type: 'string',
            array: true,
            describe: 'An input for what would be run: name=value (a repeated argument: once per value)',
          })
          .option('format', format)
          .options(registryFlags)
          .options(registryChoiceFlag)
          .example('$0 registry show io.github.modelcontextprotocol/everything', ''),
      run('runShow'),
    )
    .command(
      'lint <file>',
      "A server.json against the registry's JSON Schema and publishing rules, each problem with its line",
      (command: Argv) =>
        command
          .positional('file', { type: 'string', demandOption: true })
          .option('schema', {
            type: 'string',
            describe: "The schema, a URL or file (default: the file's $schema, fetched once and cached)",
          })
          .option('rules-only', {
            type: 'boolean',
            describe: 'Check the publishing rules without the schema',
          })
          .option('format', format),
      run('runLint'),
    )
    .command(
      'launch <file>',
      'Run a server.json as mcp-kit would run it from the registry, and inspect the server',
      (command: Argv) =>
        command
          .positional('file', { type: 'string', demandOption: true })
          .option('tool', { type: 'string', describe: 'Show this one tool whole' })
          .option('format', { choices: ['text', 'json'] as const, default: 'text' as const })
          .options(connectionFlags)
          .example('$0 registry launch server.json --input API_KEY=…', ''),
      run('runLaunch'),
    )
    .demandCommand(1, 'Say which: search, show, lint or launch.')
}
