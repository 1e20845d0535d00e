// Turns a case recipe (cases.js) into bytes: the message with its structural damage, serialized
// with the values JSON.stringify cannot write (numbers past double range, nesting deeper than
// our own stack) spliced in as text, then the byte-level damage; the headers each era expects,
// then the case's header damage; and the wire chunks for its transport mode.

import { modernVersion } from './cases.js'

const deepMarker = '"__DEEP__"'
const markerPattern = /"__(NUM|WIDE):([^"_]+)__"/g
const longPattern = /__LONG:(\d+)__/g

/** A deep copy of JSON data (recipes are JSON). */
function copy(value) {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value))
}

function isObject(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** Sets an own property, even `__proto__`, so JSON.stringify writes it. */
function setOwn(target, key, value) {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true })
}

/**
 * The message text with the structural mutation applied.
 * @param {unknown} message
 * @param {{ type: string, [key: string]: unknown }} mutation
 */
export function serialize(message, mutation = { type: 'none' }) {
  const value = copy(message)
  let deep
  if (isObject(value)) {
    const params = isObject(value.params) ? value.params : undefined
    switch (mutation.type) {
      case 'replace':
        setOwn(value, mutation.field, copy(mutation.value))
        break
      case 'drop':
        delete value[mutation.field]
        break
      case 'add':
        setOwn(value, mutation.field, copy(mutation.value))
        break
      case 'deep':
        deep = mutation
        if (params !== undefined) params.arguments = '__DEEP__'
        else value.params = '__DEEP__'
        break
      case 'long':
        if (params !== undefined) params.arguments = { message: `__LONG:${mutation.length}__` }
        else value.method = `__LONG:${mutation.length}__`
        break
      case 'wide':
        if (params !== undefined) params.arguments = `__WIDE:${mutation.count}__`
        else value.params = `__WIDE:${mutation.count}__`
        break
      case 'params-type':
        value.params = copy(mutation.value)
        break
    }
  }
  let text = JSON.stringify(value) ?? 'null'
  text = text.replace(markerPattern, (_match, kind, argument) => {
    if (kind === 'NUM') return argument
    const count = Number(argument)
    return `{${Array.from({ length: count }, (_, index) => `"k${index}":${index}`).join(',')}}`
  })
  text = text.replace(longPattern, (_match, length) => 'a'.repeat(Number(length)))
  if (deep !== undefined) {
    const depth = Number(deep.depth)
    const nested =
      deep.bracket === '['
        ? `${'['.repeat(depth)}${']'.repeat(depth)}`
        : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`
    text = text.replace(deepMarker, nested)
  }
  return text
}

/**
 * The body bytes with the byte-level mutation applied.
 * @param {string} text
 * @param {{ type: string, [key: string]: unknown }} mutation
 */
export function damage(text, mutation = { type: 'none' }) {
  let bytes = Buffer.from(text, 'utf8')
  const at = (fraction) => Math.min(bytes.length, Math.floor(Number(fraction) * bytes.length))
  switch (mutation.type) {
    case 'truncate':
      bytes = bytes.subarray(0, at(mutation.at))
      break
    case 'invalid-utf8': {
      const position = at(mutation.at)
      bytes = Buffer.concat([
        bytes.subarray(0, position),
        Buffer.from(mutation.bytes),
        bytes.subarray(position),
      ])
      break
    }
    case 'bom':
      bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), bytes])
      break
    case 'trailing':
      bytes = Buffer.concat([bytes, Buffer.from(String(mutation.text), 'utf8')])
      break
    case 'duplicate-key':
      if (text.startsWith('{') && text.length > 2) {
        bytes = Buffer.from(
          `{${JSON.stringify(mutation.key)}:${JSON.stringify(mutation.value) ?? 'null'},${text.slice(1)}`,
        )
      }
      break
    case 'whitespace':
      bytes = Buffer.from(`${mutation.text}${text}${mutation.text}`, 'utf8')
      break
    case 'replace-byte':
      if (bytes.length > 0) {
        bytes = Buffer.from(bytes)
        bytes[Math.min(bytes.length - 1, at(mutation.at))] = Number(mutation.byte)
      }
      break
  }
  return bytes
}

const sentinelPrefix = '=?base64?'
const sentinelSuffix = '?='

/** A header value as the 2026-07-28 spec encodes it: plain when it is safe, else base64 of its UTF-8. */
export function encodeHeaderValue(text) {
  const plain =
    /^[\x21-\x7e](?:[\x20-\x7e\t]*[\x21-\x7e])?$/.test(text) &&
    !(text.startsWith(sentinelPrefix) && text.endsWith(sentinelSuffix))
  return plain ? text : `${sentinelPrefix}${Buffer.from(text, 'utf8').toString('base64')}${sentinelSuffix}`
}

const acceptValues = {
  both: 'application/json, text/event-stream',
  'sse-first': 'text/event-stream, application/json',
  json: 'application/json',
  sse: 'text/event-stream',
  other: 'text/html',
}

/** The headers a well-behaved 2026-07-28 client sends with `message`. */
export function modernHeaders(message, accept) {
  const headers = [
    ['accept', acceptValues[accept] ?? acceptValues.both],
    ['mcp-protocol-version', modernVersion],
  ]
  if (!isObject(message) || typeof message.method !== 'string') return headers
  headers.push(['mcp-method', message.method])
  const params = isObject(message.params) ? message.params : {}
  const named = new Map([
    ['tools/call', 'name'],
    ['prompts/get', 'name'],
    ['resources/read', 'uri'],
  ]).get(message.method)
  if (named !== undefined && typeof params[named] === 'string') {
    headers.push(['mcp-name', encodeHeaderValue(params[named])])
  }
  if (message.method === 'tools/call' && params.name === 'routed' && isObject(params.arguments)) {
    const { region, priority, dry } = params.arguments
    if (typeof region === 'string') headers.push(['mcp-param-region', encodeHeaderValue(region)])
    if (typeof priority === 'number' && Number.isSafeInteger(priority))
      headers.push(['mcp-param-priority', String(priority)])
    if (typeof dry === 'boolean') headers.push(['mcp-param-dry', String(dry)])
  }
  return headers
}

/** The headers of a 2025-era request in a session. */
export function legacyHeaders({ accept, sessionId, version }) {
  const headers = [['accept', acceptValues[accept] ?? acceptValues.both]]
  if (sessionId !== undefined) headers.push(['mcp-session-id', sessionId])
  if (version !== undefined) headers.push(['mcp-protocol-version', version])
  return headers
}

/**
 * Applies header damage: drop every header of a name, set one (replacing), or add another.
 * @param {[string, string][]} headers
 * @param {{ op: string, name: string, value?: string }[]} mutations
 */
export function mutateHeaders(headers, mutations = []) {
  let result = [...headers]
  for (const mutation of mutations) {
    const name = mutation.name.toLowerCase()
    if (mutation.op === 'drop') result = result.filter(([existing]) => existing.toLowerCase() !== name)
    else if (mutation.op === 'set') {
      result = result.filter(([existing]) => existing.toLowerCase() !== name)
      result.push([mutation.name, String(mutation.value ?? '')])
    } else result.push([mutation.name, String(mutation.value ?? '')])
  }
  return result
}

function headText(method, path, headers, version = '1.1') {
  const lines = [`${method} ${path} HTTP/${version}`, ...headers.map(([name, value]) => `${name}: ${value}`)]
  return Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1')
}

function chunkedBody(body, pieces) {
  const parts = []
  const size = Math.max(1, Math.ceil(body.length / Math.max(1, pieces)))
  for (let start = 0; start < body.length; start += size) {
    const part = body.subarray(start, start + size)
    parts.push(Buffer.from(`${part.length.toString(16)}\r\n`), part, Buffer.from('\r\n'))
  }
  parts.push(Buffer.from('0\r\n\r\n'))
  return Buffer.concat(parts)
}

/**
 * The wire chunks of one request: its head (with Content-Length from the body, then the case's
 * header damage, which may drop it or lie) and body, cut, delayed, chunk-encoded or half-closed
 * as the wire mode says.
 * @param {object} request
 * @param {string} request.method
 * @param {string} request.path
 * @param {[string, string][]} request.headers
 * @param {{ op: string, name: string, value?: string }[]} [request.mutations]
 * @param {Buffer | undefined} request.body
 * @param {{ type: string, [key: string]: unknown }} [request.wire]
 * @returns {{ chunks: { bytes: Buffer, delayMs?: number }[], halfClose: boolean, method: string }}
 */
export function wireChunks({ method, path, headers, mutations = [], body, wire = { type: 'normal' } }) {
  const bytes = body ?? Buffer.alloc(0)
  const sendsBody = body !== undefined && (method !== 'GET' || bytes.length > 0)
  const withoutLength = headers.filter(([name]) => name.toLowerCase() !== 'content-length')
  const finalHeaders = (length, extra = []) =>
    mutateHeaders(
      [...withoutLength, ...(length === undefined ? [] : [['content-length', String(length)]]), ...extra],
      mutations,
    )
  const head = (list, version = '1.1') => headText(method, path, list, version)
  const result = (chunks, halfClose = false) => ({ chunks, halfClose, method })
  const chunked = () => finalHeaders(undefined, [['transfer-encoding', 'chunked']])
  switch (wire.type) {
    case 'split': {
      const all = Buffer.concat([head(finalHeaders(sendsBody ? bytes.length : undefined)), bytes])
      const size = Math.ceil(all.length / Number(wire.pieces))
      const chunks = []
      for (let start = 0; start < all.length; start += size) {
        chunks.push({
          bytes: all.subarray(start, start + size),
          delayMs: start === 0 ? 0 : Number(wire.delayMs),
        })
      }
      return result(chunks)
    }
    case 'chunked':
      return result([{ bytes: Buffer.concat([head(chunked()), chunkedBody(bytes, Number(wire.pieces))]) }])
    case 'chunked-bad': {
      let encoded
      if (wire.variant === 'size')
        encoded = Buffer.concat([Buffer.from('zz\r\n'), bytes, Buffer.from('\r\n0\r\n\r\n')])
      else if (wire.variant === 'extension')
        encoded = Buffer.concat([
          Buffer.from(`${bytes.length.toString(16)};ext="1"\r\n`),
          bytes,
          Buffer.from('\r\n0\r\n\r\n'),
        ])
      else
        encoded = Buffer.concat([Buffer.from(`${bytes.length.toString(16)}\r\n`), bytes, Buffer.from('\r\n')])
      return result(
        [{ bytes: Buffer.concat([head(chunked()), encoded]) }],
        wire.variant === 'no-terminator-fin',
      )
    }
    case 'length-short':
      return result([
        { bytes: Buffer.concat([head(finalHeaders(Math.max(0, bytes.length - Number(wire.by)))), bytes]) },
      ])
    case 'length-long':
      return result(
        [{ bytes: Buffer.concat([head(finalHeaders(bytes.length + Number(wire.by))), bytes]) }],
        wire.fin === true,
      )
    case 'head-only': {
      const all = head(finalHeaders(sendsBody ? bytes.length : undefined))
      return result([{ bytes: all.subarray(0, Math.floor(Number(wire.cut) * all.length)) }], true)
    }
    case 'smuggle':
      return result([
        {
          bytes: Buffer.concat([head(finalHeaders(bytes.length, [['transfer-encoding', 'chunked']])), bytes]),
        },
      ])
    case 'http10':
      return result([
        { bytes: Buffer.concat([head(finalHeaders(sendsBody ? bytes.length : undefined), '1.0'), bytes]) },
      ])
    case 'expect-continue':
      return result([
        { bytes: head(finalHeaders(bytes.length, [['expect', '100-continue']])) },
        { bytes, delayMs: 20 },
      ])
    default:
      return result([
        { bytes: Buffer.concat([head(finalHeaders(sendsBody ? bytes.length : undefined)), bytes]) },
      ])
  }
}
