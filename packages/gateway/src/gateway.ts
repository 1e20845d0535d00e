// A gateway: many upstream MCP servers offered as one registry, which any mcp-kit transport
// serves (Streamable HTTP, stdio, both protocol eras). Start-up discovers each upstream — from
// the discovery cache when it has the upstream's lists (the upstream then starts on first use),
// else by starting it — and an upstream that cannot start is reported, not fatal: it keeps
// retrying with backoff and its tools appear once it runs.

import { createToolRegistry, type ToolRegistry } from '@mcp-kit/server'
import { Catalog } from './catalog.js'
import { firstListingWaiter } from './first-listing.js'
import type { Discovery, GatewayEvent, GatewayOptions } from './types.js'
import { cacheKey, Upstream } from './upstream.js'
import { withUpstreamAuth } from './upstream-auth.js'

export interface UpstreamHealth {
  state: string
  pid?: number
  protocolVersion?: string
  restarts: number
  tools: number
  error?: string
}

export interface Gateway {
  /** What the gateway offers; serve it with startHttpServer or serveStdio. */
  readonly registry: ToolRegistry
  readonly upstreams: ReadonlyMap<string, Upstream>
  /** Discovers every upstream; rejects only for a name collision between upstreams (after stopping them). */
  start(): Promise<void>
  /** Each upstream's state, for `/healthz` and logs. */
  health(): Record<string, UpstreamHealth>
  /** Stops every upstream (stdio servers end with their process groups). */
  close(): Promise<void>
}

/** Many upstream MCP servers behind one registry: namespaced, started on demand, restarted. */
export function createGateway(options: GatewayOptions, registry = createToolRegistry()): Gateway {
  const emit = (event: GatewayEvent) => {
    try {
      options.onEvent?.(event)
    } catch {
      // A failing log sink must not break the gateway.
    }
  }
  const upstreams = new Map<string, Upstream>()
  const order = new Map<Upstream, number>()
  // Config order decides who owns overlapping resource URI spaces (uri-owners.ts).
  const catalog = new Catalog(registry, emit, (upstream) => order.get(upstream) ?? order.size)
  let starting = true
  for (const upstreamOptions of options.upstreams) {
    if (upstreams.has(upstreamOptions.name)) {
      throw new Error(`two upstreams are named '${upstreamOptions.name}': names must be unique`)
    }
    const upstream: Upstream = new Upstream(withUpstreamAuth(upstreamOptions, options), {
      connect: options.connect ?? {},
      idleStopMs: options.idleStopMs,
      maxUserSessions: options.maxUserSessions ?? 32,
      restartDelayMs: options.restartDelayMs ?? 1000,
      maxRestartDelayMs: options.maxRestartDelayMs ?? 30_000,
      cache: options.cache,
      roots: options.roots,
      emit,
      discovered: (source: Upstream, discovery: Discovery) => {
        // During start-up collisions are refused by start(); later they are skipped and reported.
        if (!starting) catalog.place(source, discovery)
      },
    })
    upstreams.set(upstreamOptions.name, upstream)
    order.set(upstream, order.size)
  }
  // A call right after initialize may come before an upstream's tools do.
  const stopWaiting = registry.onMissingTool(
    firstListingWaiter(upstreams, catalog, options.connect?.connectTimeoutMs),
  )

  async function discover(upstream: Upstream): Promise<Discovery | undefined> {
    const cached = options.eager ? undefined : options.cache?.get(cacheKey(upstream.options))
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

  return {
    registry,
    upstreams,
    async start() {
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
    health() {
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
    },
    async close() {
      stopWaiting()
      await Promise.all([...upstreams.values()].map((upstream) => upstream.close()))
    },
  }
}
