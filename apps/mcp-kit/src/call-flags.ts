// Flags of the commands that call a server (cat, head, tail, put).

import type { Argv } from 'yargs'
import { connectionFlags } from './connection.js'

export function callOptions(yargs: Argv) {
  return yargs
    .positional('reference', {
      type: 'string',
      demandOption: true,
      describe: 'Server and operation: mcp+npx://pkg?tool=name&key=value, @profile/tool?key=value, …',
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
}
