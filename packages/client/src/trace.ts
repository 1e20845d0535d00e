// Trace entries (DESIGN.md "Traces"): one per tool call, resource read and prompt get. Secrets
// are never written: env and header values do not appear, URL queries are dropped, and argument
// values can be redacted too.

import type { ServerSpec } from './server-spec.js'

export type TraceKind = 'tool_call' | 'resource_read' | 'prompt_get'

export interface TraceEntry {
  ts_ms: number
  kind: TraceKind
  name: string
  ok: boolean
  latency_ms: number
  error_code?: string
  error_message?: string
  args: Record<string, unknown>
  server: string
}

/** How a server is named in traces: its command line, or its URL without query or credentials. */
export function traceServerName(server: ServerSpec): string {
  if (server.transport === 'stdio') return [server.command, ...server.args].join(' ')
  try {
    const url = new URL(server.url)
    return `${url.origin}${url.pathname}`
  } catch {
    return '(invalid url)'
  }
}

/** Replaces every argument value with "[redacted]", keeping the names. */
export function redactArguments(args: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.keys(args).map((name) => [name, '[redacted]']))
}
