// The plainest and most common command, `mcp-kit inspect <reference>` (with at most
// `--format json|text`), recognised without yargs: loading yargs and every command module costs
// about 70 ms before the server is even spawned, a tenth of inspecting a quick server
// (tooling/bench, inspect rows). Anything else, down to one more flag, goes through yargs, so
// help, usage errors and every other form behave as they always did.

import type { InspectArguments } from '../commands/shared/inspect/run-inspect.js'
import { connectionFlags } from '../session/connection-flags.js'

/** The arguments yargs would give `inspect` for this argv, or undefined when it is not that plain. */
export function plainInspect(argv: readonly string[]): InspectArguments | undefined {
  const [command, reference, ...rest] = argv
  if (command !== 'inspect' || reference === undefined || reference === '' || reference.startsWith('-')) {
    return undefined
  }
  let format: 'text' | 'json' = 'text'
  if (rest.length === 1 && rest[0]?.startsWith('--format=')) {
    rest.splice(0, 1, '--format', rest[0].slice('--format='.length))
  }
  if (rest.length === 2 && rest[0] === '--format' && (rest[1] === 'json' || rest[1] === 'text')) {
    format = rest[1]
  } else if (rest.length > 0) {
    return undefined
  }
  const defaults = Object.fromEntries(
    Object.entries(connectionFlags).flatMap(([name, flag]) =>
      'default' in flag ? [[name, flag.default]] : [],
    ),
  )
  return { ...defaults, reference, format } as InspectArguments
}
