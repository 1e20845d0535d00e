// Query strings of references: split into reserved keys (which pick the operation and launch
// details) and tool/prompt arguments. `+` is a literal plus sign here, not a space: references
// are typed in shells, not submitted by HTML forms; use %20 for a space.

import { ProfileError } from '../errors.js'
import type { ListTarget, QueryArguments, ReferenceQuery } from '../types.js'

export const reservedKeys = ['tool', 'resource', 'prompt', 'list', 'command', 'arg'] as const

export const listTargets: readonly ListTarget[] = ['tools', 'resources', 'templates', 'prompts']
const envNamePattern = /^[A-Za-z_][A-Za-z0-9_]*$/

/** Decodes percent-escapes, turning malformed ones into an `invalid_reference` error. */
export function decodeComponent(text: string, where: string): string {
  try {
    return decodeURIComponent(text)
  } catch {
    throw new ProfileError(
      'invalid_reference',
      `malformed query: bad percent-encoding in ${where} ${JSON.stringify(text)}`,
      {
        details: { text },
      },
    )
  }
}

function setOnce(
  query: ReferenceQuery,
  key: 'tool' | 'resource' | 'prompt' | 'command',
  value: string,
): void {
  if (query[key] !== undefined) {
    throw new ProfileError('invalid_reference', `malformed query: '${key}' is given more than once`, {
      details: { key },
    })
  }
  query[key] = value
}

export function addParam(params: QueryArguments, name: string, value: string): void {
  const existing = Object.hasOwn(params, name) ? params[name] : undefined
  let next: string | string[]
  if (existing === undefined) next = value
  else if (Array.isArray(existing)) next = [...existing, value]
  else next = [existing, value]
  // defineProperty: a parameter called `__proto__` is data, not a prototype change.
  Object.defineProperty(params, name, { value: next, enumerable: true, writable: true, configurable: true })
}

/** Parses the part after `?` (without the `?`). */
export function parseQuery(queryString: string): ReferenceQuery {
  const query: ReferenceQuery = { launchArgs: [], env: {}, params: {} }
  for (const segment of queryString.split('&')) {
    if (segment === '') continue
    const equals = segment.indexOf('=')
    const rawKey = equals === -1 ? segment : segment.slice(0, equals)
    const rawValue = equals === -1 ? '' : segment.slice(equals + 1)
    const key = decodeComponent(rawKey, 'key')
    const value = decodeComponent(rawValue, `value of '${key}'`)
    if (key === '') {
      throw new ProfileError(
        'invalid_reference',
        `malformed query: empty key in ${JSON.stringify(segment)}`,
        {
          details: { segment },
        },
      )
    }
    switch (key) {
      case 'tool':
      case 'resource':
      case 'prompt':
      case 'command':
        setOnce(query, key, value)
        break
      case 'list': {
        if (query.list !== undefined) {
          throw new ProfileError('invalid_reference', "malformed query: 'list' is given more than once")
        }
        if (!(listTargets as readonly string[]).includes(value)) {
          throw new ProfileError(
            'invalid_reference',
            `malformed query: list=${JSON.stringify(value)} is not one of ${listTargets.join(', ')} (an argument named 'list' is written arg:list=…)`,
            { details: { list: value } },
          )
        }
        query.list = value as ListTarget
        break
      }
      case 'arg':
        query.launchArgs.push(value)
        break
      default:
        if (key.startsWith('env.')) {
          const name = key.slice(4)
          if (!envNamePattern.test(name)) {
            throw new ProfileError(
              'invalid_reference',
              `malformed query: invalid environment variable name ${JSON.stringify(name)}`,
              {
                details: { name },
              },
            )
          }
          if (value.includes('\0')) {
            throw new ProfileError(
              'invalid_reference',
              `malformed query: env.${name} contains a NUL character`,
            )
          }
          query.env[name] = value
        } else if (key.startsWith('arg:')) {
          const name = key.slice(4)
          if (name === '')
            throw new ProfileError(
              'invalid_reference',
              "malformed query: 'arg:' needs a parameter name, as in arg:tool=value",
            )
          addParam(query.params, name, value)
        } else {
          addParam(query.params, key, value)
        }
    }
  }
  return query
}

/** True when a parameter name must be written as `arg:NAME=` to be read back as a parameter. */
export function needsArgumentEscape(name: string): boolean {
  return (
    (reservedKeys as readonly string[]).includes(name) || name.startsWith('env.') || name.startsWith('arg:')
  )
}
