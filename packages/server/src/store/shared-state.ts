// What a server takes from its Store: the key that signs 2026 `requestState` (the first instance
// to start makes it; the others read it, so a retry may land on any of them), and a change feed
// through the store's pub/sub (every instance publishes its registry's changes and hears
// everyone's, its own included, so each subscriptions/listen stream gets each change once).

import { randomBytes, randomUUID } from 'node:crypto'
import type { RegistryEvent, ToolRegistry } from '../registry/registry.js'
import type { ChangeFeed } from '../server/subscriptions.js'
import type { Store } from './store.js'

const stateKeyName = 'request-state-key'
const changesChannel = 'changes'

/**
 * The shared key. Written back whenever the store returns, as a Redis restart without
 * persistence forgets it: every running instance holds the same key, so whichever writes first
 * restores it, and instances started later read it.
 */
export async function sharedStateKey(store: Store): Promise<string> {
  await store.setIfAbsent(stateKeyName, randomBytes(32).toString('base64url'))
  const key = await store.get(stateKeyName)
  if (key === undefined) throw new Error('the store lost the request-state key as it was written')
  store.onReconnect(() => {
    store.setIfAbsent(stateKeyName, key).catch(() => {})
  })
  return key
}

export interface SharedChangeFeed extends ChangeFeed {
  close(): Promise<void>
}

export async function sharedChangeFeed(
  store: Store,
  registry: ToolRegistry,
  report?: (error: Error) => void,
): Promise<SharedChangeFeed> {
  const listeners = new Set<(event: RegistryEvent) => void>()
  const unsubscribe = await store.subscribe(changesChannel, (message) => {
    let event: RegistryEvent
    try {
      event = JSON.parse(message) as RegistryEvent
    } catch {
      return
    }
    for (const listener of listeners) listener(event)
  })
  const stopPublishing = registry.onChange((event) => {
    // The id lets instances that each relay a change to one 2025 session send it once.
    store.publish(changesChannel, JSON.stringify({ ...event, id: randomUUID() })).catch((error: unknown) => {
      report?.(new Error(`cannot publish a change to the store: ${(error as Error).message}`))
    })
  })
  return {
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    async close() {
      stopPublishing()
      listeners.clear()
      await unsubscribe()
    },
  }
}
