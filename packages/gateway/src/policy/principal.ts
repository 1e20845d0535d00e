// Who a rule or limit is for: a principal matcher over what the server's authentication
// established (AuthInfo): OAuth scopes, the subject, the client id, claims such as `groups`, and
// the name of a static token (`tokens` in the gateway's config). Compiled once at load, so a call
// only compares strings.

import type { AuthInfo } from '@mcp-kit/server'
import { compileFilter } from '../naming.js'

/** A principal matcher as written in the config: every field given must match. */
export interface PrincipalSpec {
  /** The token carries every one of these OAuth scopes. */
  scopes?: string[]
  /** The token's subject (`sub`) is one of these (globs). */
  sub?: string[]
  /** The OAuth client id is one of these (globs). */
  clientId?: string[]
  /** A static token of one of these names (`tokens`). */
  token?: string[]
  /** Each claim holds one of the values (a claim that is a list: one of its items does). */
  claims?: Record<string, string[]>
  /** No authentication at all (a local gateway without --token or OAuth). */
  anonymous?: boolean
}

/** The name of the static token a request came with, when it came with one (`tokens`). */
export function tokenName(authInfo: AuthInfo | undefined): string | undefined {
  const name = authInfo?.extra?.token
  return typeof name === 'string' ? name : undefined
}

/** A claim of the request's OAuth token, or a static token's `claims`. */
export function claimOf(authInfo: AuthInfo | undefined, claim: string): unknown {
  if (authInfo === undefined) return undefined
  if (claim === 'sub') return authInfo.subject
  if (claim === 'client_id') return authInfo.clientId
  const claims = authInfo.extra?.claims
  return claims !== null && typeof claims === 'object'
    ? (claims as Record<string, unknown>)[claim]
    : undefined
}

export type PrincipalMatcher = (authInfo: AuthInfo | undefined) => boolean

export function compilePrincipal(spec: PrincipalSpec): PrincipalMatcher {
  const checks: PrincipalMatcher[] = []
  if (spec.anonymous !== undefined) {
    const wanted = spec.anonymous
    checks.push((authInfo) => (authInfo === undefined) === wanted)
  }
  if (spec.scopes !== undefined) {
    const scopes = spec.scopes
    checks.push(
      (authInfo) => authInfo !== undefined && scopes.every((scope) => authInfo.scopes.includes(scope)),
    )
  }
  if (spec.sub !== undefined) {
    const allowed = compileFilter(spec.sub)
    checks.push((authInfo) => authInfo?.subject !== undefined && allowed(authInfo.subject))
  }
  if (spec.clientId !== undefined) {
    const allowed = compileFilter(spec.clientId)
    checks.push(
      (authInfo) => authInfo !== undefined && tokenName(authInfo) === undefined && allowed(authInfo.clientId),
    )
  }
  if (spec.token !== undefined) {
    const names = new Set(spec.token)
    checks.push((authInfo) => {
      const name = tokenName(authInfo)
      return name !== undefined && names.has(name)
    })
  }
  for (const [claim, values] of Object.entries(spec.claims ?? {})) {
    const wanted = new Set(values)
    checks.push((authInfo) => {
      const value = claimOf(authInfo, claim)
      if (Array.isArray(value)) return value.some((item) => typeof item === 'string' && wanted.has(item))
      return (typeof value === 'string' || typeof value === 'number') && wanted.has(String(value))
    })
  }
  if (checks.length === 1) return checks[0] as PrincipalMatcher
  return (authInfo) => checks.every((check) => check(authInfo))
}
