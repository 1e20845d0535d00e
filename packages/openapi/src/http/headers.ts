// The headers of a request, in one order of precedence, lowest first: the default Accept; what
// credentials add; the headers configured for the API (`headers`, `--openapi-header`); the
// caller's header parameters; the body's Content-Type; and forced headers (`forcedHeaders`,
// `--openapi-force-header`), which nothing overrides. Cookies: configured, then the caller's,
// then credentials', in one Cookie header, unless a forced Cookie replaces them.

import type { HttpRequest } from './request.js'

/** Headers the server sends with every request of an API (names lower-cased). */
export interface ConfiguredHeaders {
  headers: Readonly<Record<string, string>>
  forced: Readonly<Record<string, string>>
}

const defaultAccept = 'application/json, */*;q=0.8'

/** The headers to send: `request.headers` holds what credentials added. */
export function headersOf(request: HttpRequest, configured: ConfiguredHeaders): Record<string, string> {
  const headers: Record<string, string> = { accept: defaultAccept }
  Object.assign(headers, request.headers, configured.headers, request.parameterHeaders)
  if (request.contentType !== undefined) headers['content-type'] = request.contentType
  const cookies = [configured.headers.cookie, ...request.cookies].filter(
    (cookie): cookie is string => cookie !== undefined && cookie !== '',
  )
  if (cookies.length > 0) headers.cookie = cookies.join('; ')
  Object.assign(headers, configured.forced)
  return headers
}
