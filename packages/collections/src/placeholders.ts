// `${NAME}`, `${NAME:-default}` and `${secret:KEY}` in a collection, as profiles write them (`$${`
// is a literal `${`): which names a value uses, and the value with them filled in. A string that
// is one `${NAME}` and nothing else takes the value's own type (a captured number stays a number).

import { substituteString } from '@mcp-kit/profiles/internal'

const placeholderPattern =
  /\$\$\{|\$\{secret:([A-Za-z0-9._/-]+)\}|\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g
const wholePattern = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$/

export interface PlaceholderUse {
  name: string
  /** `${NAME:-default}`: a value without the name is fine. */
  hasDefault: boolean
  secret: boolean
}

/** Every placeholder in the strings of `value` (keys included), in order. */
export function placeholdersIn(value: unknown, uses: PlaceholderUse[] = []): PlaceholderUse[] {
  if (typeof value === 'string') {
    if (!value.includes('${')) return uses
    for (const match of value.matchAll(placeholderPattern)) {
      if (match[1] !== undefined) uses.push({ name: match[1], hasDefault: false, secret: true })
      else if (match[2] !== undefined)
        uses.push({ name: match[2], hasDefault: match[3] !== undefined, secret: false })
    }
  } else if (Array.isArray(value)) {
    for (const item of value) placeholdersIn(item, uses)
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      placeholdersIn(key, uses)
      placeholdersIn(item, uses)
    }
  }
  return uses
}

/** What placeholders are filled from: captured values first, then variables; secrets by `secret:KEY`. */
export interface Fill {
  captured: Readonly<Record<string, unknown>>
  variables: Readonly<Record<string, string | undefined>>
  /** Names the error messages give the value (`step 3 'create'`). */
  where: { file: string; field: string }
}

function asText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value)
}

/**
 * `value` with its placeholders filled. Throws the profiles' `missing_env` / `missing_secret`
 * errors for a name nothing gives.
 */
export function fillPlaceholders<T>(value: T, fill: Fill, field = fill.where.field): T {
  if (typeof value === 'string') {
    if (!value.includes('${')) return value
    const whole = wholePattern.exec(value)
    if (whole !== null && Object.hasOwn(fill.captured, whole[1] as string))
      return fill.captured[whole[1] as string] as T
    const variables: Record<string, string | undefined> = { ...fill.variables }
    for (const [name, item] of Object.entries(fill.captured)) variables[name] = asText(item)
    return substituteString(value, variables, { file: fill.where.file, field }) as T
  }
  if (Array.isArray(value))
    return value.map((item, index) => fillPlaceholders(item, fill, `${field}[${index}]`)) as T
  if (value !== null && typeof value === 'object') {
    const result: Record<string, unknown> = {}
    for (const [key, item] of Object.entries(value)) {
      Object.defineProperty(result, fillPlaceholders(key, fill, field), {
        value: fillPlaceholders(item, fill, `${field}.${key}`),
        enumerable: true,
        writable: true,
        configurable: true,
      })
    }
    return result as T
  }
  return value
}

/** Text written into a collection as it is: `${` becomes `$${`, so nothing in it is taken for a placeholder. */
export function escapePlaceholders<T>(value: T): T {
  if (typeof value === 'string')
    return (value.includes('${') ? value.replaceAll('${', () => '$${') : value) as T
  if (Array.isArray(value)) return value.map((item) => escapePlaceholders(item)) as T
  if (value !== null && typeof value === 'object') {
    const result: Record<string, unknown> = {}
    for (const [key, item] of Object.entries(value)) {
      Object.defineProperty(result, escapePlaceholders(key), {
        value: escapePlaceholders(item),
        enumerable: true,
        writable: true,
        configurable: true,
      })
    }
    return result as T
  }
  return value
}
