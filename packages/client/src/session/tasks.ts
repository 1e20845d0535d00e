// How a session follows a task a tool call became: through its channel with the call's options, stopped by
// the session's limits and the caller's signal, woken early by the server's notices about the task.

import type { CallToolResult } from '@modelcontextprotocol/client'
import { callInput } from '../protocol/input.js'
import { followTask, type TaskLink, type TaskState } from '../protocol/tasks.js'
import type { SessionChannel } from './channel.js'
import { describeLimit, limitOption } from './errors.js'
import type { CallOptions } from './types.js'

/** Follows a task with the session's limits; a failed task's error reads like a failed call's. */
export async function followWithinLimits(
  channel: SessionChannel,
  taskNotices: Map<string, Set<() => void>>,
  what: string,
  task: TaskState,
  options: CallOptions,
): Promise<CallToolResult> {
  const limits = channel.limits
  const signal = channel.withOwn(
    options.signal === undefined ? limits.signal : AbortSignal.any([limits.signal, options.signal]),
  ) as AbortSignal
  const link: TaskLink = {
    era: channel.era,
    input: callInput(options.input, channel.options.input),
    request: (label, method, params, timeoutMs) =>
      channel.request(label, method, params, {
        ...options,
        onProgress: undefined,
        timeoutMs: timeoutMs ?? options.timeoutMs,
      }),
    notices: (taskId, wake) => noticesOf(channel, taskNotices, taskId, wake),
    // Not the caller's signal nor the session's limits: they are why the task is cancelled.
    cancel: async (taskId) => {
      const timeoutMs = Math.min(options.timeoutMs ?? channel.options.callTimeoutMs, 5000)
      await channel.connection.request('tasks/cancel', { taskId }, { timeoutMs })
    },
  }
  try {
    return await followTask(link, task, { what, signal, onTask: options.onTask })
  } catch (error) {
    const stopReason = channel.stopReason
    if (stopReason !== undefined && error === limits.signal.reason)
      throw describeLimit(
        stopReason,
        what,
        options.timeoutMs ?? channel.options.callTimeoutMs,
        limitOption(options),
      )
    throw channel.failure(
      error,
      what,
      options.timeoutMs ?? channel.options.callTimeoutMs,
      signal,
      limitOption(options),
    )
  }
}

/**
 * Wakes `wake` on the server's notices about a task: 2026-07-28 `notifications/tasks` on a
 * `subscriptions/listen` for it, 2025-11-25 `notifications/tasks/status` (sent or not).
 */
function noticesOf(
  channel: SessionChannel,
  notices: Map<string, Set<() => void>>,
  taskId: string,
  wake: () => void,
): () => void {
  let listeners = notices.get(taskId)
  if (listeners === undefined) {
    listeners = new Set()
    notices.set(taskId, listeners)
  }
  listeners.add(wake)
  const listening = new AbortController()
  if (channel.era === 'modern') {
    channel.connection
      .request(
        'subscriptions/listen',
        { notifications: { taskIds: [taskId] } },
        { timeoutMs: 0, signal: listening.signal },
      )
      .catch(() => {})
  }
  return () => {
    listening.abort()
    listeners.delete(wake)
    if (listeners.size === 0) notices.delete(taskId)
  }
}
