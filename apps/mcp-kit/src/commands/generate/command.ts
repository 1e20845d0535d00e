// `mcp-kit generate <ref> --out FILE.ts` — a typed client module for a server, guarded by its schema hash.

import type { Argv } from 'yargs'
import type { CommandContext } from '../../base/command-context.js'
import { connectionFlags } from '../../session/connection-flags.js'
import { targetUsage } from '../shared/target-usage.js'
import type { GenerateArguments } from './generate-arguments.js'

export const command = 'generate [reference]'
export const describe =
  "Write a typed TypeScript client for a server: one method per tool, checked against the server's schema on connect"

export function builder(yargs: Argv) {
  return yargs
    .usage(targetUsage('generate', '--out FILE.ts', '', describe))
    .positional('reference', {
      type: 'string',
      describe:
        'mcp+npx://pkg, mcp+node://./server.js, mcp+http://host/mcp, @profile; or give -- <program> [args…]',
    })
    .option('out', {
      type: 'string',
      demandOption: true,
      describe: 'The module to write (FILE.ts); it depends only on @mcp-kit/client',
    })
    .option('policy', {
      type: 'string',
      choices: ['error', 'breaking', 'warn', 'ignore'],
      describe:
        "What the module's connect() does when the server's tools changed: error refuses any change (default), breaking only breaking ones",
    })
    .options(connectionFlags)
    .example('$0 generate mcp+npx://@modelcontextprotocol/server-everything --out src/everything.ts', '')
    .example(
      '$0 generate @github --out src/github.ts',
      'from a profile (its ${VAR}s expand when the module connects)',
    )
    .example('$0 generate --out src/mine.ts -- node server.js', 'any stdio server, by its command line')
    .example(
      '$0 generate mcp+npx://some-server?env.API_KEY=$API_KEY --out src/some.ts --policy breaking',
      'API_KEY stays ${API_KEY} in the module; new optional parameters do not stop it',
    )
    .example(
      '$0 profile validate src/everything.ts',
      'in CI: exit 5 when the server changed under the module',
    )
}

export async function handler(argv: GenerateArguments & CommandContext): Promise<void> {
  const { runGenerate } = await import('./run-generate.js')
  argv.result.exitCode = await runGenerate(argv, argv.io)
}
