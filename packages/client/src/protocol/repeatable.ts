// Which requests may go out a second time when their connection closed before any answer (the HTTP
// transports resend them once on a new connection): those that change nothing on the server, and a
// tools/call whose tool says a second call does no more (docs/architecture.md "Errors").

/** Requests that only read: the handshakes, the lists, reads, prompts, completions, ping. */
const readOnlyMethods: ReadonlySet<string> = new Set([
  'initialize',
  'server/discover',
  'ping',
  'tools/list',
  'resources/list',
  'resources/templates/list',
  'prompts/list',
  'tasks/list',
  'resources/read',
  'prompts/get',
  'completion/complete',
])

/**
 * True when a request of `method` is safe to send twice. A tools/call is only when the caller
 * vouches for its tool (`toolRepeatable`, from `toolIsRepeatable` on the tool it listed); a tool
 * the session does not know is not.
 */
export function isRepeatable(method: string, toolRepeatable = false): boolean {
  return readOnlyMethods.has(method) || (method === 'tools/call' && toolRepeatable)
}

/** A tool annotated `idempotentHint: true` or `readOnlyHint: true`: calling it twice does no more than once. */
export function toolIsRepeatable(tool: { annotations?: unknown } | undefined): boolean {
  const annotations = tool?.annotations as { idempotentHint?: unknown; readOnlyHint?: unknown } | undefined
  return annotations?.idempotentHint === true || annotations?.readOnlyHint === true
}
