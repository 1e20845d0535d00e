// One GET with the cache: If-None-Match when an answer is kept, the kept body on 304, and on no
// answer at all the kept body marked offline. Bodies are read up to a limit (a registry is a
// network service: its sizes reach memory) and must be JSON.

import { createHash } from 'node:crypto'
import { networkReason, RegistryError } from '../errors.js'
import type { ResponseCache } from './response-cache.js'

export interface FetchOptions {
  fetch: typeof globalThis.fetch
  cache: ResponseCache
  headers: Record<string, string>
  timeoutMs: number
  maxBytes: number
  /** Refetch nothing: answer from the cache only (undefined when it has nothing). */
  offline?: boolean
}

export interface FetchedJson {
  value: unknown
  /** The answer came from the cache because the registry could not be reached. */
  offline: boolean
  /** When the kept answer was stored, for an offline one. */
  storedAt?: number
  status: number
}

async function readLimited(response: Response, maxBytes: number, url: string): Promise<string> {
  const reader = response.body?.getReader()
  if (reader === undefined) return ''
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > maxBytes) {
      await reader.cancel().catch(() => {})
      throw new RegistryError(
        'registry_invalid',
        `${url} answered with more than ${maxBytes} bytes (maxBytes)`,
        {
          details: { url },
        },
      )
    }
    chunks.push(value)
  }
  return Buffer.concat(chunks).toString('utf8')
}

function parse(body: string, url: string): unknown {
  try {
    return JSON.parse(body)
  } catch (error) {
    throw new RegistryError('registry_invalid', `${url} did not answer with JSON`, {
      details: { url },
      cause: error,
    })
  }
}

/** The cache key: the URL and (hashed) the credentials, since another token may see other entries. */
export function cacheKey(url: string, headers: Record<string, string>): string {
  const names = Object.keys(headers).sort()
  const scope = createHash('sha256')
    .update(JSON.stringify(names.map((name) => [name.toLowerCase(), headers[name]])))
    .digest('hex')
    .slice(0, 16)
  return `${url} ${scope}`
}

/**
 * GETs `url` as JSON. 404 is `server_not_found`; other HTTP errors and no answer without a kept
 * copy are `registry_unreachable`.
 */
export async function fetchJson(url: string, options: FetchOptions): Promise<FetchedJson> {
  const key = cacheKey(url, options.headers)
  const kept = await options.cache.read(key)
  if (options.offline) {
    if (kept === undefined) return { value: undefined, offline: true, status: 0 }
    return { value: parse(kept.body, url), offline: true, storedAt: kept.storedAt, status: 200 }
  }
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers }
  if (kept?.etag !== undefined) headers['if-none-match'] = kept.etag
  let response: Response
  try {
    response = await options.fetch(url, {
      headers,
      signal: AbortSignal.timeout(options.timeoutMs),
      redirect: 'follow',
    })
  } catch (error) {
    if (kept !== undefined)
      return { value: parse(kept.body, url), offline: true, storedAt: kept.storedAt, status: 200 }
    throw new RegistryError('registry_unreachable', `cannot reach ${url}: ${networkReason(error)}`, {
      details: { url },
      cause: error,
    })
  }
  if (response.status === 304 && kept !== undefined) {
    await response.body?.cancel().catch(() => {})
    return { value: parse(kept.body, url), offline: false, status: 304 }
  }
  if (response.status === 404) {
    await response.body?.cancel().catch(() => {})
    throw new RegistryError('server_not_found', `the registry has nothing at ${url}`, {
      details: { url, status: 404 },
    })
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => {})
    const auth =
      response.status === 401 || response.status === 403 ? ' (does the registry need a token?)' : ''
    throw new RegistryError(
      'registry_unreachable',
      `the registry answered ${response.status} for ${url}${auth}`,
      {
        details: { url, status: response.status },
      },
    )
  }
  const body = await readLimited(response, options.maxBytes, url)
  const value = parse(body, url)
  const etag = response.headers.get('etag') ?? undefined
  // A failed write only costs the next revalidation.
  await options.cache
    .write(key, { url, body, storedAt: Date.now(), ...(etag === undefined ? {} : { etag }) })
    .catch(() => {})
  return { value, offline: false, status: response.status }
}
