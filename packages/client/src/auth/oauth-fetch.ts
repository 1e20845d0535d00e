// The fetch the OAuth flow runs on. Discovery GETs that find their pooled connection closed before an
// answer are sent again on a new one; POSTs (registration, token requests) always go out on a
// connection of their own and are never sent twice: a code or a rotating refresh token is spent once.

import { onNewConnection, sendWithResend } from '../http/resend.js'
import type { FetchLike } from '../http/transport-options.js'

/**
 * `fetch` for the SDK's auth helpers. A metadata GET is safe to repeat. A token POST is not (a
 * second one with the same authorization code is refused, and may revoke what the first one got;
 * a reused refresh token may end the whole login), so it is kept off the race instead: a new
 * connection has never been idle, and no server's idle close can meet it.
 */
export function oauthFetch(fetch: FetchLike, onDiagnostic?: (message: string) => void): FetchLike {
  return (url, init) => {
    const method = (init?.method ?? 'GET').toUpperCase()
    if (method !== 'GET' && method !== 'HEAD') return onNewConnection(fetch, (own) => own(url, init))
    const target = new URL(url)
    return sendWithResend(fetch, (pooled) => pooled(url, init), {
      url: target,
      what: `${method} ${target.origin}${target.pathname}`,
      repeatable: true,
      onDiagnostic,
    })
  }
}
