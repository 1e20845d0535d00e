// Where a gateway remembers what its upstreams offer, so that on the next start it can list them
// without starting them (lazy start). One JSON file per upstream launch spec, written atomically;
// an unreadable file is treated as missing.

import { createHash } from 'node:crypto'
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'
import type { Discovery, DiscoveryCache } from '../types.js'

/** `$XDG_CACHE_HOME/mcp-kit/gateway` (or `~/.cache/mcp-kit/gateway`). */
export function defaultDiscoveryCacheDir(
  env: Readonly<Record<string, string | undefined>> = process.env,
): string {
  const base = env.XDG_CACHE_HOME || join(homedir(), '.cache')
  return join(base, 'mcp-kit', 'gateway')
}

/** A discovery cache keeping each upstream's lists in a file of its own under `dir`. */
export function fileDiscoveryCache(dir: string): DiscoveryCache {
  const fileOf = (key: string) =>
    join(dir, `${createHash('sha256').update(key).digest('hex').slice(0, 32)}.json`)
  return {
    get(key) {
      try {
        const value = JSON.parse(readFileSync(fileOf(key), 'utf8')) as Discovery & { key?: string }
        if (value.key !== key || !Array.isArray(value.tools)) return undefined
        return value
      } catch {
        return undefined
      }
    },
    set(key, discovery) {
      try {
        mkdirSync(dir, { recursive: true, mode: 0o700 })
        const file = fileOf(key)
        const temporary = `${file}.${process.pid}.tmp`
        writeFileSync(temporary, JSON.stringify({ key, ...discovery }), { mode: 0o600 })
        renameSync(temporary, file)
      } catch {
        // A cache that cannot be written only costs a start next time.
      }
    },
  }
}
