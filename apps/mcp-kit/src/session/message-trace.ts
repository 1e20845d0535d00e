// `--trace-messages`: every JSON-RPC message of a session as a trace entry of its own,
// `{ts_ms, kind: "message", direction, server, message}`, beside the per-call entries (docs/architecture.md
// "Traces"). With --trace-redact-args, the values of a tools/call's arguments are not written.

export interface MessageTraceEntry {
  ts_ms: number
  kind: 'message'
  direction: 'sent' | 'received'
  server: string
  message: unknown
}

function redacted(message: unknown): unknown {
  const params = (message as { params?: { arguments?: unknown } }).params
  const args = params?.arguments
  if (typeof args !== 'object' || args === null) return message
  const names = Object.keys(args)
  return {
    ...(message as object),
    params: { ...params, arguments: Object.fromEntries(names.map((name) => [name, '[redacted]'])) },
  }
}

export function messageTraceEntry(
  direction: 'sent' | 'received',
  message: unknown,
  /** The server as traces name it (`traceServerName`). */
  server: string,
  redact: boolean,
): MessageTraceEntry {
  return {
    ts_ms: Date.now(),
    kind: 'message',
    direction,
    server,
    message: redact && direction === 'sent' ? redacted(message) : message,
  }
}
