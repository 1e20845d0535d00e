// The gateway's Prometheus metrics (prom-client, an optional peer dependency), in a registry of
// their own: per upstream and name (tools, prompts, resources by URI or URI template — what the
// catalog offers, so the label sets stay bounded) calls by outcome, errors by code, a latency
// histogram, calls in flight, policy refusals and rate-limit refusals; and gauges read at scrape
// time: each upstream up or down, its restarts, the sessions the server holds.

import { type CallFigures, durationBuckets, quantileMs } from './call-figures.js'
import { optionalImport } from './optional-import.js'

export interface MetricsSources {
  /** Each upstream's state and restarts (Gateway.health()). */
  upstreams(): Record<string, { state: string; restarts: number }>
  /** Sessions the server holds now, when it has sessions. */
  sessions?: (() => number) | undefined
}

export interface GatewayMetrics {
  callStarted(upstream: string): void
  callEnded(
    upstream: string,
    method: string,
    name: string,
    outcome: string,
    code: string | undefined,
    seconds: number,
  ): void
  refused(upstream: string, method: string, name: string, why: 'denied' | 'limited'): void
  /** The text exposition for `/metrics`. */
  render(): Promise<{ contentType: string; body: string }>
  /** Per-tool figures for `/admin/status`. */
  figures(): Promise<CallFigures[]>
}

export async function createPrometheusMetrics(sources: MetricsSources): Promise<GatewayMetrics> {
  const prom = await optionalImport('prom-client', 'metrics (--metrics)', () => import('prom-client'))
  const registry = new prom.Registry()
  const calls = new prom.Counter({
    name: 'mcp_gateway_calls_total',
    help: 'Calls relayed to upstreams (and refused), by upstream, method, name and outcome',
    labelNames: ['upstream', 'method', 'name', 'outcome'],
    registers: [registry],
  })
  const errors = new prom.Counter({
    name: 'mcp_gateway_call_errors_total',
    help: 'Calls that failed, by upstream, method, name and code (a JSON-RPC code, or tool_error)',
    labelNames: ['upstream', 'method', 'name', 'code'],
    registers: [registry],
  })
  const duration = new prom.Histogram({
    name: 'mcp_gateway_call_duration_seconds',
    help: 'Time from receiving a call to answering it, by upstream, method and name',
    labelNames: ['upstream', 'method', 'name'],
    buckets: durationBuckets,
    registers: [registry],
  })
  const inFlight = new prom.Gauge({
    name: 'mcp_gateway_calls_in_flight',
    help: 'Calls being relayed now, by upstream',
    labelNames: ['upstream'],
    registers: [registry],
  })
  const refusals = new prom.Counter({
    name: 'mcp_gateway_refusals_total',
    help: 'Calls refused by the policy (denied) or a limit (limited), by upstream, method and name',
    labelNames: ['upstream', 'method', 'name', 'reason'],
    registers: [registry],
  })
  new prom.Gauge({
    name: 'mcp_gateway_upstream_up',
    help: 'Whether an upstream is running (1), idle and startable on use (1), or down (0)',
    labelNames: ['upstream', 'state'],
    registers: [registry],
    collect() {
      this.reset()
      for (const [name, health] of Object.entries(sources.upstreams())) {
        this.set({ upstream: name, state: health.state }, upState(health.state) ? 1 : 0)
      }
    },
  })
  new prom.Gauge({
    name: 'mcp_gateway_upstream_restarts',
    help: 'Restarts of an upstream since the gateway started',
    labelNames: ['upstream'],
    registers: [registry],
    collect() {
      this.reset()
      for (const [name, health] of Object.entries(sources.upstreams()))
        this.set({ upstream: name }, health.restarts)
    },
  })
  const sessions = sources.sessions
  if (sessions !== undefined) {
    new prom.Gauge({
      name: 'mcp_gateway_sessions',
      help: 'Client sessions the server holds now (2025-11-25 sessions)',
      registers: [registry],
      collect() {
        this.set(sessions())
      },
    })
  }

  return {
    callStarted(upstream) {
      inFlight.inc({ upstream })
    },
    callEnded(upstream, method, name, outcome, code, seconds) {
      inFlight.dec({ upstream })
      calls.inc({ upstream, method, name, outcome })
      if (code !== undefined) errors.inc({ upstream, method, name, code })
      duration.observe({ upstream, method, name }, seconds)
    },
    refused(upstream, method, name, why) {
      calls.inc({ upstream, method, name, outcome: why })
      refusals.inc({ upstream, method, name, reason: why })
    },
    async render() {
      return { contentType: registry.contentType, body: await registry.metrics() }
    },
    async figures() {
      const counted = new Map<string, CallFigures>()
      const keyOf = (labels: Record<string, unknown>) =>
        `${labels.upstream}\u0000${labels.method}\u0000${labels.name}`
      const entry = (labels: Record<string, unknown>): CallFigures => {
        const key = keyOf(labels)
        let found = counted.get(key)
        if (found === undefined) {
          found = {
            upstream: String(labels.upstream),
            method: String(labels.method),
            name: String(labels.name),
            calls: 0,
            errors: 0,
            p50_ms: undefined,
            p95_ms: undefined,
            p99_ms: undefined,
          }
          counted.set(key, found)
        }
        return found
      }
      for (const value of (await calls.get()).values) {
        const figures = entry(value.labels)
        figures.calls += value.value
        if (value.labels.outcome !== 'ok') figures.errors += value.value
      }
      const buckets = new Map<string, number[]>()
      for (const value of (await duration.get()).values) {
        if (value.metricName !== 'mcp_gateway_call_duration_seconds_bucket') continue
        const key = keyOf(value.labels)
        const list = buckets.get(key) ?? []
        list.push(value.value)
        buckets.set(key, list)
      }
      for (const [key, cumulative] of buckets) {
        const figures = counted.get(key)
        if (figures === undefined) continue
        figures.p50_ms = quantileMs(0.5, durationBuckets, cumulative)
        figures.p95_ms = quantileMs(0.95, durationBuckets, cumulative)
        figures.p99_ms = quantileMs(0.99, durationBuckets, cumulative)
      }
      return [...counted.values()]
    },
  }
}

/** Up: running, or idle (started on first use). */
export function upState(state: string): boolean {
  return state === 'running' || state === 'idle'
}
