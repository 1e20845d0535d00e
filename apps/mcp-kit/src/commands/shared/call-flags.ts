// Flags of the commands that call a server (cat, head, tail, put), and how their positional words
// are sorted into a reference and key=value arguments.

import type { Argv } from 'yargs'
import type { CommandContext } from '../../base/command-context.js'
import { recordFlag } from '../../record/record-flag.js'
import { connectionFlags } from '../../session/connection-flags.js'
import type { CallArguments } from './call-tool.js'

export function callOptions(yargs: Argv) {
  return yargs
    .positional('reference', {
      type: 'string',
      describe:
        "Server and operation: mcp+npx://pkg?tool=name&key=value, @profile/tool?key=value, …; or, before -- <program> [args…], a query such as '?tool=echo'",
    })
    .option('tool', {
      type: 'string',
      describe: 'The tool to call (as tool= in the query)',
      group: 'Operation:',
    })
    .option('args', {
      type: 'string',
      describe: 'Tool arguments as a JSON object, e.g. --args \'{"limit": 5}\'',
      group: 'Arguments:',
    })
    .option('raw-strings', {
      type: 'boolean',
      describe: 'Send query and key=value arguments as strings (no type coercion)',
      group: 'Arguments:',
    })
    .option('validate', {
      type: 'boolean',
      default: true,
      describe: 'Check arguments against the tool schema before calling (--no-validate to skip)',
      group: 'Arguments:',
    })
    .option('raw', {
      type: 'boolean',
      describe: 'Print the MCP result as it came, not NDJSON records',
      group: 'Output:',
    })
    .options(connectionFlags)
    .options(recordFlag)
}

/** `--detach` (cat, put): a call the server turns into a task prints the task instead of waiting. */
export function detachOption(yargs: Argv) {
  return yargs.option('detach', {
    type: 'boolean',
    describe:
      'When the server runs the call as a task, print the task (its taskId) instead of waiting for it; ' +
      "follow it later with 'mcp-kit task get <reference> <taskId> --wait'. HTTP servers only",
    group: 'Output:',
  })
}

/** A word that names a server: `@profile…` or `scheme://…` (`mcp+npx://…`, `mcp+https://…`). */
function isReferenceWord(word: string): boolean {
  return word.startsWith('@') || /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(word)
}

/** A `key=value` argument: a name (no `?`, `/`, nor a leading `@`) before the first `=`. */
function isKeyValueWord(word: string): boolean {
  return /^[^=?/@][^=?/]*=/.test(word)
}

/**
 * yargs fills the reference positional with the first word, whatever it is; the words are
 * sorted here. Without a command line the reference is the word that names a server, wherever
 * it is among them (`cat --tool x prompt=hi URL`), and key=value words are arguments. With a
 * command line after `--`, the words before it are key=value arguments and an optional `?query`.
 */
export function commandLinePositionals<Arguments extends CallArguments & CommandContext>(
  argv: Arguments,
): Arguments {
  const words = [argv.reference, ...(argv.arguments ?? [])].filter((word) => word !== undefined)
  let at: number
  if (argv.serverCommand !== undefined) at = words.findIndex((word) => word.startsWith('?'))
  else {
    at = words.findIndex(isReferenceWord)
    if (at === -1) at = words.findIndex((word) => !isKeyValueWord(word))
  }
  return {
    ...argv,
    reference: at === -1 ? undefined : words[at],
    arguments: words.filter((_, index) => index !== at),
  }
}
