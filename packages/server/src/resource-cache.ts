// The TTL cache for resources that declare `ttlMs`: one entry per concrete URI, shared by every
// session of a runtime, bounded, and single-flight (concurrent cold reads share one load).
// What it returns carries `_meta.fetched_at`, the ISO time the content was read.

import type { ReadResourceResult } from '@modelcontextprotocol/server'

interface Entry {
  result: ReadResourceResult
  expiresAt: number
}

interface Load {
  promise: Promise<ReadResourceResult>
  /** Set when the resource was invalidated while loading: the result is returned but not kept. */
  stale: boolean
}

export interface ResourceCache {
  read(uri: string, ttlMs: number, load: () => Promise<ReadResourceResult>): Promise<ReadResourceResult>
  invalidate(uri: string): void
  readonly size: number
}

export function createResourceCache(now: () => number, maximumEntries = 1000): ResourceCache {
  const entries = new Map<string, Entry>()
  const loads = new Map<string, Load>()

  return {
    get size() {
      return entries.size
    },
    read(uri, ttlMs, load) {
      const entry = entries.get(uri)
      if (entry !== undefined) {
        if (now() < entry.expiresAt) return Promise.resolve(entry.result)
        entries.delete(uri)
      }
      const pending = loads.get(uri)
      if (pending !== undefined) return pending.promise
      const current: Load = { promise: undefined as never, stale: false }
      current.promise = load()
        .then((result) => {
          const fetchedAt = now()
          const stamped: ReadResourceResult = {
            ...result,
            _meta: { ...result._meta, fetched_at: new Date(fetchedAt).toISOString() },
          }
          if (!current.stale) {
            entries.set(uri, { result: stamped, expiresAt: fetchedAt + ttlMs })
            // Maps keep insertion order: the first key is the oldest entry.
            if (entries.size > maximumEntries) entries.delete(entries.keys().next().value as string)
          }
          return stamped
        })
        .finally(() => {
          if (loads.get(uri) === current) loads.delete(uri)
        })
      loads.set(uri, current)
      return current.promise
    },
    invalidate(uri) {
      entries.delete(uri)
      const pending = loads.get(uri)
      if (pending !== undefined) {
        pending.stale = true
        loads.delete(uri)
      }
    },
  }
}
