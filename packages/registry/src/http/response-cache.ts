// Answers kept for the next time: the body, its ETag and when it was stored, by request key. The
// client revalidates with If-None-Match (a 304 costs no body) and falls back on a kept answer when
// the registry cannot be reached. Files are written whole (a temporary file renamed), so a reader
// never sees half of one; the directory is the user's own (0700).

import { createHash, randomBytes } from 'node:crypto'
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { homedir } from 'node:os'
import { join } from 'node:path'

export interface CachedResponse {
  /** The request's URL, for people reading the cache. */
  url: string
  etag?: string
  body: string
  /** Milliseconds since the epoch. */
  storedAt: number
}

export interface ResponseCache {
  read(key: string): Promise<CachedResponse | undefined>
  write(key: string, response: CachedResponse): Promise<void>
}

/** A cache that lives as long as the process (the default: a library writes nothing unasked). */
export function memoryResponseCache(): ResponseCache {
  const entries = new Map<string, CachedResponse>()
  return {
    read: async (key) => entries.get(key),
    write: async (key, response) => {
      entries.set(key, response)
    },
  }
}

/** `$MCP_KIT_CACHE_DIR/registry`, else `$XDG_CACHE_HOME/mcp-kit/registry`, else `~/.cache/mcp-kit/registry`. */
export function defaultRegistryCacheDir(
  env: Readonly<Record<string, string | undefined>> = process.env,
): string {
  const base =
    env.MCP_KIT_CACHE_DIR ?? join(env.XDG_CACHE_HOME ?? join(env.HOME ?? homedir(), '.cache'), 'mcp-kit')
  return join(base, 'registry')
}

/** One JSON file per key under `directory`; unreadable files are misses, not errors. */
export function fileResponseCache(directory: string): ResponseCache {
  const pathOf = (key: string) =>
    join(directory, `${createHash('sha256').update(key).digest('hex').slice(0, 40)}.json`)
  return {
    async read(key) {
      try {
        const parsed = JSON.parse(await readFile(pathOf(key), 'utf8')) as CachedResponse & { key?: string }
        if (parsed.key !== key || typeof parsed.body !== 'string' || typeof parsed.storedAt !== 'number')
          return undefined
        const response: CachedResponse = {
          url: String(parsed.url),
          body: parsed.body,
          storedAt: parsed.storedAt,
        }
        if (typeof parsed.etag === 'string') response.etag = parsed.etag
        return response
      } catch {
        return undefined
      }
    },
    async write(key, response) {
      await mkdir(directory, { recursive: true, mode: 0o700 })
      const path = pathOf(key)
      const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`
      try {
        await writeFile(temporary, JSON.stringify({ key, ...response }), { mode: 0o600 })
        await rename(temporary, path)
      } catch (error) {
        await rm(temporary, { force: true })
        throw error
      }
    },
  }
}
