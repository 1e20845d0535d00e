// The TTL cache for resources that declare `ttlMs`: one entry per concrete URI and owner (a
// principal for private resources, none for public ones), bounded, and single-flight (concurrent
// cold reads of one entry share one load).
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
  /** `owner` keeps the entry to one principal (private resources); without it the entry is shared. */
  read(
    uri: string,
    ttlMs: number,
    load: () => Promise<ReadResourceResult>,
    owner?: string,
  ): Promise<ReadResourceResult>
  /** Drops every entry of `uri`, whoever owns it. */
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
    read(uri, ttlMs, load, owner) {
      const key = `${owner ?? ''}\n${uri}`
      const entry = entries.get(key)
      if (entry !== undefined) {
        if (now() < entry.expiresAt) return Promise.resolve(entry.result)
        entries.delete(key)
      }
      const pending = loads.get(key)
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
            entries.set(key, { result: stamped, expiresAt: fetchedAt + ttlMs })
            // Maps keep insertion order: the first key is the oldest entry.
            if (entries.size > maximumEntries) entries.delete(entries.keys().next().value as string)
          }
          return stamped
        })
        .finally(() => {
          if (loads.get(key) === current) loads.delete(key)
        })
      loads.set(key, current)
      return current.promise
    },
    invalidate(uri) {
      const suffix = `\n${uri}`
      for (const key of [...entries.keys()]) if (key.endsWith(suffix)) entries.delete(key)
      for (const [key, pending] of [...loads]) {
        if (!key.endsWith(suffix)) continue
        pending.stale = true
        loads.delete(key)
      }
    },
  }
}
