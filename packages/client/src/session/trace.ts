// Trace entries (docs/architecture.md "Traces"), written around each call by `traced`. Secrets are never
// written: env and header values and URL queries do not appear, and argument values can be redacted.

import { redactArguments, type TraceEntry, type TraceKind } from '@mcp-kit/core'
import { ClientError } from '../errors.js'
import type { ServerSpec } from '../server-spec.js'

export type { TraceEntry, TraceKind }

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

export { redactArguments }

/** What `traced` reads of a session's options. */
export interface TraceOptions {
  onTrace: ((entry: TraceEntry) => void) | undefined
  redactTraceArguments: boolean
}

/** Runs `run`; with `options.onTrace` set, writes one entry for it (failed by `failureOf` or a throw). */
export async function traced<T>(
  options: TraceOptions,
  server: ServerSpec,
  kind: TraceKind,
  name: string,
  args: Record<string, unknown>,
  run: () => Promise<T>,
  failureOf: (result: T) => { code: string; message: string } | undefined = () => undefined,
): Promise<T> {
  const onTrace = options.onTrace
  if (!onTrace) return run()
  const started = Date.now()
  const startedPrecise = performance.now()
  const entry = (ok: boolean, failure?: { code: string; message: string }): TraceEntry => {
    const result: TraceEntry = {
      ts_ms: started,
      kind,
      name,
      ok,
      latency_ms: Math.round((performance.now() - startedPrecise) * 1000) / 1000,
      args: options.redactTraceArguments && kind !== 'resource_read' ? redactArguments(args) : args,
      server: traceServerName(server),
    }
    if (failure) {
      result.error_code = failure.code
      result.error_message = failure.message
    }
    return result
  }
  try {
    const result = await run()
    const failure = failureOf(result)
    onTrace(entry(failure === undefined, failure))
    return result
  } catch (error) {
    const failure = ClientError.isInstance(error) ? error : new ClientError('internal', String(error))
    onTrace(entry(false, { code: failure.code, message: failure.message }))
    throw error
  }
}
