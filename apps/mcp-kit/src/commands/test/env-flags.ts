// `--env NAME=value` and `--env FILE` for `mcp-kit test`: values for `${NAME}` in collections. A
// file holds NAME=value lines (`#` comments, blank lines, an optional `export `, quotes around
// the value taken off), as .env files are written.

import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { CliError } from '../../base/errors.js'

const namePattern = /^[A-Za-z_][A-Za-z0-9_]*$/

function unquote(value: string): string {
  const trimmed = value.trim()
  if (trimmed.length >= 2 && (trimmed[0] === '"' || trimmed[0] === "'") && trimmed.endsWith(trimmed[0]))
    return trimmed.slice(1, -1)
  return trimmed
}

export function parseEnvFlags(values: readonly string[] | undefined, cwd: string): Record<string, string> {
  const variables: Record<string, string> = {}
  for (const value of values ?? []) {
    const equals = value.indexOf('=')
    if (equals > 0 && namePattern.test(value.slice(0, equals))) {
      variables[value.slice(0, equals)] = value.slice(equals + 1)
      continue
    }
    if (equals !== -1)
      throw new CliError('usage', `--env ${JSON.stringify(value)}: expected NAME=value or a file`)
    let text: string
    try {
      text = readFileSync(resolve(cwd, value), 'utf8')
    } catch (error) {
      throw new CliError('usage', `--env ${value}: cannot read it: ${(error as Error).message}`)
    }
    for (const [index, raw] of text.split(/\r?\n/).entries()) {
      const line = raw.trim().replace(/^export\s+/, '')
      if (line === '' || line.startsWith('#')) continue
      const at = line.indexOf('=')
      const name = at === -1 ? '' : line.slice(0, at).trim()
      if (!namePattern.test(name)) throw new CliError('usage', `${value}:${index + 1}: expected NAME=value`)
      variables[name] = unquote(line.slice(at + 1))
    }
  }
  return variables
}
