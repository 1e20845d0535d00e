// A call for a namespaced tool whose upstream has not listed its tools yet (still starting, or
// retrying a start that failed) waits for that first listing, bounded by the connect timeout,
// before the gateway answers "Unknown tool": clients call right after initialize, unlisted.

import { defaultPrefix } from '../naming.js'
import type { Upstream } from '../upstream/upstream.js'
import type { Catalog } from './catalog.js'

/** The client package's default connect limit, for upstreams whose options set none. */
const defaultConnectTimeoutMs = 30_000

function connectLimit(upstream: Upstream, gatewayLimit: number | undefined): number {
  return upstream.options.connect?.connectTimeoutMs ?? gatewayLimit ?? defaultConnectTimeoutMs
}

/** Settles when `work` does, after `limitMs`, or when `signal` aborts, whichever is first. */
async function bounded(work: Promise<unknown>, limitMs: number, signal: AbortSignal): Promise<void> {
  let timer: NodeJS.Timeout | undefined
  let onAbort: (() => void) | undefined
  try {
    await Promise.race([
      work.catch(() => {}),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, limitMs)
        onAbort = resolve
        if (signal.aborted) resolve()
        else signal.addEventListener('abort', onAbort, { once: true })
      }),
    ])
  } finally {
    clearTimeout(timer)
    if (onAbort !== undefined) signal.removeEventListener('abort', onAbort)
  }
}

/**
 * The registry's missing-tool waiter: for each upstream whose namespace `name` is in and whose
 * tools the catalog does not have yet, the upstream's listing (starting it if no start is under
 * way), each bounded by its connect limit.
 */
export function firstListingWaiter(
  upstreams: ReadonlyMap<string, Upstream>,
  catalog: Catalog,
  gatewayLimit: number | undefined,
): (name: string, signal: AbortSignal) => Promise<void> {
  return async (name, signal) => {
    const pending = [...upstreams.values()].filter(
      (upstream) =>
        upstream.state !== 'stopped' &&
        catalog.offered(upstream) === undefined &&
        name.startsWith(upstream.options.prefix ?? defaultPrefix(upstream.name)),
    )
    await Promise.all(
      pending.map((upstream) => bounded(upstream.refresh(), connectLimit(upstream, gatewayLimit), signal)),
    )
  }
}
