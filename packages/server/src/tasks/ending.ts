// How the end of a task's work reaches the store. The end is the one write whose loss costs a
// result, so it is made to land: a store that lost the record (Redis restarted empty) gets it
// written whole from what the owner knew, and a store that is away is tried again by the caller
// (TaskManager keeps the task as its own, lease renewed, until the store took its end).

import { isTerminal, type TaskRecord, type TaskStore } from './store.js'

/** `current` ended now with `fields` (status, result or error): kept `keepMs` from now. */
export function ended(current: TaskRecord, fields: Partial<TaskRecord>, now: number): TaskRecord {
  return {
    ...current,
    ...fields,
    inputRequests: undefined,
    inputResponses: undefined,
    lastUpdatedAt: now,
    endedAt: now,
    expiresAt: now + current.keepMs,
  }
}

/**
 * Ends the task unless it already ended; resolves to the stored record, or undefined when there
 * is none (never created, or expired).
 */
export function endTask(
  store: TaskStore,
  taskId: string,
  fields: Partial<TaskRecord>,
): Promise<TaskRecord | undefined> {
  return store.update(taskId, (current) =>
    isTerminal(current.status) ? undefined : ended(current, fields, Date.now()),
  )
}

/**
 * Stores the end of a task this instance ran, `known` being its record as last seen: ends the
 * stored record, or writes it whole when the store no longer has it. Rejects when the store
 * cannot be reached (the caller tries again).
 */
export async function storeEnd(
  store: TaskStore,
  known: TaskRecord,
  fields: Partial<TaskRecord>,
): Promise<void> {
  if ((await endTask(store, known.taskId, fields)) !== undefined) return
  try {
    await store.create(ended(known, fields, Date.now()))
  } catch (error) {
    // Written back meanwhile (the owner's write-back on reconnect): end that one.
    if ((await endTask(store, known.taskId, fields)) === undefined) throw error
  }
}
