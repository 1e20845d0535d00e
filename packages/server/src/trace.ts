// Trace entries (docs/architecture.md "Traces"): one per tool call, resource read and prompt get, with the
// same shape as the client's, so one NDJSON file can hold both sides of a conversation.

export type TraceKind = 'tool_call' | 'resource_read' | 'prompt_get'

export interface TraceEntry {
  /** When the call started, in ms since the epoch. */
  ts_ms: number
  kind: TraceKind
  /** Tool or prompt name, or the resource URI. */
  name: string
  ok: boolean
  latency_ms: number
  error_code?: string
  error_message?: string
  /** Tool or prompt arguments, or `{ uri }` for a resource read. */
  args: Record<string, unknown>
  /** Which server answered (the runtime's `serverName`). */
  server: string
  /** A gateway's upstream that served the call. */
  upstream?: string
  /** How long the upstream took, in ms (a gateway's call). */
  upstream_ms?: number
  /** How long the gateway itself took: latency_ms minus upstream_ms. */
  gateway_ms?: number
}

/** What a handler may add to its trace entry (HandlerContext.annotateTrace). */
export interface TraceAnnotations {
  upstream?: string
  upstream_ms?: number
}

/** Replaces every argument value with "[redacted]", keeping the names. */
export function redactArguments(args: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.keys(args).map((name) => [name, '[redacted]']))
}
