// Remembers the era a server speaks, per launch (stdio) or URL (HTTP), so a 2025-only server is not probed
// on every connect (spec 2026-07-28 versioning lets clients persist it). connect() keeps it in memory
// unless given a file cache: a library writes nothing into its user's home unasked. A file that
// fails only costs a probe.

import { createHash } from 'node:crypto'
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { dirname, join } from 'node:path'
import type { Era } from '@mcp-kit/core'
import type { ServerSpec } from '../server-spec.js'

export interface EraCache {
  get(server: ServerSpec): Era | undefined
  set(server: ServerSpec, era: Era): void
}

const maximumEntries = 500

/** The cache file: `$MCP_KIT_CACHE_DIR`, else `$XDG_CACHE_HOME/mcp-kit`, else `~/.cache/mcp-kit`. */
export function defaultEraCachePath(env: Readonly<Record<string, string | undefined>> = process.env): string {
  const directory =
    env.MCP_KIT_CACHE_DIR ?? join(env.XDG_CACHE_HOME ?? join(env.HOME ?? homedir(), '.cache'), 'mcp-kit')
  return join(directory, 'eras.json')
}

/** What identifies "the same server": its launch (command, arguments, directory) or its URL. */
export function serverKey(server: ServerSpec): string {
  const identity =
    server.transport === 'stdio'
      ? ['stdio', server.command, ...server.args, server.cwd ?? '']
      : ['http', server.url]
  return createHash('sha256').update(JSON.stringify(identity)).digest('base64url').slice(0, 32)
}

interface Entry {
  era: Era
  at: number
}

/** Verdicts kept in this process only. */
export function memoryEraCache(): EraCache {
  const entries = new Map<string, Era>()
  return {
    get: (server) => entries.get(serverKey(server)),
    set(server, era) {
      const key = serverKey(server)
      entries.delete(key)
      entries.set(key, era)
      // The oldest go first, as in the file.
      for (const old of entries.keys()) {
        if (entries.size <= maximumEntries) break
        entries.delete(old)
      }
    },
  }
}

/** connect()'s cache when given none: one per process, in memory. */
export const processEraCache: EraCache = /* @__PURE__ */ memoryEraCache()

/** Verdicts kept in a JSON file (default `defaultEraCachePath()`), shared by every process that uses it. */
export function fileEraCache(path: string = defaultEraCachePath()): EraCache {
  let entries: Record<string, Entry> | undefined
  const load = (): Record<string, Entry> => {
    if (entries !== undefined) return entries
    try {
      const parsed = JSON.parse(readFileSync(path, 'utf8')) as unknown
      entries = typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, Entry>) : {}
    } catch {
      entries = {}
    }
    return entries
  }
  return {
    get(server) {
      const entry = load()[serverKey(server)]
      return entry?.era === 'legacy' || entry?.era === 'modern' ? entry.era : undefined
    },
    set(server, era) {
      const all = load()
      const key = serverKey(server)
      if (all[key]?.era === era) return
      all[key] = { era, at: Date.now() }
      const keys = Object.keys(all)
      if (keys.length > maximumEntries) {
        keys.sort((a, b) => (all[a]?.at ?? 0) - (all[b]?.at ?? 0))
        for (const old of keys.slice(0, keys.length - maximumEntries)) delete all[old]
      }
      try {
        mkdirSync(dirname(path), { recursive: true, mode: 0o700 })
        const temporary = `${path}.${process.pid}.tmp`
        writeFileSync(temporary, `${JSON.stringify(all)}\n`, { mode: 0o600 })
        renameSync(temporary, path)
      } catch {
        // A read-only home or a full disk only costs a probe next time.
      }
    },
  }
}

/** No memory at all: every connect probes (tests; a pinned `protocol` needs none). */
export const noEraCache: EraCache = { get: () => undefined, set: () => {} }
