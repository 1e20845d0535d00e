// `mcp-kit inspect <ref>` — list a server's tools, resources, templates and prompts.

import type { Argv } from 'yargs'
import type { CommandContext } from '../../base/command-context.js'
import { connectionFlags } from '../../session/connection-flags.js'
import type { InspectArguments } from '../shared/inspect/run-inspect.js'
import { targetUsage } from '../shared/target-usage.js'

export const command = 'inspect [reference]'
export const describe = "Show a server's tools, resources, resource templates and prompts"

export function builder(yargs: Argv) {
  return yargs
    .usage(targetUsage('inspect', '', '[--tool name]', describe))
    .positional('reference', {
      type: 'string',
      describe:
        "mcp+npx://pkg, mcp+node://./server.js, mcp+http://host/mcp, @profile; @profile/tool or ?tool=name for one tool; before -- <program> [args…], a query such as '?tool=echo'",
    })
    .option('tool', { type: 'string', describe: 'Show this one tool whole (as tool= in the query)' })
    .option('format', {
      choices: ['text', 'json'] as const,
      default: 'text' as const,
      describe: 'text for people, json for scripts',
    })
    .option('save', {
      type: 'string',
      describe: 'Save this server (a naked reference or a command line) as a profile of that name',
    })
    .options(connectionFlags)
    .example('$0 inspect @demo', 'the bundled demo server')
    .example(
      '$0 inspect mcp+npx://@modelcontextprotocol/server-everything --format json',
      'a server from npm, as JSON',
    )
    .example('$0 inspect @demo/add', 'one tool: every parameter, the output schema, an example call')
    .example('$0 inspect -- python3 server.py --db ./data', 'any stdio server, by its command line')
    .example('$0 inspect --tool search --save myserver -- ./server', 'one of its tools; keep it as @myserver')
}

export async function handler(argv: InspectArguments & CommandContext): Promise<void> {
  const { runInspect } = await import('../shared/inspect/run-inspect.js')
  argv.result.exitCode = await runInspect(argv, argv.io)
}
