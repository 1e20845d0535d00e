// A gateway: many upstream MCP servers offered as one registry, which any mcp-kit transport
// serves (Streamable HTTP, stdio, both protocol eras). Start-up discovers each upstream — from
// the discovery cache when it has the upstream's lists (the upstream then starts on first use),
// else by starting it — and an upstream that cannot start is reported, not fatal: it keeps
// retrying with backoff and its tools appear once it runs. The operator's controls (policy,
// limits, audit, metrics, traces: controls/) wrap every relayed call, and `reconfigure` swaps
// upstreams, policy and limits without touching the upstreams that stay.

import { createToolRegistry, type ToolRegistry } from '@mcp-kit/server'
import { Catalog } from './catalog/catalog.js'
import { firstListingWaiter } from './catalog/first-listing.js'
import type { CallControls, ControlsHolder } from './controls/call-controls.js'
import { effective, openObservers, policyListView, reloadableControls } from './controls/gateway-controls.js'
import { memoryBuckets } from './limits/limiter.js'
import type { CallFigures } from './telemetry/call-figures.js'
import { upState } from './telemetry/prometheus.js'
import type { Discovery, GatewayEvent, GatewayOptions, UpstreamOptions } from './types.js'
import { cacheKey, Upstream } from './upstream/upstream.js'
import { withUpstreamAuth } from './upstream/upstream-auth.js'
import { type UpstreamChanges, upstreamChanges } from './upstream/upstream-changes.js'

export interface UpstreamHealth {
  state: string
  pid?: number
  protocolVersion?: string
  restarts: number
  tools: number
  error?: string
}

/** What `/admin/status` answers (the gateway README, "Admin status"). */
export interface GatewayStatus {
  upstreams: Record<string, UpstreamHealth & { up: boolean }>
  /** Per upstream and name: calls, errors, latency percentiles (with metrics on; else empty). */
  calls: CallFigures[]
}

export interface Gateway {
  /** What the gateway offers; serve it with startHttpServer or serveStdio. */
  readonly registry: ToolRegistry
  readonly upstreams: ReadonlyMap<string, Upstream>
  /** Discovers every upstream; rejects only for a name collision between upstreams (after stopping them). */
  start(): Promise<void>
  /** Each upstream's state, for `/healthz` and logs. */
  health(): Record<string, UpstreamHealth>
  /** Ready to serve (`/readyz`): every upstream running or startable on use (idle). */
  readiness(): { ready: boolean; upstreams: Record<string, string> }
  /** The Prometheus exposition (with `metrics` on; undefined otherwise). */
  metrics(): Promise<{ contentType: string; body: string }> | undefined
  /** Upstream health and per-tool figures, for `/admin/status`. */
  status(): Promise<GatewayStatus>
  /**
   * Applies new options: upstreams added, removed or changed (by name; a changed one restarts),
   * the policy and limits replaced; the upstreams that stay keep running and their sessions.
   * Throws, changing nothing, when the new options cannot be used (two upstreams of one name).
   */
  reconfigure(options: GatewayOptions): Promise<UpstreamChanges>
  /** Stops every upstream (stdio servers end with their process groups) and closes the audit log and exporters. */
  close(): Promise<void>
}

/** Many upstream MCP servers behind one registry: namespaced, started on demand, restarted. */
export function createGateway(options: GatewayOptions, registry = createToolRegistry()): Gateway {
  let settings = options
  const emit = (event: GatewayEvent) => {
    try {
      options.onEvent?.(event)
    } catch {
      // A failing log sink must not break the gateway.
    }
  }
  const upstreams = new Map<string, Upstream>()
  const order = new Map<Upstream, number>()
  const controls: ControlsHolder = { current: undefined }
  let observers: Pick<CallControls, 'audit' | 'metrics' | 'tracing'> = {}
  // Rate-limit buckets of this instance (without a shared store), kept across reloads.
  const buckets = memoryBuckets()
  let reloadable = reloadableControls(options, buckets)
  // Config order decides who owns overlapping resource URI spaces (uri-owners.ts).
  const catalog = new Catalog(registry, emit, (upstream) => order.get(upstream) ?? order.size, controls)
  const stopView = registry.restrictLists(
    policyListView(
      () => reloadable.policy,
      (list, key) => catalog.policyItem(list, key),
    ),
  )
  let starting = true

  function makeUpstream(upstreamOptions: UpstreamOptions): Upstream {
    return new Upstream(withUpstreamAuth(upstreamOptions, settings), {
      connect: settings.connect ?? {},
      idleStopMs: settings.idleStopMs,
      maxUserSessions: settings.maxUserSessions ?? 32,
      restartDelayMs: settings.restartDelayMs ?? 1000,
      maxRestartDelayMs: settings.maxRestartDelayMs ?? 30_000,
      cache: settings.cache,
      roots: settings.roots,
      emit,
      discovered: (source: Upstream, discovery: Discovery) => {
        // During start-up collisions are refused by start(); later they are skipped and reported.
        if (!starting && upstreams.get(source.name) === source) catalog.place(source, discovery)
      },
    })
  }

  function uniqueNames(list: readonly UpstreamOptions[]): void {
    const seen = new Set<string>()
    for (const upstreamOptions of list) {
      if (seen.has(upstreamOptions.name)) {
        throw new Error(`two upstreams are named '${upstreamOptions.name}': names must be unique`)
      }
      seen.add(upstreamOptions.name)
    }
  }

  uniqueNames(options.upstreams)
  for (const upstreamOptions of options.upstreams) {
    const upstream = makeUpstream(upstreamOptions)
    upstreams.set(upstreamOptions.name, upstream)
    order.set(upstream, order.size)
  }
  // A call right after initialize may come before an upstream's tools do.
  const stopWaiting = registry.onMissingTool(
    firstListingWaiter(upstreams, catalog, options.connect?.connectTimeoutMs),
  )

  async function discover(upstream: Upstream): Promise<Discovery | undefined> {
    const cached = settings.eager ? undefined : settings.cache?.get(cacheKey(upstream.options))
    if (cached !== undefined) return cached
    try {
      return await upstream.refresh()
    } catch (error) {
      // A start failure is reported by the upstream (it retries, and is placed when it runs).
      if (upstream.state === 'running') {
        emit({
          type: 'failed',
          upstream: upstream.name,
          message: `listing failed: ${(error as Error).message}`,
        })
      }
      return undefined
    }
  }

  function health(): Record<string, UpstreamHealth> {
    const report: Record<string, UpstreamHealth> = {}
    for (const [name, upstream] of upstreams) {
      const entry: UpstreamHealth = {
        state: upstream.state,
        restarts: upstream.restarts,
        tools: catalog.offered(upstream)?.tools.length ?? 0,
      }
      if (upstream.pid !== undefined) entry.pid = upstream.pid
      if (upstream.protocolVersion !== undefined) entry.protocolVersion = upstream.protocolVersion
      if (upstream.lastError !== undefined) entry.error = upstream.lastError
      report[name] = entry
    }
    return report
  }

  function applyControls(): void {
    controls.current = effective({ ...observers, ...reloadable })
  }

  return {
    registry,
    upstreams,
    async start() {
      const sessions = typeof options.metrics === 'object' ? options.metrics.sessions : undefined
      observers = await openObservers(options, { upstreams: health, sessions })
      applyControls()
      const found = await Promise.all([...upstreams.values()].map(discover))
      try {
        for (const [index, upstream] of [...upstreams.values()].entries()) {
          const discovery = found[index]
          if (discovery !== undefined) catalog.place(upstream, discovery, true)
        }
      } catch (error) {
        // A gateway that cannot start owns nothing: its upstreams stop with it.
        await Promise.all([...upstreams.values()].map((upstream) => upstream.close()))
        throw error
      } finally {
        starting = false
      }
    },
    health,
    readiness() {
      const states: Record<string, string> = {}
      let ready = true
      for (const [name, upstream] of upstreams) {
        states[name] = upstream.state
        if (!upState(upstream.state)) ready = false
      }
      return { ready, upstreams: states }
    },
    metrics() {
      return observers.metrics?.render()
    },
    async status() {
      const upstreamStatus: GatewayStatus['upstreams'] = {}
      for (const [name, entry] of Object.entries(health()))
        upstreamStatus[name] = { ...entry, up: upState(entry.state) }
      return { upstreams: upstreamStatus, calls: (await observers.metrics?.figures()) ?? [] }
    },
    async reconfigure(next) {
      uniqueNames(next.upstreams)
      const nextReloadable = reloadableControls(next, buckets)
      const before = new Map([...upstreams].map(([name, upstream]) => [name, upstream.options] as const))
      // Compare what was configured (before OAuth settings were filled in).
      const configured = new Map(
        [...before.keys()].map(
          (name) =>
            [name, settings.upstreams.find((entry) => entry.name === name) ?? before.get(name)] as const,
        ),
      )
      const changes = upstreamChanges(configured as Map<string, UpstreamOptions>, next.upstreams)
      settings = { ...settings, upstreams: next.upstreams, policy: next.policy, limits: next.limits }
      reloadable = nextReloadable
      applyControls()
      const leaving = [...changes.removed, ...changes.changed].map((name) => upstreams.get(name) as Upstream)
      for (const upstream of leaving) catalog.remove(upstream)
      const kept = new Map(upstreams)
      upstreams.clear()
      order.clear()
      const fresh: Upstream[] = []
      for (const upstreamOptions of next.upstreams) {
        let upstream = changes.kept.includes(upstreamOptions.name)
          ? kept.get(upstreamOptions.name)
          : undefined
        if (upstream === undefined) {
          upstream = makeUpstream(upstreamOptions)
          fresh.push(upstream)
        }
        upstreams.set(upstreamOptions.name, upstream)
        order.set(upstream, order.size)
      }
      await Promise.all(leaving.map((upstream) => upstream.close()))
      catalog.replaceAll()
      const found = await Promise.all(fresh.map(discover))
      for (const [index, upstream] of fresh.entries()) {
        const discovery = found[index]
        if (discovery !== undefined && upstreams.get(upstream.name) === upstream)
          catalog.place(upstream, discovery)
      }
      return changes
    },
    async close() {
      stopWaiting()
      stopView()
      await Promise.all([...upstreams.values()].map((upstream) => upstream.close()))
      await observers.audit?.log.close()
      await observers.tracing?.shutdown()
    },
  }
}
