// The registry API's answers, checked: a list is `{ servers: [{ server, _meta }], metadata }`, one
// version is `{ server, _meta }`. What the registry says of an entry (status, dates, isLatest)
// is under `_meta["io.modelcontextprotocol.registry/official"]`. Anything else is refused as
// `registry_invalid`; unknown fields are kept (tolerant in what we accept).

import { isRecord } from '@mcp-kit/core'
import type { RegistryServer } from '@mcp-kit/profiles'
import { RegistryError } from '../errors.js'

export const officialMetaKey = 'io.modelcontextprotocol.registry/official'

/** What the registry says of an entry: active, deprecated or deleted, when, and why. */
export interface OfficialMeta {
  status?: 'active' | 'deprecated' | 'deleted' | string
  publishedAt?: string
  updatedAt?: string
  statusChangedAt?: string
  statusMessage?: string
  isLatest?: boolean
  [key: string]: unknown
}

/** One version of one server as the registry lists it. */
export interface RegistryEntry {
  server: RegistryServer
  /** The registry's `_meta` of the entry, as it came. */
  meta: Record<string, unknown>
  /** `meta["io.modelcontextprotocol.registry/official"]`, or {} when it has none. */
  official: OfficialMeta
}

export interface ServerPage {
  servers: RegistryEntry[]
  /** Give it back as `cursor` for the next page; undefined on the last page. */
  nextCursor?: string
  count?: number
  /** True when the registry could not be reached and this page came from the cache. */
  offline: boolean
  /** When the cached page was stored, for an offline one. */
  storedAt?: number
}

function invalid(url: string, what: string): RegistryError {
  return new RegistryError('registry_invalid', `${url} is not a registry answer: ${what}`, {
    details: { url },
  })
}

/** One `{ server, _meta }` item. */
export function entryOf(value: unknown, url: string): RegistryEntry {
  if (!isRecord(value) || !isRecord(value.server)) throw invalid(url, 'an entry without its server')
  const server = value.server as RegistryServer
  if (typeof server.name !== 'string') throw invalid(url, 'a server without a name')
  const meta = isRecord(value._meta) ? value._meta : {}
  const official = isRecord(meta[officialMetaKey]) ? (meta[officialMetaKey] as OfficialMeta) : {}
  return { server, meta, official }
}

/** A `{ servers, metadata }` page. */
export function pageOf(value: unknown, url: string): Omit<ServerPage, 'offline'> {
  if (!isRecord(value) || !Array.isArray(value.servers)) throw invalid(url, "no 'servers' list")
  const page: Omit<ServerPage, 'offline'> = { servers: value.servers.map((item) => entryOf(item, url)) }
  const metadata = isRecord(value.metadata) ? value.metadata : {}
  if (typeof metadata.nextCursor === 'string' && metadata.nextCursor !== '')
    page.nextCursor = metadata.nextCursor
  if (typeof metadata.count === 'number') page.count = metadata.count
  return page
}
