// MCP 2026-07-28 `x-mcp-header`: tool parameters that Streamable HTTP mirrors into
// `Mcp-Param-{name}` headers, so intermediaries can route without parsing bodies. One module for
// both sides: the client finds and encodes the headers of a call; the server checks that the
// headers it received match the body. Also the value encoding shared with `Mcp-Name` (whose method
// table is headers.ts).

import { isRecord } from './values.js'

/** One annotated parameter: the header name part and the chain of `properties` keys to it. */
export interface ParamHeader {
  name: string
  path: readonly string[]
  type: 'string' | 'integer' | 'boolean'
}

export type ParamHeadersResult = { ok: true; headers: ParamHeader[] } | { ok: false; problem: string }

// RFC 9110 field-name token: 1*tchar.
const token = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/
const compositionKeywords = [
  'items',
  'prefixItems',
  'additionalProperties',
  'patternProperties',
  'oneOf',
  'anyOf',
  'allOf',
  'not',
  'if',
  'then',
  'else',
  '$defs',
  'definitions',
  'dependentSchemas',
  'contains',
  'unevaluatedProperties',
  'unevaluatedItems',
  'propertyNames',
]
const maximumDepth = 64
const noHeaders: ParamHeadersResult = Object.freeze({ ok: true, headers: [] }) as ParamHeadersResult
const cache = new WeakMap<object, ParamHeadersResult>()

function primitiveType(schema: Record<string, unknown>): ParamHeader['type'] | undefined {
  const type = schema.type
  return type === 'string' || type === 'integer' || type === 'boolean' ? type : undefined
}

/** True when `x-mcp-header` appears anywhere below `value` (where it is not allowed). */
function containsAnnotation(value: unknown, depth: number): boolean {
  if (depth > maximumDepth) return false
  if (Array.isArray(value)) return value.some((item) => containsAnnotation(item, depth + 1))
  if (!isRecord(value)) return false
  if ('x-mcp-header' in value) return true
  for (const key of Object.keys(value)) if (containsAnnotation(value[key], depth + 1)) return true
  return false
}

/**
 * The `x-mcp-header` parameters of a tool's inputSchema, or the reason the annotations make the
 * tool invalid (spec: server/tools "x-mcp-header" constraints). Cached per schema object.
 */
export function findParamHeaders(inputSchema: unknown): ParamHeadersResult {
  if (!isRecord(inputSchema)) return noHeaders
  const cached = cache.get(inputSchema)
  if (cached !== undefined) return cached
  const result = scan(inputSchema)
  cache.set(inputSchema, result)
  return result
}

function scan(root: Record<string, unknown>): ParamHeadersResult {
  if (!containsAnnotation(root, 0)) return noHeaders
  const headers: ParamHeader[] = []
  const seen = new Set<string>()
  const visit = (schema: Record<string, unknown>, path: string[]): string | undefined => {
    for (const keyword of compositionKeywords) {
      if (keyword in schema && containsAnnotation(schema[keyword], 0)) {
        return `x-mcp-header is only allowed on properties reachable through 'properties' (found under '${keyword}' at ${path.join('.') || 'the root'})`
      }
    }
    if ('$ref' in schema && path.length > 0 && 'x-mcp-header' in schema) {
      return `x-mcp-header cannot be combined with $ref (at ${path.join('.')})`
    }
    if ('x-mcp-header' in schema) {
      if (path.length === 0) return 'x-mcp-header cannot annotate the schema root'
      const name = schema['x-mcp-header']
      const where = path.join('.')
      if (typeof name !== 'string' || name === '')
        return `x-mcp-header at ${where} must be a non-empty string`
      if (!token.test(name)) return `x-mcp-header ${JSON.stringify(name)} at ${where} is not an HTTP token`
      const folded = name.toLowerCase()
      if (seen.has(folded)) return `x-mcp-header ${JSON.stringify(name)} is used twice`
      seen.add(folded)
      const type = primitiveType(schema)
      if (type === undefined) {
        return `x-mcp-header at ${where} must annotate a string, integer or boolean parameter`
      }
      headers.push({ name, path: [...path], type })
    }
    const properties = schema.properties
    if (properties !== undefined) {
      if (!isRecord(properties)) return undefined
      for (const key of Object.keys(properties)) {
        const child = properties[key]
        if (!isRecord(child)) continue
        if (path.length >= maximumDepth) return 'x-mcp-header is nested too deeply'
        const problem = visit(child, [...path, key])
        if (problem !== undefined) return problem
      }
    }
    return undefined
  }
  const problem = visit(root, [])
  if (problem !== undefined) return { ok: false, problem }
  return { ok: true, headers }
}

/** The value at `path` in the call arguments, or undefined when absent (or null). */
export function valueAtPath(args: unknown, path: readonly string[]): unknown {
  let value: unknown = args
  for (const key of path) {
    if (!isRecord(value) || !Object.hasOwn(value, key)) return undefined
    value = value[key]
  }
  return value === null ? undefined : value
}

const sentinelPrefix = '=?base64?'
const sentinelSuffix = '?='
// Visible ASCII and space/tab, with no leading or trailing whitespace.
const plainHeaderValue = /^[\x21-\x7e](?:[\x20-\x7e\t]*[\x21-\x7e])?$/

/** Encodes a header value as the spec says: plain when safe, else `=?base64?…?=` of its UTF-8. */
export function encodeHeaderValue(text: string): string {
  const plain =
    plainHeaderValue.test(text) && !(text.startsWith(sentinelPrefix) && text.endsWith(sentinelSuffix))
  return plain ? text : `${sentinelPrefix}${Buffer.from(text, 'utf8').toString('base64')}${sentinelSuffix}`
}

/** Decodes a header value (the base64 sentinel form or plain), or undefined when it is malformed. */
export function decodeHeaderValue(value: string): string | undefined {
  if (value.startsWith(sentinelPrefix) && value.endsWith(sentinelSuffix)) {
    const encoded = value.slice(sentinelPrefix.length, value.length - sentinelSuffix.length)
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(encoded) || encoded.length % 4 !== 0) return undefined
    const text = Buffer.from(encoded, 'base64').toString('utf8')
    return text.includes('\ufffd') ? undefined : text
  }
  return /^[\x20-\x7e\t]*$/.test(value) ? value : undefined
}

/** The header text of an argument value, or undefined when the value's type cannot be mirrored. */
export function headerText(value: unknown, type: ParamHeader['type']): string | undefined {
  if (type === 'string') return typeof value === 'string' ? value : undefined
  if (type === 'boolean') return typeof value === 'boolean' ? String(value) : undefined
  return typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : undefined
}

/** `Mcp-Param-*` headers for a call's arguments (header names in their canonical case). */
export function paramHeadersFor(headers: readonly ParamHeader[], args: unknown): Record<string, string> {
  const out: Record<string, string> = {}
  for (const header of headers) {
    const text = headerText(valueAtPath(args, header.path), header.type)
    if (text !== undefined) out[`Mcp-Param-${header.name}`] = encodeHeaderValue(text)
  }
  return out
}

/**
 * Checks received `Mcp-Param-*` headers against a call's arguments; undefined when they agree,
 * else a one-line reason (the server answers -32020 HeaderMismatch). `received` looks a header
 * up by lower-case name.
 */
export function paramHeaderMismatch(
  headers: readonly ParamHeader[],
  args: unknown,
  received: (lowerCaseName: string) => string | undefined,
): string | undefined {
  for (const header of headers) {
    const headerName = `Mcp-Param-${header.name}`
    const raw = received(headerName.toLowerCase())
    const value = valueAtPath(args, header.path)
    // A value of the wrong type fails the inputSchema anyway; clients omit its header.
    if (value === undefined || headerText(value, header.type) === undefined) {
      if (raw !== undefined) return `${headerName} is present but the argument is not`
      continue
    }
    if (raw === undefined) return `${headerName} header is required for argument '${header.path.join('.')}'`
    const decoded = decodeHeaderValue(raw)
    if (decoded === undefined) return `${headerName} header value is not validly encoded`
    if (header.type === 'integer') {
      if (decoded.trim() === '' || Number(decoded) !== value)
        return `${headerName} header value does not match the argument`
    } else if (decoded !== headerText(value, header.type)) {
      return `${headerName} header value does not match the argument`
    }
  }
  return undefined
}
