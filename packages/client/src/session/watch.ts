// Watching a server for changes in either era: under 2026-07-28 a `subscriptions/listen` request held
// open; under 2025-11-25 the notifications a session receives anyway, plus `resources/subscribe`.

import type { SessionChannel } from './channel.js'
import { neverAborted } from './channel.js'
import type { WatchedNotification } from './types.js'

export type { WatchedNotification } from './types.js'

export interface WatchOptions {
  /** Tool, prompt and resource list changes (default true). */
  lists?: boolean | undefined
  /** Resource URIs to hear updates of. */
  resources?: readonly string[] | undefined
  signal?: AbortSignal | undefined
}

/** Notifications a watch reports (request-scoped ones like progress are not). */
export const watchedMethods: ReadonlySet<string> = new Set([
  'notifications/tools/list_changed',
  'notifications/prompts/list_changed',
  'notifications/resources/list_changed',
  'notifications/resources/updated',
  'notifications/subscriptions/acknowledged',
])

/** Reports change notifications until `options.signal` aborts or the connection ends (`closed`). */
export async function watchChanges(
  channel: SessionChannel,
  watchers: Set<(notification: WatchedNotification) => void>,
  closed: Promise<void>,
  onNotification: (notification: WatchedNotification) => void,
  options: WatchOptions,
): Promise<void> {
  const lists = options.lists ?? true
  const resources = [...(options.resources ?? [])]
  const signal = channel.withOwn(options.signal ?? channel.options.signal) ?? neverAborted
  watchers.add(onNotification)
  try {
    if (channel.era === 'modern') {
      const notifications: Record<string, unknown> = {}
      if (lists) {
        notifications.toolsListChanged = true
        notifications.promptsListChanged = true
        notifications.resourcesListChanged = true
      }
      if (resources.length > 0) notifications.resourceSubscriptions = resources
      try {
        await channel.connection.request('subscriptions/listen', { notifications }, { timeoutMs: 0, signal })
      } catch (error) {
        if (signal.aborted) return
        throw channel.failure(error, 'subscriptions/listen', 0, signal)
      }
      return
    }
    for (const uri of resources)
      await channel.request(`resources/subscribe '${uri}'`, 'resources/subscribe', { uri }, {})
    // Until the caller stops, the session's own limits (the total time) run out, or the server goes.
    const limits = channel.limits.signal
    await new Promise<void>((resolve) => {
      if (signal.aborted || limits.aborted) return resolve()
      signal.addEventListener('abort', () => resolve(), { once: true })
      limits.addEventListener('abort', () => resolve(), { once: true })
      void closed.then(resolve)
    })
    const stopped = channel.stopReason
    if (!signal.aborted && stopped !== undefined && stopped.code === 'timeout') throw stopped
  } finally {
    watchers.delete(onNotification)
  }
}
