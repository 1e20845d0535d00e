// `npx` started as a desktop client starts it, outside any project, whatever the server's working
// directory. Inside a project npx first looks for the package in the project's node_modules tree,
// following workspace links into a pnpm store; a copy it finds there is run from the project's
// node_modules/.bin, where a package the project does not depend on directly has no command
// ("sh: 1: mcp-server-everything: not found", exit 127), and the walk itself takes seconds in a
// large monorepo. `--prefix DIR` names the project npx looks in; the command still runs in the
// working directory (docs/architecture.md "Process hygiene").

import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * A directory of this package that holds no package.json and no node_modules: to npx, a project
 * with nothing installed. It is as trusted as the code that runs from it.
 */
export const emptyProjectDirectory = dirname(fileURLToPath(import.meta.url))

/** npm options that take their value as the next word. */
const valueOptions = new Set([
  '-p',
  '--package',
  '-c',
  '--call',
  '--prefix',
  '--registry',
  '--cache',
  '--userconfig',
  '--loglevel',
  '-w',
  '--workspace',
])
/** Options that say the user wants npx to work in a project of their choosing. */
const projectOptions = /^(?:--prefix|-w|--workspace|--workspaces|-ws|--include-workspace-root)(?:=|$)/

/** True for `npx`, however it is named on this platform. */
export function isNpx(command: string): boolean {
  return /^npx(?:\.cmd|\.exe)?$/i.test(command.split(/[\\/]/).at(-1) ?? '')
}

/**
 * The arguments to start `command` with: `--prefix <prefix>` first for npx, unless npx's own
 * options (those before the package) already name a project or a workspace.
 */
export function npxArguments(
  command: string,
  args: readonly string[],
  prefix: string | false,
): readonly string[] {
  if (prefix === false || !isNpx(command)) return args
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] as string
    if (arg === '--' || !arg.startsWith('-')) break
    if (projectOptions.test(arg)) return args
    if (valueOptions.has(arg)) index += 1
  }
  return ['--prefix', prefix, ...args]
}
