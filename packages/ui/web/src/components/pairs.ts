// The timeline's rows as pairs: a request with its response (either way), a notification on its
// own, a per-call trace entry as a span; and the upstream hop a gateway reported in `_meta`.

import type { TimelineRow } from '../types.ts'

/** The `_meta` key under which an mcp-kit gateway reports a call's upstream hop. */
export const hopKey = 'io.mcp-kit/upstream'

export interface Hop {
  upstream: string
  method: string
  name?: string
  latencyMs: number
}

export interface Pair {
  key: string
  serverId: string
  server: string
  kind: 'request' | 'server-request' | 'notification' | 'call'
  method: string
  name: string
  start: number
  end?: number
  request?: unknown
  response?: unknown
  error: boolean
  hop?: Hop
  /** Between the page and an MCP App view, not the server. */
  app?: boolean
}

type Message = Record<string, unknown>

function nameOf(params: unknown): string {
  const value = (params ?? {}) as Record<string, unknown>
  for (const key of ['name', 'uri', 'ref']) if (typeof value[key] === 'string') return value[key] as string
  return ''
}

function hopOf(response: Message): Hop | undefined {
  const meta = (response.result as { _meta?: Record<string, unknown> } | undefined)?._meta
  const hop = meta?.[hopKey] as Hop | undefined
  return hop && typeof hop.upstream === 'string' && typeof hop.latencyMs === 'number' ? hop : undefined
}

export function pairRows(rows: readonly TimelineRow[]): Pair[] {
  const pairs: Pair[] = []
  const open = new Map<string, Pair>()
  for (const row of rows) {
    if ('call' in row) {
      const call = row.call
      const latency = typeof call.latency_ms === 'number' ? call.latency_ms : 0
      pairs.push({
        key: `${row.serverId}:${row.seq}`,
        serverId: row.serverId,
        server: row.server,
        kind: 'call',
        method: String(call.kind ?? 'call'),
        name: String(call.name ?? ''),
        start: row.ts - latency,
        end: row.ts,
        request: call,
        error: call.ok === false,
      })
      continue
    }
    const message = (row.message ?? {}) as Message
    // A view's ids are its own: its messages pair apart from the server's.
    const channel = row.channel === 'app' ? 'app|' : ''
    const app = row.channel === 'app' ? { app: true } : {}
    const method = typeof message.method === 'string' ? message.method : undefined
    const hasId = message.id !== undefined && message.id !== null
    if (method !== undefined && hasId) {
      const pair: Pair = {
        key: `${row.serverId}:${row.seq}`,
        serverId: row.serverId,
        server: row.server,
        kind: row.direction === 'sent' ? 'request' : 'server-request',
        method,
        name: nameOf(message.params),
        start: row.ts,
        request: message,
        error: false,
        ...app,
      }
      open.set(`${channel}${row.serverId}|${row.direction}|${String(message.id)}`, pair)
      pairs.push(pair)
    } else if (method !== undefined) {
      pairs.push({
        key: `${row.serverId}:${row.seq}`,
        serverId: row.serverId,
        server: row.server,
        kind: 'notification',
        method,
        name: nameOf(message.params),
        start: row.ts,
        request: message,
        error: false,
        ...app,
      })
    } else if (hasId) {
      const asked = row.direction === 'received' ? 'sent' : 'received'
      const key = `${channel}${row.serverId}|${asked}|${String(message.id)}`
      const pair = open.get(key)
      if (pair === undefined) continue
      open.delete(key)
      pair.end = row.ts
      pair.response = message
      pair.error =
        message.error !== undefined || (message.result as { isError?: boolean } | undefined)?.isError === true
      const hop = hopOf(message)
      if (hop) pair.hop = hop
    }
  }
  return pairs
}
