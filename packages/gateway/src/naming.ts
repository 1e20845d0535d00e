// Names a gateway offers: an upstream's tool or prompt under its namespace (`upstream__tool`,
// the form MetaMCP and Docker's gateway use), kept to what popular clients accept — at most 64
// characters of letters, digits, `_` and `-` — and shortened deterministically (a hash of the
// full name at the end) when the plain form would not fit. And the filters: null (everything),
// [] (nothing) or a list of names and `*`/`?` globs.

import { createHash } from 'node:crypto'

/** null: everything; []: nothing; else names and `*`/`?` globs. */
export type NameFilter = readonly string[] | null

/** The longest name a client is offered (what OpenAI, Claude and Cursor accept). */
export const maximumNameLength = 64
const separator = '__'

/** The default prefix of an upstream's names: its name and `__`. */
export function defaultPrefix(upstream: string): string {
  return `${safe(upstream)}${separator}`
}

function safe(text: string): string {
  return text.replace(/[^A-Za-z0-9_-]/g, '_')
}

/**
 * The name a client sees for an upstream's tool or prompt. Deterministic: the same upstream
 * name and prefix give the same names on every start (clients and saved configs rely on it).
 */
export function namespacedName(prefix: string, name: string): string {
  const plain = `${prefix}${name}`
  const cleaned = safe(plain)
  if (cleaned === plain && plain.length <= maximumNameLength) return plain
  const hash = createHash('sha256').update(plain).digest('hex').slice(0, 8)
  return `${cleaned.slice(0, maximumNameLength - hash.length - 1)}_${hash}`
}

function globPattern(glob: string): RegExp {
  const escaped = glob
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.')
  return new RegExp(`^${escaped}$`)
}

/** A predicate for a filter: null lets everything through, [] nothing, else names and globs. */
export function compileFilter(filter: NameFilter | undefined): (name: string) => boolean {
  if (filter === null || filter === undefined) return () => true
  if (filter.length === 0) return () => false
  const exact = new Set(filter.filter((entry) => !/[*?]/.test(entry)))
  const globs = filter.filter((entry) => /[*?]/.test(entry)).map(globPattern)
  return (name) => exact.has(name) || globs.some((glob) => glob.test(name))
}
