// Waiting until a replica has a write (WAIT), the way a database commits a group: WAIT covers
// every write its connection made before it, and blocks that connection while it waits, so the
// writes answered while one WAIT is out are covered together by the next one (at most one WAIT
// out and one queued per master), instead of each write queueing behind every other's WAIT.
// The writes that wait have connections of their own (the store's second cluster client), so
// reads and writes that need no replica never queue behind a WAIT.

/** The parts of a cluster client that wait for replicas. */
export interface WaitingCluster {
  readonly masters: ReadonlyArray<{ address: string; client?: unknown }>
  getNodeClientForKey(key: string): Promise<{ sendCommand(words: string[]): Promise<unknown> }>
}

export interface ReplicaWaitOptions {
  /** Replicas that must acknowledge (0: none, nothing waits). */
  replicas: number
  waitTimeoutMs: number
  report?: (error: Error) => void
}

/** How long a master whose replica did not acknowledge in time is not waited for. */
const lackingMs = 5000

interface NodeWaits {
  /** The WAIT sent and not answered yet. */
  out?: Promise<number>
  /** The WAIT that goes once `out` is answered, for writes answered meanwhile. */
  queued?: Promise<number>
  /** Until when this master is not waited for (its replica did not answer in time). */
  lackingUntil: number
}

/** Returns `replicate(key)`: resolves once the write just answered for `key` reached the replicas. */
export function replicaWaits(
  writer: WaitingCluster,
  options: ReplicaWaitOptions,
): (key: string) => Promise<void> {
  const nodes = new WeakMap<object, NodeWaits>()
  const words = ['WAIT', String(options.replicas), String(options.waitTimeoutMs)]

  const send = (node: { sendCommand(words: string[]): Promise<unknown> }, state: NodeWaits) => {
    const out = node.sendCommand(words).then(Number)
    state.out = out
    void out.then(
      () => {
        if (state.out === out) state.out = undefined
      },
      () => {
        if (state.out === out) state.out = undefined
      },
    )
    return out
  }

  return async (key) => {
    if (options.replicas === 0) return
    const node = await writer.getNodeClientForKey(key)
    let state = nodes.get(node)
    if (state === undefined) {
      state = { lackingUntil: 0 }
      nodes.set(node, state)
    }
    if (state.lackingUntil > Date.now()) return
    const current = state
    // The write was answered before any WAIT sent from now on: the next one covers it.
    let acknowledged: number
    if (current.queued !== undefined) acknowledged = await current.queued
    else if (current.out !== undefined) {
      const queued = current.out
        .catch(() => 0)
        .then(() => {
          current.queued = undefined
          return send(node, current)
        })
      current.queued = queued
      acknowledged = await queued
    } else acknowledged = await send(node, current)
    if (acknowledged >= options.replicas || current.lackingUntil > Date.now()) return
    current.lackingUntil = Date.now() + lackingMs
    const address = writer.masters.find((master) => master.client === node)?.address ?? 'a master'
    options.report?.(
      new Error(
        `redis cluster: a write to ${address} reached ${acknowledged} of ${options.replicas} replicas within ${options.waitTimeoutMs} ms (it has none in sync?): a failover of that master could lose it; not waiting there for ${lackingMs / 1000} s`,
      ),
    )
  }
}
