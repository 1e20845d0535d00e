// `subscriptions/listen` (MCP 2026-07-28): a long-lived request whose response stream carries
// the change notifications a client opted in to — list changes and updates of named resources —
// each tagged with the subscription's id (the request's JSON-RPC id). It starts with
// `notifications/subscriptions/acknowledged` and ends when the client goes away (or cancels),
// or, gracefully, when the server shuts down. Changes come from a ChangeFeed: the registry's own
// events in one process, a store's pub/sub across instances.

import { isRecord } from '@mcp-kit/core'
import { metaKeys } from '../protocol/meta-keys.js'
import { checkNesting } from '../protocol/params.js'
import { invalidParams, type RequestId, type RpcNotification } from '../protocol/rpc.js'
import type { RegistryEvent } from '../registry/registry.js'
import type { TaskFollower } from '../tasks/notifications.js'

/** A source of registry change events (in-process, or fanned out from other instances). */
export interface ChangeFeed {
  subscribe(listener: (event: RegistryEvent) => void): () => void
}

interface Filter {
  toolsListChanged?: boolean
  promptsListChanged?: boolean
  resourcesListChanged?: boolean
  resourceSubscriptions?: string[]
  /** Tasks whose status changes to report (the tasks extension, SEP-2663). */
  taskIds?: string[]
}

/** Follows tasks for a subscription (tasks/notifications.ts), bound to the request's caller. */
export type TaskFollowing = (taskIds: string[]) => Promise<TaskFollower>

const listFlags = ['toolsListChanged', 'promptsListChanged', 'resourcesListChanged'] as const
const maximumSubscribedUris = 1000

function filterOf(params: Record<string, unknown>): Filter {
  const requested = params.notifications
  if (requested === undefined) return {}
  if (!isRecord(requested)) throw invalidParams("'notifications' must be an object")
  const filter: Filter = {}
  for (const flag of listFlags) {
    const value = requested[flag]
    if (value === undefined) continue
    if (typeof value !== 'boolean') throw invalidParams(`'notifications.${flag}' must be a boolean`)
    if (value) filter[flag] = true
  }
  const uris = requested.resourceSubscriptions
  if (uris !== undefined) {
    if (!Array.isArray(uris) || uris.some((uri) => typeof uri !== 'string')) {
      throw invalidParams("'notifications.resourceSubscriptions' must be an array of URIs")
    }
    if (uris.length > maximumSubscribedUris) {
      throw invalidParams(
        `'notifications.resourceSubscriptions' may name at most ${maximumSubscribedUris} URIs`,
      )
    }
    filter.resourceSubscriptions = [...new Set(uris as string[])]
  }
  const taskIds = requested.taskIds
  if (taskIds !== undefined) {
    if (!Array.isArray(taskIds) || taskIds.some((taskId) => typeof taskId !== 'string')) {
      throw invalidParams("'notifications.taskIds' must be an array of task ids")
    }
    if (taskIds.length > maximumSubscribedUris) {
      throw invalidParams(`'notifications.taskIds' may name at most ${maximumSubscribedUris} tasks`)
    }
    filter.taskIds = [...new Set(taskIds as string[])]
  }
  return filter
}

const listMethod = {
  tools: 'notifications/tools/list_changed',
  prompts: 'notifications/prompts/list_changed',
  resources: 'notifications/resources/list_changed',
} as const

const listFlag = {
  tools: 'toolsListChanged',
  prompts: 'promptsListChanged',
  resources: 'resourcesListChanged',
} as const

/**
 * Serves one subscription until `io.signal` (the client went away) or `closing` (shutdown)
 * aborts. Notifications go out through `io.notify`.
 */
export async function listen(
  id: RequestId,
  params: Record<string, unknown>,
  changes: ChangeFeed,
  io: { signal: AbortSignal; notify(message: RpcNotification): Promise<void> },
  closing: AbortSignal,
  watchResource?: (uri: string) => () => void,
  followTasks?: TaskFollowing,
  followable?: (uri: string) => boolean,
): Promise<void> {
  checkNesting(params)
  const filter = filterOf(params)
  // URIs the caller cannot see are left out of what is agreed, as unknown task ids are.
  if (filter.resourceSubscriptions !== undefined && followable !== undefined)
    filter.resourceSubscriptions = filter.resourceSubscriptions.filter((uri) => followable(uri))
  const tag = { [metaKeys.subscriptionId]: id }
  const send = (method: string, extra?: Record<string, unknown>) =>
    io.notify({ jsonrpc: '2.0', method, params: { ...extra, _meta: tag } }).catch(() => {})
  let tasks: TaskFollower | undefined
  if (filter.taskIds !== undefined) {
    tasks = followTasks === undefined ? undefined : await followTasks(filter.taskIds)
    filter.taskIds = tasks?.agreed ?? []
  }
  const uris = new Set(filter.resourceSubscriptions ?? [])
  // List changes that arrive together go out once (one per list per tick).
  const pending = new Set<keyof typeof listMethod>()
  let flushing = false
  const flush = () => {
    flushing = false
    for (const list of pending) void send(listMethod[list])
    pending.clear()
  }
  await send('notifications/subscriptions/acknowledged', { notifications: filter })
  if (io.signal.aborted || closing.aborted) return
  const unwatch = watchResource === undefined ? [] : [...uris].map((uri) => watchResource(uri))
  if (tasks !== undefined) unwatch.push(tasks.begin((task) => void send('notifications/tasks', task)))
  const unsubscribe = changes.subscribe((event) => {
    if (event.type === 'resource_updated') {
      if (uris.has(event.uri)) void send('notifications/resources/updated', { uri: event.uri })
      return
    }
    if (!filter[listFlag[event.list]]) return
    pending.add(event.list)
    if (!flushing) {
      flushing = true
      queueMicrotask(flush)
    }
  })
  await new Promise<void>((resolve) => {
    const done = () => {
      io.signal.removeEventListener('abort', done)
      closing.removeEventListener('abort', done)
      resolve()
    }
    io.signal.addEventListener('abort', done, { once: true })
    closing.addEventListener('abort', done, { once: true })
  })
  unsubscribe()
  for (const stop of unwatch) stop()
}
