// Who a request belongs to, as one string compared wherever state is shared between callers
// (tasks, sessions, parked calls, private cache entries). A user is `sub:<issuer>|<subject>`; a
// client acting for itself (a token without `sub`) is `client:<issuer>|<client_id>`, so the two
// can never be confused. Without authentication every caller is the same `anonymous` principal.

import type { AuthInfo } from '../context.js'

/** The principal of a request's authentication, or `anonymous` without one. */
export function principalOf(authInfo: AuthInfo | undefined): string {
  if (authInfo === undefined) return 'anonymous'
  const issuer = typeof authInfo.extra?.issuer === 'string' ? authInfo.extra.issuer : ''
  if (authInfo.subject !== undefined && authInfo.subject !== '') return `sub:${issuer}|${authInfo.subject}`
  return `client:${issuer}|${authInfo.clientId}`
}
