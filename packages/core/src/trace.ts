// One trace entry (docs/architecture.md "Traces"): the client's and the server's traces share the
// shape, so one NDJSON file can hold both sides of a conversation.

/** What was traced; `sampling` only on the client's side (a server's request answered). */
export type TraceKind = 'tool_call' | 'resource_read' | 'prompt_get' | 'sampling'

export interface TraceEntry {
  /** When the call started, in ms since the epoch. */
  ts_ms: number
  kind: TraceKind
  /** The tool or prompt name, or the resource URI; for `sampling`, `sampling/createMessage`. */
  name: string
  ok: boolean
  latency_ms: number
  error_code?: string
  error_message?: string
  /** The call's arguments (`{ uri }` for a resource read); for `sampling`, the request. */
  args: Record<string, unknown>
  /** Which server answered: its command line or URL (client), its `serverName` (server). */
  server: string
  /** `sampling`: the request that asked (e.g. `tools/call 'summarize'`), when the server said. */
  during?: string
  /** `sampling`: the model that answered. */
  model?: string
  /** `sampling`: why the model stopped (`endTurn`, `maxTokens`, `stopSequence`, `toolUse`, …). */
  stop_reason?: string
  /** `sampling`: the answer's content (left out when arguments are redacted). */
  answer?: unknown
  /** A gateway's upstream that served the call. */
  upstream?: string
  /** How long the upstream took, in ms (a gateway's call). */
  upstream_ms?: number
  /** How long the gateway itself took: latency_ms minus upstream_ms. */
  gateway_ms?: number
}

/** Replaces every argument value with "[redacted]", keeping the names. */
export function redactArguments(args: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.keys(args).map((name) => [name, '[redacted]']))
}
