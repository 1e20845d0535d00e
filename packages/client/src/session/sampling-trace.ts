// Sampling in the trace (docs/architecture.md "Traces"): each answer the client's `input.sample`
// gives (or fails to give) becomes one `sampling` entry, whichever era and path asked it.

import { ClientError } from '../errors.js'
import type { InputHandler } from '../protocol/input.js'
import { redactArguments, type TraceEntry, type TraceOptions } from './trace.js'

/** `handler` with its `sample` traced; the handler itself when there is nothing to trace. */
export function traceSampling(
  handler: InputHandler | undefined,
  options: TraceOptions,
  server: string,
): InputHandler | undefined {
  const onTrace = options.onTrace
  const sample = handler?.sample
  if (handler === undefined || sample === undefined || onTrace === undefined) return handler
  return {
    elicit: handler.elicit?.bind(handler),
    elicitationModes: handler.elicitationModes,
    roots: handler.roots?.bind(handler),
    samplingTools: handler.samplingTools,
    async sample(request, context) {
      const started = Date.now()
      const startedPrecise = performance.now()
      const params = request as unknown as Record<string, unknown>
      const entry = (ok: boolean): TraceEntry => ({
        ts_ms: started,
        kind: 'sampling',
        name: 'sampling/createMessage',
        ok,
        latency_ms: Math.round((performance.now() - startedPrecise) * 1000) / 1000,
        args: options.redactTraceArguments ? redactArguments(params) : params,
        server,
        ...(context.during === undefined ? {} : { during: context.during }),
      })
      try {
        const result = await sample.call(handler, request, context)
        const traced = entry(true)
        if (typeof result?.model === 'string') traced.model = result.model
        if (typeof result?.stopReason === 'string') traced.stop_reason = result.stopReason
        if (!options.redactTraceArguments) traced.answer = result?.content
        onTrace(traced)
        return result
      } catch (error) {
        // An mcp-kit error of any package (the answerer's own included) keeps its code.
        const code = ClientError.isInstance(error) ? error.code : (error as { code?: unknown })?.code
        onTrace({
          ...entry(false),
          error_code: typeof code === 'string' ? code : 'internal',
          error_message: (error as Error)?.message ?? String(error),
        })
        throw error
      }
    },
  }
}
