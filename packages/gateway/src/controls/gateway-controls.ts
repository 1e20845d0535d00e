// Puts a gateway's call controls together from its options: the policy and limits (compiled
// here, replaced on reload) and the audit log, Prometheus metrics and OpenTelemetry tracing
// (opened once at start: their libraries load only when asked for). Also the list view that
// hides what the policy denies a caller, and the named tokens the HTTP server checks.

import type { AuthInfo, ListCaller, ListView } from '@mcp-kit/server'
import { openAuditLog } from '../audit/audit-log.js'
import { createLimiter, type TakeTokens } from '../limits/limiter.js'
import { compilePolicy, type Policy } from '../policy/policy.js'
import type { PolicyItem } from '../policy/policy-types.js'
import { createPrometheusMetrics, type MetricsSources } from '../telemetry/prometheus.js'
import { createTracing } from '../telemetry/tracing.js'
import type { GatewayOptions } from '../types.js'
import type { CallControls } from './call-controls.js'
import type { NamedToken } from './controls-types.js'

/** The controls that reload swaps: policy and limits (their in-memory buckets in `memory`, kept across reloads). */
export function reloadableControls(
  options: GatewayOptions,
  memory: TakeTokens,
): Pick<CallControls, 'policy' | 'limiter'> {
  return {
    policy: options.policy === undefined ? undefined : compilePolicy(options.policy),
    limiter:
      options.limits === undefined || options.limits.length === 0
        ? undefined
        : createLimiter(options.limits, options.store, memory),
  }
}

/** Opens the audit log, metrics and tracing the options ask for (once, at start). */
export async function openObservers(
  options: GatewayOptions,
  sources: MetricsSources,
): Promise<Pick<CallControls, 'audit' | 'metrics' | 'tracing'>> {
  const audit = options.audit
  const metrics =
    options.metrics === undefined || options.metrics === false
      ? undefined
      : await createPrometheusMetrics(sources)
  const tracing = options.tracing === undefined ? undefined : await createTracing(options.tracing)
  return {
    audit:
      audit === undefined
        ? undefined
        : { log: openAuditLog(audit), arguments: audit.arguments === true, results: audit.results === true },
    metrics,
    tracing,
  }
}

/** Controls with nothing on are none: calls then take the direct path. */
export function effective(controls: CallControls): CallControls | undefined {
  const on = Object.values(controls).some((value) => value !== undefined)
  return on ? controls : undefined
}

/**
 * The registry's list view under `policy`: each caller sees what it may use. Entries that are no
 * upstream's (a registry module's own tools beside the gateway) are not the policy's to hide.
 */
export function policyListView(
  current: () => Policy | undefined,
  itemOf: (
    list: 'tools' | 'resources' | 'resourceTemplates' | 'prompts',
    key: string,
  ) => PolicyItem | undefined,
): (caller: ListCaller) => ListView | undefined {
  return (caller) => {
    const policy = current()
    if (policy === undefined) return undefined
    const authInfo = caller.authInfo
    return (list, key) => {
      const item = itemOf(list, key)
      return item === undefined || policy.visible(item, authInfo)
    }
  }
}

/**
 * A bearer-token check for named tokens (the HTTP server's `verifyToken`): each token is its own
 * principal (`client:mcp-kit:token|<name>`), carrying its scopes and claims.
 */
export function tokenVerifier(tokens: readonly NamedToken[]): (token: string) => AuthInfo | undefined {
  const byToken = new Map<string, AuthInfo>()
  for (const named of tokens) {
    byToken.set(
      named.token,
      Object.freeze({
        token: named.token,
        clientId: named.name,
        scopes: [...named.scopes],
        extra: Object.freeze({ issuer: 'mcp-kit:token', token: named.name, claims: named.claims }),
      }),
    )
  }
  return (token) => byToken.get(token)
}
