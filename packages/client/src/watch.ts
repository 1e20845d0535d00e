// Watching a server for changes, in whichever era it speaks: under 2026-07-28 a
// `subscriptions/listen` request whose stream carries the notifications the client opted in to
// (tagged with the subscription's id); under 2025-11-25 the notifications a session receives
// anyway (list changes; on HTTP through the standalone GET stream) plus `resources/subscribe`
// for the resources named.

export interface WatchOptions {
  /** Tool, prompt and resource list changes (default true). */
  lists?: boolean
  /** Resource URIs to hear updates of. */
  resources?: readonly string[]
  signal?: AbortSignal
}

export interface WatchedNotification {
  method: string
  params: Record<string, unknown> | undefined
}

/** Notifications a watch reports (request-scoped ones like progress are not). */
export const watchedMethods: ReadonlySet<string> = new Set([
  'notifications/tools/list_changed',
  'notifications/prompts/list_changed',
  'notifications/resources/list_changed',
  'notifications/resources/updated',
  'notifications/subscriptions/acknowledged',
])
