// OpenTelemetry traces and metrics over OTLP/HTTP (the @opentelemetry packages, optional peer
// dependencies). Each relayed call is a SERVER span joined to the caller's trace (the W3C
// `traceparent` in its `_meta` or headers) with a CLIENT span under it for the upstream request,
// whose context goes on to the upstream in `_meta` and HTTP headers, so one trace covers client →
// gateway → upstream. Names and attributes follow the OpenTelemetry MCP semantic conventions
// (span `{mcp.method.name} {target}`, `mcp.method.name`, `gen_ai.tool.name`, `gen_ai.prompt.name`,
// `mcp.resource.uri`, `mcp.session.id`, `mcp.protocol.version`, `error.type`; the
// `mcp.server.operation.duration` and `mcp.client.operation.duration` histograms, in seconds).

import type { TraceContext } from '@mcp-kit/server'
import { missingModule } from './optional-import.js'

/** The OpenTelemetry packages tracing needs, with the ranges it is built against. */
export const openTelemetryPackages = [
  '@opentelemetry/api@~1.9.1',
  '@opentelemetry/sdk-trace@^2.12.1',
  '@opentelemetry/resources@^2.12.1',
  '@opentelemetry/exporter-trace-otlp-http@^0.223.1',
  '@opentelemetry/sdk-metrics@^2.12.0',
  '@opentelemetry/exporter-metrics-otlp-http@^0.223.0',
]

/** The six packages, or one error naming them all (they come together). */
async function loadOpenTelemetry() {
  try {
    return await Promise.all([
      import('@opentelemetry/api'),
      import('@opentelemetry/sdk-trace'),
      import('@opentelemetry/resources'),
      import('@opentelemetry/exporter-trace-otlp-http'),
      import('@opentelemetry/sdk-metrics'),
      import('@opentelemetry/exporter-metrics-otlp-http'),
    ])
  } catch (error) {
    if (!missingModule(error, '@opentelemetry/')) throw error
    throw new Error(
      `tracing (--otlp) needs the optional OpenTelemetry packages: install them beside @mcp-kit/gateway (npm install ${openTelemetryPackages.join(' ')})`,
      { cause: error },
    )
  }
}

export interface TracingOptions {
  /** The OTLP/HTTP endpoint's base URL (`/v1/traces` and `/v1/metrics` are added), else the OTEL_* variables'. */
  endpoint?: string | undefined
  /** The environment (OTEL_SERVICE_NAME, OTEL_EXPORTER_OTLP_*). */
  env: Readonly<Record<string, string | undefined>>
  /** How often metrics are exported (ms; default OTEL_METRIC_EXPORT_INTERVAL or 60 000). */
  metricIntervalMs?: number
}

/** One call as the trace sees it. */
export interface TracedCall {
  method: string
  /** The name clients see (tool, prompt) or the URI. */
  name: string
  /** The upstream's own name for it. */
  original: string
  upstream: string
  sessionId: string | undefined
  protocolVersion: string | undefined
}

export interface CallTrace {
  /** The trace context the upstream request carries (the CLIENT span's). */
  readonly outbound: TraceContext
  readonly traceId: string
  /** Ends both spans and records the durations; `errorType` for a failed call. */
  end(errorType: string | undefined): void
}

export interface GatewayTracing {
  start(call: TracedCall, parent: TraceContext | undefined): CallTrace
  /** Sends what is buffered and stops. */
  shutdown(): Promise<void>
}

function signalUrl(options: TracingOptions, signal: 'traces' | 'metrics'): string | undefined {
  const env = options.env
  const specific = env[`OTEL_EXPORTER_OTLP_${signal.toUpperCase()}_ENDPOINT`]
  if (options.endpoint === undefined && specific) return specific
  const base = options.endpoint ?? env.OTEL_EXPORTER_OTLP_ENDPOINT
  if (!base) return undefined
  return `${base.replace(/\/+$/, '')}/v1/${signal}`
}

export async function createTracing(options: TracingOptions): Promise<GatewayTracing> {
  const [api, sdk, resources, traceExporter, metricsSdk, metricExporter] = await loadOpenTelemetry()
  const resource = resources.resourceFromAttributes({
    'service.name': options.env.OTEL_SERVICE_NAME || 'mcp-kit-gateway',
  })
  const tracesUrl = signalUrl(options, 'traces')
  const exporter = new traceExporter.OTLPTraceExporter(tracesUrl === undefined ? {} : { url: tracesUrl })
  const provider = new sdk.TracerProvider({
    resource,
    spanProcessors: [new sdk.BatchSpanProcessor({ exporter, scheduledDelayMillis: 1000 })],
  })
  const tracer = provider.getTracer('@mcp-kit/gateway')
  const metricsUrl = signalUrl(options, 'metrics')
  const intervalMs = options.metricIntervalMs ?? (Number(options.env.OTEL_METRIC_EXPORT_INTERVAL) || 60_000)
  const meters = new metricsSdk.MeterProvider({
    resource,
    readers: [
      new metricsSdk.PeriodicExportingMetricReader({
        exporter: new metricExporter.OTLPMetricExporter(metricsUrl === undefined ? {} : { url: metricsUrl }),
        exportIntervalMillis: intervalMs,
        exportTimeoutMillis: Math.min(30_000, intervalMs),
      }),
    ],
  })
  const meter = meters.getMeter('@mcp-kit/gateway')
  const serverDuration = meter.createHistogram('mcp.server.operation.duration', {
    unit: 's',
    description: 'MCP request duration as observed on the receiver',
  })
  const clientDuration = meter.createHistogram('mcp.client.operation.duration', {
    unit: 's',
    description: 'MCP request duration as observed on the sender (the gateway asking its upstream)',
  })

  return {
    start(call, parent) {
      const started = performance.now()
      let parentContext = api.ROOT_CONTEXT
      const remote = parent === undefined ? undefined : spanContextOf(parent)
      if (remote !== undefined) parentContext = api.trace.setSpanContext(api.ROOT_CONTEXT, remote)
      const attributes: Record<string, string> = { 'mcp.method.name': call.method }
      if (call.method === 'tools/call') {
        attributes['gen_ai.tool.name'] = call.name
        attributes['gen_ai.operation.name'] = 'execute_tool'
      } else if (call.method === 'prompts/get') attributes['gen_ai.prompt.name'] = call.name
      else attributes['mcp.resource.uri'] = call.name
      if (call.sessionId !== undefined) attributes['mcp.session.id'] = call.sessionId
      if (call.protocolVersion !== undefined) attributes['mcp.protocol.version'] = call.protocolVersion
      const server = tracer.startSpan(
        `${call.method} ${call.name}`,
        { kind: api.SpanKind.SERVER, attributes },
        parentContext,
      )
      const upstreamAttributes: Record<string, string> = {
        ...attributes,
        'mcp.gateway.upstream': call.upstream,
        ...(call.method === 'tools/call' ? { 'gen_ai.tool.name': call.original } : {}),
        ...(call.method === 'prompts/get' ? { 'gen_ai.prompt.name': call.original } : {}),
      }
      delete upstreamAttributes['mcp.session.id']
      const client = tracer.startSpan(
        `${call.method} ${call.original}`,
        { kind: api.SpanKind.CLIENT, attributes: upstreamAttributes },
        api.trace.setSpan(api.ROOT_CONTEXT, server),
      )
      const own = client.spanContext()
      const flags = (own.traceFlags & 0xff).toString(16).padStart(2, '0')
      const outbound: TraceContext = { traceparent: `00-${own.traceId}-${own.spanId}-${flags}` }
      if (parent?.tracestate !== undefined) outbound.tracestate = parent.tracestate
      return {
        outbound,
        traceId: own.traceId,
        end(errorType) {
          const seconds = (performance.now() - started) / 1000
          const recorded: Record<string, string> = { 'mcp.method.name': call.method }
          if (errorType !== undefined) {
            recorded['error.type'] = errorType
            for (const span of [client, server]) {
              span.setAttribute('error.type', errorType)
              span.setStatus({ code: api.SpanStatusCode.ERROR })
            }
          }
          client.end()
          server.end()
          const named = call.method === 'tools/call' ? { 'gen_ai.tool.name': call.name } : {}
          serverDuration.record(seconds, { ...recorded, ...named })
          clientDuration.record(seconds, { ...recorded, 'mcp.gateway.upstream': call.upstream })
        },
      }
    },
    async shutdown() {
      await Promise.allSettled([provider.shutdown(), meters.shutdown()])
    },
  }
}

const traceparentParts = /^[0-9a-f]{2}-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/

function spanContextOf(parent: TraceContext) {
  const match = traceparentParts.exec(parent.traceparent)
  if (match === null) return undefined
  return {
    traceId: match[1] as string,
    spanId: match[2] as string,
    traceFlags: Number.parseInt(match[3] as string, 16) & 1,
    isRemote: true,
  }
}
