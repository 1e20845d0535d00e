// Why the first connection to a Redis store failed, said so an operator knows what to change:
// a TLS certificate this process does not trust, a login (ACL user and password) Redis refused, a
// user without the permissions the store needs, or a Redis that could not be reached at all.

import { ServerError } from '../../errors.js'

/** Node's codes for a peer certificate that could not be verified (or is not for that host). */
const untrustedCodes = new Set([
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_UNTRUSTED',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'ERR_TLS_CERT_ALTNAME_INVALID',
])

export type StoreConnectProblem = 'untrusted' | 'login' | 'permissions' | 'unreachable' | 'missing_dependency'

function failure(problem: StoreConnectProblem, message: string, cause: unknown): ServerError {
  return new ServerError('store_unavailable', message, { details: { problem }, cause })
}

/** The error for a failed first connection; `details.problem` says which kind, for a caller's advice. */
export function storeConnectError(error: unknown, where: string): ServerError {
  const message = (error as Error)?.message ?? String(error)
  const code = (error as { code?: unknown })?.code
  if (typeof code === 'string' && untrustedCodes.has(code)) {
    return failure(
      'untrusted',
      `cannot connect to the store at ${where}: its TLS certificate is not trusted (${message})`,
      error,
    )
  }
  if (/^(WRONGPASS|NOAUTH)\b/.test(message) || /invalid username-password/i.test(message)) {
    return failure(
      'login',
      `the store at ${where} refused the login: ${message} (check the user and password in the URL)`,
      error,
    )
  }
  if (/^NOPERM\b/.test(message)) {
    return failure('permissions', `the store at ${where} refused a command to this user: ${message}`, error)
  }
  return failure('unreachable', `cannot reach the store at ${where}: ${message}`, error)
}
