// `mcp-kit serve [module]` — serve a ToolRegistry module (or the bundled demo) over stdio or HTTP.

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
    .option('stdio', { type: 'boolean', describe: 'Serve over stdin/stdout' })
    .example('$0 serve --stdio', 'the demo registry over stdio')
}

export async function handler(argv: ServeArguments & CommandContext): Promise<void> {
  const { runServe } = await import('../run-serve.js')
  argv.result.exitCode = await runServe(argv, argv.io)
}
