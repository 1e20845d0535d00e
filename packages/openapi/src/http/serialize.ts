// Parameter values on the wire, as OpenAPI's `style` and `explode` say (RFC 6570 underneath):
// path `simple`/`label`/`matrix`, query `form`/`spaceDelimited`/`pipeDelimited`/`deepObject`,
// headers `simple`, cookies `form`. Every value is percent-encoded (RFC 3986 unreserved
// characters stay), so a value can neither add a path segment nor end the query; a path value of
// `.` or `..` is encoded too, so it cannot climb the API's path.

type Value = unknown

const reserved = /[:/?#[\]@!$&'()*+,;=]/

/** Percent-encodes everything but RFC 3986 unreserved characters (and reserved ones when allowed). */
export function encode(text: string, allowReserved = false): string {
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

function scalar(value: Value): string {
  if (value === null || value === undefined) return ''
  if (typeof value === 'object') return JSON.stringify(value)
  return String(value)
}

function entries(value: Value): Array<[string, Value]> {
  return Object.entries(value as Record<string, Value>).filter(([, item]) => item !== undefined)
}

function isObject(value: Value): value is Record<string, Value> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** A path parameter's value, encoded, to put in place of `{name}`. */
export function pathValue(name: string, value: Value, style: string, explode: boolean): string {
  const one = (item: Value) => {
    const text = scalar(item)
    return text === '.' || text === '..' ? text.replace(/\./g, '%2E') : encode(text)
  }
  if (style === 'label' || style === 'matrix') {
    const prefix = style === 'label' ? '.' : ';'
    const named = (key: string, item: Value) =>
      style === 'matrix' ? `${encode(key)}=${one(item)}` : one(item)
    if (Array.isArray(value)) {
      if (!explode) return `${style === 'matrix' ? `;${encode(name)}=` : '.'}${value.map(one).join(',')}`
      return value.map((item) => `${prefix}${style === 'matrix' ? named(name, item) : one(item)}`).join('')
    }
    if (isObject(value)) {
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
  if (isObject(value)) {
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
    if (style === 'spaceDelimited' && !explode) return `${key}=${value.map(one).join('%20')}`
    if (style === 'pipeDelimited' && !explode) return `${key}=${value.map(one).join('|')}`
    if (explode) return value.map((item) => `${key}=${one(item)}`).join('&')
    return `${key}=${value.map(one).join(',')}`
  }
  if (isObject(value)) {
    const delimiter = style === 'spaceDelimited' ? '%20' : style === 'pipeDelimited' ? '|' : undefined
    if (delimiter !== undefined && !explode) {
      return `${key}=${entries(value)
        .flatMap(([property, item]) => [encode(property), one(item)])
        .join(delimiter)}`
    }
    if (style === 'deepObject') {
      return entries(value)
        .map(([property, item]) => `${key}%5B${encode(property)}%5D=${one(item)}`)
        .join('&')
    }
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
  if (isObject(value)) {
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
