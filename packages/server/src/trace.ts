// Trace entries (docs/architecture.md "Traces"): one per tool call, resource read and prompt get, with the
// same shape as the client's (@mcp-kit/core's), so one NDJSON file can hold both sides of a conversation.

import type { TraceEntry as SharedTraceEntry, TraceKind as SharedTraceKind } from '@mcp-kit/core'

/** What a server traces: a tool call, a resource read or a prompt get. */
export type TraceKind = Exclude<SharedTraceKind, 'sampling'>

/** One entry, of the shape the client's entries have (@mcp-kit/core's), for a server-side call. */
export interface TraceEntry extends SharedTraceEntry {
  kind: TraceKind
}

/** What a handler may add to its trace entry (HandlerContext.annotateTrace). */
export interface TraceAnnotations {
  upstream?: string
  upstream_ms?: number
}
