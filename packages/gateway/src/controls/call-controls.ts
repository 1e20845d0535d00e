// The operator's controls around each relayed call, in the order a call meets them: the policy
// (a denied item answers as a missing one, so a caller learns nothing of what it may not see),
// the rate limits and the upstream's concurrency cap (refused with `rateLimitedCode` and when to
// retry), then the call itself inside its trace spans, then the metrics and the audit record.
// With no controls on, a call goes straight to the upstream with the caller's trace context.

import { rpcCodes } from '@mcp-kit/core'
import { type HandlerContext, principalOf, RpcFailure, ServerError, type TraceContext } from '@mcp-kit/server'
import type { AuditLog, AuditRecord } from '../audit/audit-log.js'
import { redact } from '../audit/redact.js'
import type { Limiter, LimitRefusal } from '../limits/limiter.js'
import type { Policy } from '../policy/policy.js'
import type { PolicyItem } from '../policy/policy-types.js'
import { tokenName } from '../policy/principal.js'
import type { GatewayMetrics } from '../telemetry/prometheus.js'
import type { CallTrace, GatewayTracing } from '../telemetry/tracing.js'

/** The JSON-RPC error code of a call refused by a rate limit or concurrency cap. */
export const rateLimitedCode = rpcCodes.rateLimited

/** What a gateway applies to its calls now; replaced whole on reload. */
export interface CallControls {
  policy?: Policy | undefined
  limiter?: Limiter | undefined
  audit?: { log: AuditLog; arguments: boolean; results: boolean } | undefined
  metrics?: GatewayMetrics | undefined
  tracing?: GatewayTracing | undefined
}

/** The controls in force, swapped at once by a reload (calls in flight finish under the old ones). */
export interface ControlsHolder {
  current: CallControls | undefined
}

/** A relayed item, as the controls see it. */
export interface ControlledItem extends PolicyItem {
  method: 'tools/call' | 'resources/read' | 'prompts/get'
  /** The upstream's own name for it (the upstream span's target). */
  original: string
}

type Outcome = AuditRecord['outcome']

/** The refusal of a denied item: the very error a missing one gets. */
function denial(item: ControlledItem, target: string): Error {
  if (item.kind === 'tool') return new RpcFailure(rpcCodes.invalidParams, `Unknown tool: ${target}`)
  if (item.kind === 'prompt')
    return new ServerError('prompt_not_found', `Unknown prompt: ${target}`, { details: { prompt: target } })
  return new ServerError('resource_not_found', `Resource not found: ${target}`, { details: { uri: target } })
}

function limited(refusal: LimitRefusal): RpcFailure {
  const seconds = Math.ceil(refusal.retryAfterMs / 1000)
  return new RpcFailure(
    rateLimitedCode,
    `Rate limited: ${refusal.description}; retry in ${(refusal.retryAfterMs / 1000).toFixed(1)} s`,
    {
      data: { retryAfterMs: refusal.retryAfterMs, retryAfter: seconds, limit: refusal.limit },
    },
  )
}

/** An error's code for metrics and audit: the JSON-RPC code, or the ServerError's. */
function codeOf(error: unknown): number | string {
  if (error instanceof RpcFailure) return error.code
  if (ServerError.isInstance(error)) return error.code
  const rpc = (error as { code?: unknown })?.code
  return typeof rpc === 'number' ? rpc : 'error'
}

function byteLength(value: unknown): number {
  if (value === undefined) return 0
  try {
    return Buffer.byteLength(JSON.stringify(value))
  } catch {
    return 0
  }
}

/**
 * Runs `relay` (the call to the upstream, with the trace context it must carry) under the
 * controls in `holder`. `target` is what the caller asked for (a resource's URI).
 */
export async function controlledCall<T>(
  holder: ControlsHolder,
  item: ControlledItem,
  target: string,
  args: Readonly<Record<string, unknown>>,
  context: HandlerContext,
  relay: (trace: TraceContext | undefined) => Promise<T>,
): Promise<T> {
  const controls = holder.current
  if (controls === undefined) return relay(context.traceContext)
  const started = performance.now()
  const authInfo = context.authInfo
  const { policy, limiter, audit, metrics, tracing } = controls
  const record = (outcome: Outcome, fields: Partial<AuditRecord>, result?: unknown) => {
    if (audit === undefined) return
    const entry: AuditRecord = {
      time: new Date().toISOString(),
      principal: principalOf(authInfo),
      upstream: item.upstream,
      method: item.method,
      name: target,
      decision: 'allow',
      outcome,
      duration_ms: Math.round((performance.now() - started) * 1000) / 1000,
      request_bytes: byteLength(args),
      ...fields,
    }
    const token = tokenName(authInfo)
    if (token !== undefined) entry.token = token
    if (context.sessionId !== undefined) entry.session = context.sessionId
    if (audit.arguments) entry.arguments = redact(args)
    if (audit.results && result !== undefined) entry.result = redact(result)
    try {
      audit.log.write(entry)
    } catch {
      // An audit log that fails (a closed stream) must not fail the call it records.
    }
  }
  if (policy !== undefined) {
    const decision = policy.decide(item, authInfo, args)
    if (!decision.allowed) {
      metrics?.refused(item.upstream, item.method, item.name, 'denied')
      record('denied', { decision: 'deny', ...(decision.rule === undefined ? {} : { rule: decision.rule }) })
      throw denial(item, target)
    }
  }
  let leave: (() => void) | undefined
  if (limiter !== undefined) {
    const refusal =
      (await limiter.admit({ upstream: item.upstream, name: item.name, authInfo })) ??
      enter(limiter, item.upstream)
    if (typeof refusal === 'function') leave = refusal
    else {
      metrics?.refused(item.upstream, item.method, item.name, 'limited')
      record('limited', { decision: 'limit', limit: refusal.limit })
      throw limited(refusal)
    }
  }
  let trace: CallTrace | undefined
  try {
    trace = tracing?.start(
      {
        method: item.method,
        name: target,
        original: item.original,
        upstream: item.upstream,
        sessionId: context.sessionId,
        protocolVersion: context.protocolVersion,
      },
      context.traceContext,
    )
  } catch {
    // Tracing that fails must not fail the call.
  }
  metrics?.callStarted(item.upstream)
  let outcome: Outcome = 'ok'
  let code: number | string | undefined
  let result: T | undefined
  try {
    result = await relay(trace?.outbound ?? context.traceContext)
    if ((result as { isError?: unknown } | undefined)?.isError === true) {
      outcome = 'tool_error'
      code = 'tool_error'
    }
    return result
  } catch (error) {
    outcome = context.signal.aborted ? 'cancelled' : 'error'
    code = codeOf(error)
    throw error
  } finally {
    leave?.()
    const seconds = (performance.now() - started) / 1000
    trace?.end(code === undefined ? undefined : String(code))
    metrics?.callEnded(
      item.upstream,
      item.method,
      item.name,
      outcome,
      code === undefined ? undefined : String(code),
      seconds,
    )
    if (audit !== undefined) {
      const fields: Partial<AuditRecord> = { response_bytes: byteLength(result) }
      if (code !== undefined) fields.error_code = code
      if (trace !== undefined) fields.trace_id = trace.traceId
      record(outcome, fields, result)
    }
  }
}

/** The upstream's concurrency slot: a function to leave it, or the refusal. */
function enter(limiter: Limiter, upstream: string): (() => void) | LimitRefusal {
  return limiter.enter(upstream)
}
