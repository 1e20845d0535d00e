// Riding out a Redis Cluster failover. A master that dies is replaced by its replica within the
// cluster's node timeout; meanwhile a command for its slots fails (the connection is gone, the
// client's queue for that node is dropped once the new topology is read, the cluster answers
// CLUSTERDOWN while the replica is elected). Such a command is sent again until the new master
// answers or the failover time runs out. A write that must survive the next failover waits
// (WAIT) until a replica has it; a shard whose replica does not answer in time (it is the one
// that was promoted and has no replica yet) is not waited for again for a while, and the
// operator is told. Readiness and "the store came back" follow the masters' connections.

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
  getNodeClientForKey(key: string): Promise<{ sendCommand(words: string[]): Promise<unknown> }>
  on(event: string, listener: (...args: never[]) => void): unknown
}

export interface FailoverOptions {
  /** How long a command keeps being sent again (the node timeout and an election, with room). */
  failoverTimeoutMs: number
  /** Replicas that must acknowledge a durable write (0: none). */
  replicas: number
  waitTimeoutMs: number
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
/** How long a shard whose replica did not acknowledge a write is not waited for. */
const lackingMs = 5000

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
  const lacking = new WeakMap<object, number>()

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

  /** WAIT on the connection that made the write (the client has one per master). */
  const replicate = async (key: string) => {
    if (options.replicas === 0) return
    const node = await cluster.getNodeClientForKey(key)
    if ((lacking.get(node) ?? 0) > Date.now()) return
    const acknowledged = Number(
      await node.sendCommand(['WAIT', String(options.replicas), String(options.waitTimeoutMs)]),
    )
    if (acknowledged >= options.replicas) return
    lacking.set(node, Date.now() + lackingMs)
    const address =
      cluster.masters.find((master) => (master.client as object | undefined) === node)?.address ?? 'a master'
    options.report?.(
      new Error(
        `redis cluster: a write to ${address} reached ${acknowledged} of ${options.replicas} replicas within ${options.waitTimeoutMs} ms (it has none in sync?): a failover of that master could lose it; not waiting there for ${lackingMs / 1000} s`,
      ),
    )
  }

  return {
    retry,
    durable: (key, write) =>
      // The write and its WAIT together: a master lost between them may have lost the write, so
      // it is made again (every durable write may be repeated: see the callers).
      retry(async () => {
        const result = await write()
        await replicate(key)
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
