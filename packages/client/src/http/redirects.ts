// Redirects an HTTP transport follows: only within the endpoint's origin and only those that keep method
// and body, as the MCP SDK's do; undici would forward custom headers (API keys) to another host.

import type { FetchLike } from './transport-options.js'

const maximumRedirects = 5
const redirectStatuses = new Set([301, 302, 303, 307, 308])

export async function fetchWithinOrigin(fetch: FetchLike, url: URL, init: RequestInit): Promise<Response> {
  let target = url
  let response = await fetch(target, { ...init, redirect: 'manual' })
  for (let hop = 0; hop < maximumRedirects && redirectStatuses.has(response.status); hop++) {
    const location = response.headers.get('location')
    const keepsMethod = response.status === 307 || response.status === 308 || init.method === 'GET'
    if (location === null || !keepsMethod) break
    const next = new URL(location, target)
    if (next.origin !== url.origin || next.username !== url.username || next.password !== url.password) break
    await response.body?.cancel().catch(() => {})
    target = next
    response = await fetch(target, { ...init, redirect: 'manual' })
  }
  return response
}
