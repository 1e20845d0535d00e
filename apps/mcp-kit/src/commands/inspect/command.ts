// `mcp-kit inspect <ref>` — list a server's tools, resources, templates and prompts.

import type { Argv } from 'yargs'
import type { CommandContext } from '../../cli/command-context.js'
import { connectionFlags } from '../../session/connection-flags.js'
import type { InspectArguments } from './run-inspect.js'

export const command = 'inspect <reference>'
export const describe = "Show a server's tools, resources, resource templates and prompts"

export function builder(yargs: Argv) {
  return yargs
    .positional('reference', {
      type: 'string',
      demandOption: true,
      describe: 'mcp+npx://pkg, mcp+node://./server.js, mcp+http://host/mcp, @profile',
    })
    .option('format', {
      choices: ['text', 'json'] as const,
      default: 'text' as const,
      describe: 'text for people, json for scripts',
    })
    .option('save', { type: 'string', describe: 'Save this (naked) reference as a profile of that name' })
    .options(connectionFlags)
    .example('$0 inspect @demo', 'the bundled demo server')
    .example(
      '$0 inspect mcp+npx://@modelcontextprotocol/server-everything --format json',
      'a server from npm, as JSON',
    )
}

export async function handler(argv: InspectArguments & CommandContext): Promise<void> {
  const { runInspect } = await import('./run-inspect.js')
  argv.result.exitCode = await runInspect(argv, argv.io)
}
