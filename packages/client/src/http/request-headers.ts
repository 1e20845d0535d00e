// The headers of each Streamable HTTP request, per era: the caller's first, the transport's own winning
// (they follow its state or the body), names lower-cased so that no header goes out twice.

import { type Era, encodeHeaderValue, isRecord, mcpNameField } from '@mcp-kit/core'

export type RequestKind = 'post' | 'stream' | 'delete'

const traceHeaders = ['traceparent', 'tracestate'] as const

const ownHeaders = new Set([
  'accept',
  'content-type',
  'last-event-id',
  'mcp-method',
  'mcp-name',
  'mcp-protocol-version',
  'mcp-session-id',
])

export interface RequestHeadersInput {
  era: Era
  sessionId: string | undefined
  protocolVersion: string | undefined
  /** Header sets from callers, later ones winning. */
  caller: ReadonlyArray<Record<string, string> | undefined>
  /** The JSON-RPC message a POST carries. */
  message: Record<string, unknown> | undefined
  kind: RequestKind
}

export function requestHeaders(input: RequestHeadersInput): Record<string, string> {
  const headers: Record<string, string> = {}
  for (const set of input.caller) {
    for (const [name, value] of Object.entries(set ?? {})) {
      const key = name.toLowerCase()
      if (!ownHeaders.has(key)) headers[key] = value
    }
  }
  if (input.kind === 'post') {
    headers.accept = 'application/json, text/event-stream'
    headers['content-type'] = 'application/json'
  } else if (input.kind === 'stream') headers.accept = 'text/event-stream'
  const { message } = input
  if (input.protocolVersion !== undefined) headers['mcp-protocol-version'] = input.protocolVersion
  // W3C trace context travels in `_meta` and, for HTTP hops that read only headers, beside it.
  const meta = isRecord(message?.params) && isRecord(message.params._meta) ? message.params._meta : undefined
  for (const name of traceHeaders) {
    const value = meta?.[name]
    if (typeof value === 'string' && /^[\x20-\x7e]{1,512}$/.test(value)) headers[name] = value
  }
  if (input.era === 'legacy') {
    if (input.sessionId !== undefined) headers['mcp-session-id'] = input.sessionId
  } else if (message !== undefined && typeof message.method === 'string') {
    headers['mcp-method'] = message.method
    const field = mcpNameField(message.method)
    const params = isRecord(message.params) ? message.params : undefined
    const name = field === undefined ? undefined : params?.[field]
    if (typeof name === 'string') headers['mcp-name'] = encodeHeaderValue(name)
  }
  return headers
}
