// `${NAME}`, `${NAME:-default}` and `${secret:KEY}` in the launch settings of a module generated
// from a profile, expanded when it connects: the module keeps them as the profile wrote them, so
// no environment value or secret is ever written into generated code. `$${` is a literal `${`.

import { ClientError } from '../errors.js'
import type { ServerSpec } from '../server-spec.js'

const pattern = /\$\$\{|\$\{secret:([A-Za-z0-9._/-]+)\}|\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g

export type Variables = Readonly<Record<string, string | undefined>>

function expand(text: string, variables: Variables, origin: string, field: string): string {
  if (!text.includes('${')) return text
  return text.replace(pattern, (_match, secret?: string, name?: string, fallback?: string) => {
    if (secret === undefined && name === undefined) return '${'
    const key = secret === undefined ? (name as string) : `secret:${secret}`
    const value = Object.hasOwn(variables, key) ? variables[key] : undefined
    if (fallback !== undefined) return value === undefined || value === '' ? fallback : value
    if (value !== undefined) return value
    const what = secret === undefined ? `environment variable ${name}` : `secret '${secret}'`
    throw new ClientError(
      'missing_env',
      `${what} is not set (${origin} uses it in ${field}); ${secret === undefined ? 'set it, or pass' : 'pass'} it as connect({ variables: { ${JSON.stringify(key)}: … } })`,
      { details: { variable: key, field } },
    )
  })
}

function expandRecord(
  record: Record<string, string> | undefined,
  variables: Variables,
  origin: string,
  field: string,
): Record<string, string> | undefined {
  if (record === undefined) return undefined
  const expanded: Record<string, string> = {}
  for (const [key, value] of Object.entries(record)) {
    Object.defineProperty(expanded, key, {
      value: expand(value, variables, origin, `${field}.${key}`),
      enumerable: true,
      writable: true,
      configurable: true,
    })
  }
  return expanded
}

/** The server spec with its variables replaced; `origin` names the profile in messages. */
export function expandServer(server: ServerSpec, variables: Variables, origin: string): ServerSpec {
  if (server.transport === 'http') {
    const expanded: ServerSpec = { transport: 'http', url: expand(server.url, variables, origin, 'url') }
    const headers = expandRecord(server.headers, variables, origin, 'headers')
    if (headers !== undefined) expanded.headers = headers
    return expanded
  }
  const expanded: ServerSpec = {
    transport: 'stdio',
    command: expand(server.command, variables, origin, 'command'),
    args: server.args.map((arg, index) => expand(arg, variables, origin, `args[${index}]`)),
  }
  const env = expandRecord(server.env, variables, origin, 'env')
  if (env !== undefined) expanded.env = env
  if (server.cwd !== undefined) expanded.cwd = expand(server.cwd, variables, origin, 'cwd')
  return expanded
}
