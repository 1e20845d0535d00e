// The upkeep of a server instance's tasks, on one timer: renewing the lease of each task running
// here (so other instances know its owner is alive) and dropping records whose keep time ran out;
// and, when a shared store comes back without them, writing back the records of those tasks.

import { isTerminal, type TaskRecord, type TaskStore } from './store.js'

/**
 * One round of upkeep: renews the lease of each task running here (one write each) and drops
 * what expired (`TaskStore.expire`). Reads no other record: its cost follows the tasks running
 * here, not the tasks kept.
 */
export async function upkeepOnce(
  store: TaskStore,
  leaseMs: number,
  running: Iterable<string>,
): Promise<void> {
  for (const taskId of running) {
    // The lease counts from the write (a store that was away delays it).
    await store.update(taskId, (current) =>
      isTerminal(current.status) ? undefined : { ...current, leaseExpiresAt: Date.now() + leaseMs },
    )
  }
  await store.expire(Date.now())
}

/** Starts the timer (unref'd: it never keeps a process alive); returns a function to stop it. */
export function startUpkeep(
  store: TaskStore,
  leaseMs: number,
  running: () => Iterable<string>,
  report?: (error: Error) => void,
): () => void {
  // One tick at a time: while the store is away its commands wait, and ticks must not pile up.
  let busy = false
  const tick = async () => {
    if (busy) return
    busy = true
    try {
      await upkeepOnce(store, leaseMs, running())
    } catch (error) {
      report?.(new Error(`task upkeep failed: ${(error as Error).message}`))
    } finally {
      busy = false
    }
  }
  // Three renewals per lease: a late tick or two does not let the lease run out under a live owner.
  const timer = setInterval(() => void tick(), Math.max(100, Math.floor(leaseMs / 3)))
  timer.unref()
  return () => clearInterval(timer)
}

/**
 * Writes back the records of tasks running here that the store no longer has (it came back
 * empty), each as last seen with a fresh lease; a record that is there is left alone. Resolves
 * to how many were written back.
 */
export async function restoreRecords(
  store: TaskStore,
  leaseMs: number,
  running: readonly TaskRecord[],
  report?: (error: Error) => void,
): Promise<number> {
  let restored = 0
  for (const record of running) {
    try {
      if ((await store.get(record.taskId)) !== undefined) continue
      await store.create({ ...record, leaseExpiresAt: Date.now() + leaseMs })
      restored += 1
    } catch (error) {
      // Another write got there first (the record exists again), or the store went away again.
      if ((await store.get(record.taskId).catch(() => undefined)) === undefined)
        report?.(new Error(`cannot write back task ${record.taskId}: ${(error as Error).message}`))
    }
  }
  return restored
}
