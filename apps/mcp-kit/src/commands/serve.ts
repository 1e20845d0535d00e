// `mcp-kit serve [module]` — serve a ToolRegistry module (or the bundled demo) over stdio or
// Streamable HTTP. Only flags live here; the server code loads when the command runs.

import type { Argv } from 'yargs'
import type { ServeArguments } from '../run-serve.js'
import type { CommandContext } from './context.js'

export const command = 'serve [module]'
export const describe =
  'Serve a ToolRegistry module (default: the bundled demo) over stdio or Streamable HTTP'

export function builder(yargs: Argv) {
  return yargs
    .positional('module', {
      type: 'string',
      describe: 'ES module whose default export is a registry (or a function returning one)',
    })
    .option('stdio', { type: 'boolean', describe: 'Serve over stdin/stdout (the default without --port)' })
    .option('port', {
      type: 'number',
      describe: 'Serve Streamable HTTP at http://HOST:PORT/mcp (0: any free port)',
    })
    .option('host', { type: 'string', describe: 'Address to bind (default 127.0.0.1)' })
    .option('token', {
      type: 'string',
      describe: 'Require Authorization: Bearer <token> (default: $MCP_KIT_TOKEN)',
    })
    .option('stateless', { type: 'boolean', describe: 'No sessions: each POST is served on its own' })
    .option('allow-origin', {
      type: 'string',
      array: true,
      describe: "Also accept browser requests from this Origin ('*': any)",
    })
    .option('allow-host', {
      type: 'string',
      array: true,
      describe: "Also accept this Host header, e.g. when binding 0.0.0.0 ('*': any)",
    })
    .option('max-sessions', { type: 'number', describe: 'Live sessions allowed at once (default 1000)' })
    .option('session-idle', {
      type: 'number',
      describe: 'Close sessions idle this many seconds (default 600)',
    })
    .option('body-limit', {
      type: 'string',
      describe: 'Largest request body, e.g. 4MiB, 512KiB (default 4MiB)',
    })
    .option('shutdown-grace', {
      type: 'number',
      describe: 'Seconds in-flight calls get to finish on SIGINT/SIGTERM (default 10)',
    })
    .option('trace', { type: 'string', describe: 'Append one NDJSON trace entry per call to this file' })
    .option('trace-redact-args', {
      type: 'boolean',
      describe: 'Write argument names but not values to the trace',
    })
    .conflicts('stdio', 'port')
    .example('$0 serve --stdio', 'the demo registry over stdio')
    .example('$0 serve ./tools.js --port 3000', 'your registry at http://127.0.0.1:3000/mcp')
    .example(
      'MCP_KIT_TOKEN=s3cret $0 serve ./tools.js --port 3000 --host 0.0.0.0 --allow-host my.host',
      'reachable from other machines, with a token',
    )
}

export async function handler(argv: ServeArguments & CommandContext): Promise<void> {
  const { runServe } = await import('../run-serve.js')
  argv.result.exitCode = await runServe(argv, argv.io)
}
