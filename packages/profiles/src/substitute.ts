// `${VAR}` and `${VAR:-default}` substitution over the strings of a profile. `$${` writes a
// literal `${`. A variable that is unset (or, with `:-`, empty) and has no default is an error
// that names the variable, the file and where in the file it is used. `${secret:KEY}` is a value
// from the user's secret store, passed in as the variable `secret:KEY`.

import { ProfileError } from './errors.js'

export type Variables = Readonly<Record<string, string | undefined>>

const referencePattern =
  /\$\$\{|\$\{secret:([A-Za-z0-9._/-]+)\}|\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g

/** Substitutes variables in one string. `where` names the file and field for error messages. */
export function substituteString(
  text: string,
  variables: Variables,
  where: { file: string; field: string },
): string {
  if (!text.includes('${')) return text
  return text.replace(
    referencePattern,
    (_match, secret: string | undefined, name: string | undefined, fallback: string | undefined) => {
      if (secret !== undefined) return secretValue(secret, variables, where)
      if (name === undefined) return '${' // the `$${` escape
      const value = Object.hasOwn(variables, name) ? variables[name] : undefined
      if (fallback !== undefined) return value === undefined || value === '' ? fallback : value
      if (value === undefined) {
        throw new ProfileError(
          'missing_env',
          `environment variable ${name} is not set (used in ${where.file} at ${where.field}); set it, or give a default as \${${name}:-value}`,
          { details: { variable: name, file: where.file, field: where.field } },
        )
      }
      return value
    },
  )
}

function secretValue(key: string, variables: Variables, where: { file: string; field: string }): string {
  const value = variables[`secret:${key}`]
  if (value !== undefined) return value
  throw new ProfileError(
    'missing_secret',
    `secret '${key}' is not in your secret store (used in ${where.file} at ${where.field}); set it with: mcp-kit profile secret set ${key}`,
    { details: { secret: key, file: where.file, field: where.field } },
  )
}

/** The secret keys a profile value refers to (`${secret:KEY}`), to read them from the store first. */
export function secretKeys(value: unknown, keys: Set<string> = new Set()): Set<string> {
  if (typeof value === 'string') {
    for (const match of value.replace(/\$\$\{/g, '').matchAll(/\$\{secret:([A-Za-z0-9._/-]+)\}/g))
      keys.add(match[1] as string)
  } else if (Array.isArray(value)) {
    for (const item of value) secretKeys(item, keys)
  } else if (value !== null && typeof value === 'object') {
    for (const item of Object.values(value)) secretKeys(item, keys)
  }
  return keys
}

/**
 * Substitutes variables in every string of a JSON value, recursively. Keys listed in `skipKeys`
 * (at any depth) are copied unchanged: stored tool schemas may legitimately contain `${…}` text.
 */
export function substituteValue<T>(
  value: T,
  variables: Variables,
  file: string,
  skipKeys: ReadonlySet<string> = new Set(),
  field = '',
): T {
  if (typeof value === 'string')
    return substituteString(value, variables, { file, field: field || '(value)' }) as T
  if (Array.isArray(value)) {
    return value.map((item, index) =>
      substituteValue(item, variables, file, skipKeys, `${field}[${index}]`),
    ) as T
  }
  if (value !== null && typeof value === 'object') {
    const result: Record<string, unknown> = {}
    for (const [key, item] of Object.entries(value)) {
      const next = skipKeys.has(key)
        ? item
        : substituteValue(item, variables, file, skipKeys, field ? `${field}.${key}` : key)
      Object.defineProperty(result, key, {
        value: next,
        enumerable: true,
        writable: true,
        configurable: true,
      })
    }
    return result as T
  }
  return value
}
