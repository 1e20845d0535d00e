// The upkeep of a server instance's tasks, on one timer: renewing the lease of each task running
// here (so other instances know its owner is alive) and dropping records whose keep time ran out.

import { isTerminal, type TaskStore } from './task-store.js'

/** Starts the timer (unref'd: it never keeps a process alive); returns a function to stop it. */
export function startUpkeep(
  store: TaskStore,
  leaseMs: number,
  running: () => Iterable<string>,
  report?: (error: Error) => void,
): () => void {
  const tick = async () => {
    try {
      const until = Date.now() + leaseMs
      for (const taskId of running()) {
        await store.update(taskId, (current) =>
          isTerminal(current.status) ? undefined : { ...current, leaseExpiresAt: until },
        )
      }
      await store.expire(Date.now())
    } catch (error) {
      report?.(new Error(`task upkeep failed: ${(error as Error).message}`))
    }
  }
  const timer = setInterval(() => void tick(), Math.max(1000, Math.floor(leaseMs / 3)))
  timer.unref()
  return () => clearInterval(timer)
}
