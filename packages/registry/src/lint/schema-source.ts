// The server.json JSON Schema the registry publishes, by its URL (the `$schema` of a server.json,
// `https://static.modelcontextprotocol.io/schemas/<date>/server.schema.json`). Fetched once and
// kept: a dated schema never changes, so a kept copy is used without asking again, and works
// offline. A file path is read as it is.

import { readFile } from 'node:fs/promises'
import { isRecord } from '@mcp-kit/core'
import { RegistryError } from '../errors.js'
import { fetchJson } from '../http/fetch-cached.js'
import { memoryResponseCache, type ResponseCache } from '../http/response-cache.js'

/** The schema the registry's publishing tools write into new server.json files. */
export const currentSchemaUrl = 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json'

export interface SchemaSourceOptions {
  cache?: ResponseCache
  fetch?: typeof globalThis.fetch
  timeoutMs?: number
}

export interface LoadedSchema {
  schema: Record<string, unknown>
  /** Where it came from: the URL or file. */
  source: string
  /** True when a kept copy was used (no request made). */
  cached: boolean
}

/** Loads a schema from an http(s) URL (kept in the cache) or a file. */
export async function loadServerSchema(
  location: string,
  options: SchemaSourceOptions = {},
): Promise<LoadedSchema> {
  let value: unknown
  let cached = false
  if (/^https?:\/\//.test(location)) {
    const cache = options.cache ?? memoryResponseCache()
    const shared = {
      fetch: options.fetch ?? globalThis.fetch,
      cache,
      headers: {},
      timeoutMs: options.timeoutMs ?? 15_000,
      maxBytes: 4 * 1024 * 1024,
    }
    const kept = await fetchJson(location, { ...shared, offline: true })
    cached = kept.value !== undefined
    value = cached ? kept.value : (await fetchJson(location, shared)).value
  } else {
    try {
      value = JSON.parse(await readFile(location, 'utf8'))
    } catch (error) {
      throw new RegistryError(
        'invalid_options',
        `cannot read the schema ${location}: ${(error as Error).message}`,
        {
          details: { file: location },
          cause: error,
        },
      )
    }
  }
  if (!isRecord(value))
    throw new RegistryError('registry_invalid', `${location} is not a JSON Schema (not an object)`, {
      details: { url: location },
    })
  return { schema: value, source: location, cached }
}
