// A client of the MCP Registry API (`/v0.1`), and of the registries that mirror it: list and
// search servers page by page, the versions of one server, one version (or the latest). Answers
// are cached with their ETags and revalidated; when the registry cannot be reached a cached
// answer is used and marked `offline`. Private registries take headers (a bearer token).

import { RegistryError } from '../errors.js'
import { fetchJson } from '../http/fetch-cached.js'
import { memoryResponseCache, type ResponseCache } from '../http/response-cache.js'
import { entryOf, pageOf, type RegistryEntry, type ServerPage } from './entries.js'

/** The official registry. */
export const defaultRegistryUrl = 'https://registry.modelcontextprotocol.io'

export interface RegistryClientOptions {
  /** The registry's base URL (default: the official registry); `/v0.1/…` is added to it. */
  url?: string
  /** Sent with every request (`Authorization: Bearer …` for a private registry). */
  headers?: Record<string, string>
  /** Where answers are kept (default: in memory, for this client only). */
  cache?: ResponseCache
  fetch?: typeof globalThis.fetch
  /** Per request (default 15 s). */
  timeoutMs?: number
  /** The largest answer read (default 8 MiB). */
  maxBytes?: number
  /** Answer from the cache only, never asking the registry. */
  offline?: boolean
}

export interface ListOptions {
  /** Servers whose name contains this text. */
  search?: string
  cursor?: string
  /** Servers per page (the registry's default when absent). */
  limit?: number
  /** Only servers changed since then (RFC 3339). */
  updatedSince?: string
  /** `latest` (the default here): one entry per server; undefined-like `all` lists every version. */
  version?: 'latest' | 'all'
  /** Ask for deleted entries too (the registry leaves them out otherwise). */
  includeDeleted?: boolean
}

export interface EntryAnswer extends RegistryEntry {
  offline: boolean
  storedAt?: number
}

export interface RegistryClient {
  /** The base URL, without a trailing slash. */
  readonly url: string
  listServers(options?: ListOptions): Promise<ServerPage>
  /** Every version of a server, newest first as the registry lists them. */
  listVersions(name: string): Promise<ServerPage>
  /** One version of a server, or its latest. */
  getServer(name: string, version?: string): Promise<EntryAnswer>
}

const headerName = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/

function checkOptions(options: RegistryClientOptions): { url: string; headers: Record<string, string> } {
  const text = (options.url ?? defaultRegistryUrl).replace(/\/+$/, '')
  let url: URL
  try {
    url = new URL(text)
  } catch {
    throw new RegistryError('invalid_options', `the registry URL ${JSON.stringify(text)} is not a URL`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new RegistryError('invalid_options', `the registry URL ${JSON.stringify(text)} is not http(s)`)
  if (url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '')
    throw new RegistryError(
      'invalid_options',
      'the registry URL takes no credentials, query or fragment (use headers)',
    )
  const headers = { ...options.headers }
  for (const [name, value] of Object.entries(headers)) {
    if (!headerName.test(name) || /[\r\n\0]/.test(value))
      throw new RegistryError('invalid_options', `the header ${JSON.stringify(name)} is not a valid header`)
  }
  return { url: text, headers }
}

/** Creates a registry client. Errors are `RegistryError`s (`invalid_options` here). */
export function createRegistryClient(options: RegistryClientOptions = {}): RegistryClient {
  const { url, headers } = checkOptions(options)
  const fetchOptions = {
    fetch: options.fetch ?? globalThis.fetch,
    cache: options.cache ?? memoryResponseCache(),
    headers,
    timeoutMs: options.timeoutMs ?? 15_000,
    maxBytes: options.maxBytes ?? 8 * 1024 * 1024,
    offline: options.offline === true,
  }
  const get = async (path: string) => {
    const target = `${url}/v0.1${path}`
    const answer = await fetchJson(target, fetchOptions)
    if (answer.value === undefined) {
      throw new RegistryError('registry_unreachable', `${target} is not in the cache (offline)`, {
        details: { url: target },
      })
    }
    return { ...answer, target }
  }
  const serverPath = (name: string) => `/servers/${encodeURIComponent(name)}`
  return {
    url,
    async listServers(list = {}) {
      const query = new URLSearchParams()
      if (list.search !== undefined) query.set('search', list.search)
      if (list.cursor !== undefined) query.set('cursor', list.cursor)
      if (list.limit !== undefined) query.set('limit', String(list.limit))
      if (list.updatedSince !== undefined) query.set('updated_since', list.updatedSince)
      if (list.version !== 'all') query.set('version', 'latest')
      if (list.includeDeleted) query.set('include_deleted', 'true')
      const answer = await get(`/servers?${query}`)
      return { ...pageOf(answer.value, answer.target), offline: answer.offline, ...storedAt(answer) }
    },
    async listVersions(name) {
      const answer = await get(`${serverPath(name)}/versions`)
      return { ...pageOf(answer.value, answer.target), offline: answer.offline, ...storedAt(answer) }
    },
    async getServer(name, version = 'latest') {
      const answer = await get(`${serverPath(name)}/versions/${encodeURIComponent(version)}`)
      return { ...entryOf(answer.value, answer.target), offline: answer.offline, ...storedAt(answer) }
    },
  }
}

function storedAt(answer: { offline: boolean; storedAt?: number }): { storedAt?: number } {
  return answer.offline && answer.storedAt !== undefined ? { storedAt: answer.storedAt } : {}
}
