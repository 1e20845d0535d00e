// Riding out a Redis Cluster failover. A master that dies is replaced by its replica within the
// cluster's node timeout; meanwhile a command for its slots fails (the connection is gone, the
// client's queue for that node is dropped once the new topology is read, the cluster answers
// CLUSTERDOWN while the replica is elected). Such a command is sent again until the new master
// answers or the failover time runs out; a write that must survive the next failover is sent
// again with its wait for a replica (cluster-wait.ts). Readiness and "the store came back"
// follow the masters' connections.

import {
  ClientOfflineError,
  ConnectionTimeoutError,
  DisconnectsClientError,
  ErrorReply,
  MaxCommandRedirectionsError,
  ReconnectStrategyError,
  RootNodesUnavailableError,
  SocketClosedUnexpectedlyError,
  SocketTimeoutError,
  TimeoutError,
} from '@redis/client'

/** The parts of the cluster client this module uses. */
export interface ClusterNodes {
  readonly isReady: boolean
  readonly masters: ReadonlyArray<{ address: string; client?: { isReady: boolean } }>
  on(event: string, listener: (...args: never[]) => void): unknown
}

export interface FailoverOptions {
  /** How long a command keeps being sent again (the node timeout and an election, with room). */
  failoverTimeoutMs: number
  /** Waits until a replica has the write just answered for `key` (cluster-wait.ts). */
  replicate?: (key: string) => Promise<void>
  report?: (error: Error) => void
}

export interface Failover {
  /** Runs `command` until it answers, sending it again while the cluster fails over. */
  retry<T>(command: () => Promise<T>): Promise<T>
  /** A write to `key` that must survive a failover: retried, then acknowledged by replicas. */
  durable<T>(key: string, write: () => Promise<T>): Promise<T>
  /** False while some master has been unreachable for longer than a failover takes. */
  ready(): boolean
  /** Calls `listener` once every master answers again after trouble; returns a function to stop. */
  onBack(listener: () => void): () => void
  close(): void
}

const transientReplies = /^(CLUSTERDOWN|TRYAGAIN|LOADING|MASTERDOWN|READONLY|MOVED|ASK)\b/
const transientCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH'])

/** Whether an error is what a failover looks like to a client (so: try again), not an answer. */
export function transient(error: unknown): boolean {
  if (error instanceof ErrorReply) return transientReplies.test(error.message)
  if (!(error instanceof Error)) return false
  return (
    error instanceof SocketClosedUnexpectedlyError ||
    error instanceof ClientOfflineError ||
    error instanceof DisconnectsClientError ||
    error instanceof TimeoutError ||
    error instanceof ConnectionTimeoutError ||
    error instanceof SocketTimeoutError ||
    error instanceof RootNodesUnavailableError ||
    error instanceof ReconnectStrategyError ||
    error instanceof MaxCommandRedirectionsError ||
    transientCodes.has(String((error as { code?: unknown }).code)) ||
    /^Cannot find node /.test(error.message)
  )
}

export function watchFailovers(cluster: ClusterNodes, options: FailoverOptions): Failover {
  let closed = false
  let troubleSince: number | undefined
  let checking: NodeJS.Timeout | undefined
  const backListeners = new Set<() => void>()
  const reported = new Set<string>()

  const allMastersReady = () =>
    cluster.isReady && cluster.masters.length > 0 && cluster.masters.every((master) => master.client?.isReady)

  // Trouble starts with a node's connection failing; it ends when every master of the topology
  // (the promoted replica in place of the dead master, once the client has read it) answers.
  const trouble = (error?: Error, node?: { host?: string; port?: number }) => {
    if (closed) return
    troubleSince ??= Date.now()
    const address = `${node?.host}:${node?.port}`
    if (error !== undefined && !reported.has(address)) {
      reported.add(address)
      options.report?.(new Error(`redis cluster node ${address}: ${error.message || error.constructor.name}`))
    }
    checking ??= setInterval(() => {
      if (!allMastersReady()) return
      clearInterval(checking)
      checking = undefined
      troubleSince = undefined
      reported.clear()
      for (const listener of backListeners) listener()
    }, 100)
    checking.unref()
  }
  cluster.on('node-error', trouble as (...args: never[]) => void)
  cluster.on('node-reconnecting', ((node: { host?: string; port?: number }) => trouble(undefined, node)) as (
    ...args: never[]
  ) => void)

  const retry = async <T>(command: () => Promise<T>): Promise<T> => {
    const deadline = Date.now() + options.failoverTimeoutMs
    for (let attempt = 0; ; attempt++) {
      try {
        return await command()
      } catch (error) {
        if (closed || !transient(error) || Date.now() >= deadline) throw error
        await new Promise((resolve) => setTimeout(resolve, Math.min(50 * 2 ** attempt, 500)))
      }
    }
  }

  return {
    retry,
    durable: (key, write) =>
      // The write and its WAIT together: a master lost between them may have lost the write, so
      // it is made again (every durable write may be repeated: see the callers).
      retry(async () => {
        const result = await write()
        await options.replicate?.(key)
        return result
      }),
    ready: () =>
      cluster.isReady &&
      (troubleSince === undefined ||
        allMastersReady() ||
        Date.now() - troubleSince < options.failoverTimeoutMs),
    onBack(listener) {
      backListeners.add(listener)
      return () => backListeners.delete(listener)
    },
    close() {
      closed = true
      clearInterval(checking)
      backListeners.clear()
    },
  }
}
