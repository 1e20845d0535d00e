// The flags that answer a server's questions ahead of time (--input, --input-json, --root): read
// by a session's question handler and by the registry's inputs alike, checked up front (exit 2).

import { isRecord } from '@mcp-kit/core'
import { CliError } from './errors.js'

export interface InputArguments {
  input?: string[]
  'input-json'?: string
  root?: string[]
  verbose?: boolean
  quiet?: boolean
}

/** --input-json (typed values) and --input name=value (strings), checked up front (exit 2). */
export function parseInputFlags(args: InputArguments): {
  json: Record<string, unknown>
  strings: Record<string, string>
} {
  let json: Record<string, unknown> = {}
  const strings: Record<string, string> = {}
  if (args['input-json'] !== undefined) {
    let parsed: unknown
    try {
      parsed = JSON.parse(args['input-json'])
    } catch {
      throw new CliError('usage', '--input-json must be a JSON object, e.g. \'{"confirm": true}\'')
    }
    if (!isRecord(parsed)) throw new CliError('usage', '--input-json must be a JSON object')
    json = { ...parsed }
  }
  for (const pair of args.input ?? []) {
    const equals = pair.indexOf('=')
    if (equals <= 0) throw new CliError('usage', `--input ${JSON.stringify(pair)}: expected name=value`)
    strings[pair.slice(0, equals)] = pair.slice(equals + 1)
  }
  return { json, strings }
}
