// Where an API's requests go: the base URL given, else the document's first server (its
// variables at their defaults), a relative one resolved against the URL the document came from
// (OpenAPI's rule; no server at all means "/"). Operation- and path-level servers are not used:
// every request, and every credential, goes to this one origin.

import { OpenApiError } from '../errors.js'
import type { OpenApiDocument } from './load.js'

function httpUrl(text: string, what: string): URL {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    throw new OpenApiError('invalid_options', `${what} ${JSON.stringify(text)} is not a URL`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new OpenApiError('invalid_options', `${what} ${JSON.stringify(text)} is not an http(s) URL`)
  }
  url.search = ''
  url.hash = ''
  return url
}

/** The document's first server URL with its variables at their defaults ("/" without one). */
function declaredServer(document: OpenApiDocument): string {
  const servers = document.spec.servers
  const first = Array.isArray(servers) ? (servers[0] as Record<string, unknown> | undefined) : undefined
  if (first === undefined || typeof first.url !== 'string') return '/'
  const variables = (first.variables ?? {}) as Record<string, { default?: unknown }>
  return first.url.replace(/\{([^}]+)\}/g, (whole, name: string) => {
    const value = variables[name]?.default
    return typeof value === 'string' || typeof value === 'number' ? String(value) : whole
  })
}

/** The base URL of every request of this document. */
export function baseUrlOf(document: OpenApiDocument, baseUrl: string | undefined): URL {
  if (baseUrl !== undefined) return httpUrl(baseUrl, 'the base URL')
  const declared = declaredServer(document)
  if (/^[a-z][a-z0-9+.-]*:/i.test(declared)) return httpUrl(declared, "the document's server URL")
  if (document.source !== undefined && /^https?:\/\//i.test(document.source)) {
    return httpUrl(new URL(declared, document.source).href, "the document's server URL")
  }
  throw new OpenApiError(
    'invalid_options',
    `${document.source ?? 'the document'} names no absolute server URL (${JSON.stringify(declared)}): give the base URL of the API`,
  )
}

/** The URL of `path` (already expanded and encoded) under `base`, on base's origin. */
export function joinUrl(base: URL, path: string): URL {
  const prefix = base.pathname.replace(/\/+$/, '')
  return new URL(`${base.origin}${prefix}${path.startsWith('/') ? path : `/${path}`}`)
}
