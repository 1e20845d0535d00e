// The W3C trace context a request carries (https://www.w3.org/TR/trace-context/): in its
// `_meta` (`traceparent`, `tracestate`, as the OpenTelemetry MCP conventions put them) or, over
// HTTP, in the headers of the same names. `_meta` wins: it travels with the message through any
// transport. A malformed value is ignored, as the W3C text says a receiver should.

import type { TraceContext } from '../context.js'

const traceparentPattern = /^[0-9a-f]{2}-([0-9a-f]{32})-([0-9a-f]{16})-[0-9a-f]{2}$/
const allZeros = /^0+$/
/** W3C: at most 32 list members of at most 256 characters; more is cut rather than carried. */
const maximumTracestateLength = 512

/** The `traceparent` when it is well formed (lower-case hex, non-zero ids, not version ff). */
export function validTraceparent(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined
  const match = traceparentPattern.exec(value)
  if (match === null || value.startsWith('ff')) return undefined
  if (allZeros.test(match[1] as string) || allZeros.test(match[2] as string)) return undefined
  return value
}

/** The trace context of a request: `_meta`'s, else the headers'. */
export function traceContextOf(
  meta: Record<string, unknown> | undefined,
  header: ((name: string) => string | undefined) | undefined,
): TraceContext | undefined {
  const fromMeta = validTraceparent(meta?.traceparent)
  const traceparent = fromMeta ?? validTraceparent(header?.('traceparent'))
  if (traceparent === undefined) return undefined
  const state = fromMeta === undefined ? header?.('tracestate') : meta?.tracestate
  return typeof state === 'string' && state !== '' && state.length <= maximumTracestateLength
    ? { traceparent, tracestate: state }
    : { traceparent }
}
