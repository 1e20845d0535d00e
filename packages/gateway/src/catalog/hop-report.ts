// The upstream hop of a call, reported to a client that asks: one that declares the experimental
// capability `io.mcp-kit/upstream-hops` finds in each tool result's `_meta` which upstream answered,
// with which method and name, and how long the upstream took. Others get the result unchanged.

import type { HandlerContext } from '@mcp-kit/server'

/** The experimental client capability that asks for hop reports. */
export const hopCapability = 'io.mcp-kit/upstream-hops'
/** The `_meta` key of the report in a result. */
export const hopMetaKey = 'io.mcp-kit/upstream'

export interface HopReport {
  upstream: string
  method: string
  name: string
  latencyMs: number
}

export function wantsHops(context: HandlerContext): boolean {
  const experimental = (context.clientCapabilities as { experimental?: Record<string, unknown> } | undefined)
    ?.experimental
  return typeof experimental === 'object' && experimental !== null && hopCapability in experimental
}

/** The result with the hop in its `_meta` (a result that is not an object is returned as it is). */
export function withHop<T>(result: T, hop: HopReport): T {
  if (typeof result !== 'object' || result === null || Array.isArray(result)) return result
  const meta = (result as { _meta?: Record<string, unknown> })._meta
  return {
    ...result,
    _meta: { ...meta, [hopMetaKey]: { ...hop, latencyMs: Math.round(hop.latencyMs * 10) / 10 } },
  }
}
