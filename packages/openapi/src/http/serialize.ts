// Parameter values on the wire, as OpenAPI's `style` and `explode` say (RFC 6570 underneath):
// path `simple`/`label`/`matrix`, query (and form fields) `form`/`spaceDelimited`/
// `pipeDelimited`/`deepObject`, headers `simple`, cookies `form`. Every value is percent-encoded
// (RFC 3986 unreserved characters stay), so a value can neither add a path segment nor end the
// query; what could still change the path (a dot segment, a slash a server may decode) is
// refused in path.ts. `deepObject` nests as Stripe and `qs` do: `a[b][c]=v`, `a[0]=v`.

import { isRecord } from '@mcp-kit/core'

type Value = unknown

// Reserved characters `allowReserved` lets through; never `#`, which would end the URL's query.
const reserved = /[:/?[\]@!$&'()*+,;=]/

/** Percent-encodes everything but RFC 3986 unreserved characters (and reserved ones when allowed). */
export function encode(text: string, allowReserved = false): string {
  if (!allowReserved) {
    try {
      // The fast way; it leaves !'()* alone, which RFC 3986 reserves.
      return encodeURIComponent(text).replace(
        /[!'()*]/g,
        (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`,
      )
    } catch {
      // A lone surrogate: encoded byte by byte below (as U+FFFD).
    }
  }
  let out = ''
  for (const character of text) {
    if (/[A-Za-z0-9\-._~]/.test(character) || (allowReserved && reserved.test(character))) {
      out += character
    } else {
      for (const byte of Buffer.from(character, 'utf8'))
        out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`
    }
  }
  return out
}

/** A value as text: objects (deeper than a style describes) as JSON. */
export function scalar(value: Value): string {
  if (value === null || value === undefined) return ''
  if (typeof value === 'object') return JSON.stringify(value)
  return String(value)
}

function entries(value: Value): Array<[string, Value]> {
  return Object.entries(value as Record<string, Value>).filter(([, item]) => item !== undefined)
}

/** A path parameter's value, encoded, to put in place of `{name}`. */
export function pathValue(name: string, value: Value, style: string, explode: boolean): string {
  const one = (item: Value) => encode(scalar(item))
  if (style === 'label' || style === 'matrix') {
    const prefix = style === 'label' ? '.' : ';'
    const named = (key: string, item: Value) =>
      style === 'matrix' ? `${encode(key)}=${one(item)}` : one(item)
    if (Array.isArray(value)) {
      if (!explode) return `${style === 'matrix' ? `;${encode(name)}=` : '.'}${value.map(one).join(',')}`
      return value.map((item) => `${prefix}${style === 'matrix' ? named(name, item) : one(item)}`).join('')
    }
    if (isRecord(value)) {
      if (explode)
        return entries(value)
          .map(([key, item]) => `${prefix}${encode(key)}=${one(item)}`)
          .join('')
      const flat = entries(value)
        .flatMap(([key, item]) => [encode(key), one(item)])
        .join(',')
      return style === 'matrix' ? `;${encode(name)}=${flat}` : `.${flat}`
    }
    return style === 'matrix' ? `;${encode(name)}=${one(value)}` : `.${one(value)}`
  }
  return simple(value, explode, one)
}

function simple(value: Value, explode: boolean, one: (item: Value) => string): string {
  if (Array.isArray(value)) return value.map(one).join(',')
  if (isRecord(value)) {
    return entries(value)
      .map(([key, item]) => (explode ? `${encode(key)}=${one(item)}` : `${encode(key)},${one(item)}`))
      .join(',')
  }
  return one(value)
}

/** A query parameter as `name=value` pairs, encoded, joined with `&` ('' when it has none). */
export function queryPairs(
  name: string,
  value: Value,
  style: string,
  explode: boolean,
  allowReserved: boolean,
): string {
  const key = encode(name)
  const one = (item: Value) => encode(scalar(item), allowReserved)
  if (Array.isArray(value)) {
    if (value.length === 0) return ''
    if (style === 'deepObject') return deepPairs(key, value, allowReserved)
    if (style === 'spaceDelimited' && !explode) return `${key}=${value.map(one).join('%20')}`
    if (style === 'pipeDelimited' && !explode) return `${key}=${value.map(one).join('|')}`
    if (explode) return value.map((item) => `${key}=${one(item)}`).join('&')
    return `${key}=${value.map(one).join(',')}`
  }
  if (isRecord(value)) {
    const delimiter = style === 'spaceDelimited' ? '%20' : style === 'pipeDelimited' ? '|' : undefined
    if (delimiter !== undefined && !explode) {
      return `${key}=${entries(value)
        .flatMap(([property, item]) => [encode(property), one(item)])
        .join(delimiter)}`
    }
    if (style === 'deepObject') return deepPairs(key, value, allowReserved)
    if (explode)
      return entries(value)
        .map(([property, item]) => `${encode(property)}=${one(item)}`)
        .join('&')
    return `${key}=${entries(value)
      .flatMap(([property, item]) => [encode(property), one(item)])
      .join(',')}`
  }
  return `${key}=${one(value)}`
}

/** `key[a][b]=v` pairs of nested objects and arrays (arrays by index), `key=` for null. */
function deepPairs(key: string, value: Value, allowReserved: boolean): string {
  const pairs: string[] = []
  const walk = (prefix: string, item: Value, depth: number) => {
    if (item === undefined) return
    if (depth < 32 && (isRecord(item) || Array.isArray(item))) {
      const children = Array.isArray(item)
        ? item.map((child, index): [string, Value] => [String(index), child])
        : entries(item)
      for (const [name, child] of children) walk(`${prefix}%5B${encode(name)}%5D`, child, depth + 1)
      return
    }
    pairs.push(`${prefix}=${encode(scalar(item), allowReserved)}`)
  }
  walk(key, value, 0)
  return pairs.join('&')
}

/** A header parameter's value (`simple`; not percent-encoded but for characters a header cannot hold). */
export function headerValue(value: Value, explode: boolean): string {
  const one = (item: Value) =>
    scalar(item).replace(/[^\t\x20-\x7e\x80-\xff]/g, (character) => encode(character))
  return simple(value, explode, one)
}

/** A cookie parameter as `name=value` pairs joined with `; `. */
export function cookiePairs(name: string, value: Value, explode: boolean): string {
  const one = (item: Value) => encode(scalar(item))
  if (Array.isArray(value)) {
    return explode
      ? value.map((item) => `${encode(name)}=${one(item)}`).join('; ')
      : `${encode(name)}=${value.map(one).join(',')}`
  }
  if (isRecord(value)) {
    if (explode)
      return entries(value)
        .map(([key, item]) => `${encode(key)}=${one(item)}`)
        .join('; ')
    return `${encode(name)}=${entries(value)
      .flatMap(([key, item]) => [encode(key), one(item)])
      .join(',')}`
  }
  return `${encode(name)}=${one(value)}`
}
