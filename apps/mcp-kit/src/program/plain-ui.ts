// The way the workspace is usually opened, `mcp-kit ui [reference] [--no-open] [-- cmd …]`,
// recognised without yargs: loading yargs and every command module delays the server's spawn and
// the page's address by about 70 ms (tooling/bench, ui rows). Anything else, down to one more
// flag, goes through yargs, so help, usage errors and every other form behave as they always did.

import type { UiArguments } from '../commands/ui/run-ui.js'
import { connectionFlags } from '../session/connection-flags.js'

/** What yargs calls a kebab-case flag in camelCase too. */
function camelCase(name: string): string {
  return name.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase())
}

/** The arguments yargs would give `ui` for this argv, or undefined when it is not that plain. */
export function plainUi(argv: readonly string[]): UiArguments | undefined {
  const separator = argv.indexOf('--')
  const own = separator === -1 ? argv : argv.slice(0, separator)
  const serverCommand = separator === -1 ? undefined : argv.slice(separator + 1)
  const [command, ...rest] = own
  if (command !== 'ui' || (serverCommand !== undefined && serverCommand.length === 0)) return undefined
  let open = true
  let reference: string | undefined
  for (const word of rest) {
    if (word === '--no-open' && open) open = false
    else if (!word.startsWith('-') && word !== '' && reference === undefined) reference = word
    else return undefined
  }
  if (reference !== undefined && serverCommand !== undefined) return undefined
  const args: Record<string, unknown> = { port: 0, host: '127.0.0.1', open }
  for (const [name, flag] of Object.entries(connectionFlags)) {
    if (!('default' in flag)) continue
    args[name] = flag.default
    if (name.includes('-')) args[camelCase(name)] = flag.default
  }
  if (reference !== undefined) args.reference = reference
  if (serverCommand !== undefined) args.serverCommand = serverCommand
  return args as unknown as UiArguments
}

/**
 * `ui [--no-open] -- cmd …`: starts the server before the rest of the CLI loads (its start-up is
 * most of the time to the first tools list); the workspace adopts it (commands/ui/early-server.ts).
 */
export async function launchUiServerEarly(argv: readonly string[]): Promise<void> {
  const command = plainUi(argv)?.serverCommand
  if (command === undefined) return
  const { launchEarly } = await import('../commands/ui/early-server.js')
  await launchEarly(command)
}
