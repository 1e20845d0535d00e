// Task status notifications (SEP-2663 `notifications/tasks`): a `subscriptions/listen` request
// may name task ids; the server agrees to those it knows for the caller, then sends each one's
// full state (what `tasks/get` would answer) now and whenever it changes, until it ends. Changes
// come from the TaskStore's watch, so a task run by another instance is followed too.

import type { ClientCapabilities } from '../context.js'
import type { TaskManager } from './manager.js'
import { isTerminal, type TaskRecord } from './store.js'
import { declaresTasks, detailedTask, tasksNotDeclared } from './wire.js'

export interface TaskFollower {
  /** The task ids this subscription reports on (the caller's tasks that exist). */
  agreed: string[]
  /** Sends each task's state now and on every change until it ends; returns a function to stop. */
  begin(send: (task: Record<string, unknown>) => void): () => void
}

/** Agrees to follow the caller's `taskIds`; -32021 when the request did not declare the extension. */
export async function followTasks(
  manager: TaskManager,
  taskIds: readonly string[],
  capabilities: ClientCapabilities,
  principal: string | undefined,
): Promise<TaskFollower> {
  if (!declaresTasks(capabilities)) throw tasksNotDeclared('notifications about tasks')
  const agreed: string[] = []
  for (const taskId of taskIds) {
    try {
      await manager.find(taskId, principal)
      agreed.push(taskId)
    } catch {
      // Unknown, expired or someone else's: not agreed to (and not told apart).
    }
  }
  return {
    agreed,
    begin(send) {
      const following = new Set(agreed)
      const lastSent = new Map<string, { at: number; status: string }>()
      const report = (record: TaskRecord) => {
        if (!following.has(record.taskId)) return
        const last = lastSent.get(record.taskId)
        // A lease renewal changes nothing a client sees; a late read must not undo a newer state.
        if (
          last !== undefined &&
          (record.lastUpdatedAt < last.at ||
            (record.lastUpdatedAt === last.at && record.status === last.status))
        ) {
          return
        }
        lastSent.set(record.taskId, { at: record.lastUpdatedAt, status: record.status })
        if (isTerminal(record.status)) following.delete(record.taskId)
        send(detailedTask(record, Date.now()))
      }
      const stop = manager.store.watch(report, (taskId) => following.has(taskId))
      for (const taskId of agreed) {
        manager.store.get(taskId).then(
          (record) => record && report(record),
          () => {},
        )
      }
      return stop
    },
  }
}
