// The server as an OAuth resource server (MCP authorization, RFC 9728): it publishes its
// protected-resource metadata (which authorization server to ask, which scopes exist), verifies
// JWT access tokens (RFC 9068: signature against the issuer's keys, see key-set.ts; issuer,
// audience/resource, expiry, `typ`, an `iat` not in the future), and answers 401 and 403 with
// the `WWW-Authenticate` challenges clients act on (`resource_metadata`, `scope`,
// `insufficient_scope`). It never issues tokens, and a token it verified is never passed on.

import type { AuthInfo } from '../context.js'
import { ServerError } from '../errors.js'
import { createKeySet } from './key-set.js'

export interface OAuthResourceOptions {
  /** The authorization server's issuer URL (its metadata is discovered from it). */
  issuer: string
  /** This MCP endpoint's public URL (the RFC 8707 resource clients ask tokens for). */
  resource: string
  /** Accepted `aud` values (default: the resource URL). */
  audience?: string | string[] | undefined
  /** Scopes every request needs (default none); per-tool scopes come from the registry. */
  requiredScopes?: readonly string[] | undefined
  /** Scopes to advertise in the metadata (default: the issuer's, if it lists them). */
  scopesSupported?: readonly string[] | undefined
  /** The issuer's JWKS URL, when it is not to be discovered. */
  jwksUri?: string | undefined
  /**
   * Accept only tokens typed `at+jwt` (RFC 9068). By default a token without `typ`, or with the
   * generic `JWT`, is accepted too (many authorization servers type their access tokens so, or
   * not at all); any other type (an ID token typed as such, a logout token…) is always refused.
   */
  requireTyp?: boolean | undefined
  /** How far in the future a token's `iat` may be, for clock skew (default 30 s). */
  clockToleranceSeconds?: number | undefined
  fetch?: typeof fetch | undefined
}

/** A refused token: the status and `WWW-Authenticate` challenge to answer with, and why. */
export interface Refusal {
  ok: false
  status: 401 | 403
  challenge: string
  message: string
}

export type Verdict = { ok: true; authInfo: AuthInfo } | Refusal

export interface OAuthResource {
  /** Paths where the protected-resource metadata is served (path-aware and root). */
  readonly metadataPaths: readonly string[]
  readonly metadataUrl: string
  /** The protected-resource metadata document (RFC 9728). */
  readonly metadata: Record<string, unknown>
  /** Checks an `Authorization` header value. */
  verify(authorization: string | undefined): Promise<Verdict>
  /** The 403 for a request that needs scopes the token lacks, or undefined when it has them. */
  checkScopes(authInfo: AuthInfo | undefined, required: readonly string[]): Refusal | undefined
}

function quoted(value: string): string {
  return `"${value.replace(/["\\]/g, '')}"`
}

/** Discovers the issuer's metadata (RFC 8414, then OpenID discovery) to find its JWKS. */
async function discoverJwks(
  issuer: string,
  fetcher: typeof fetch,
): Promise<{ jwksUri: string; scopes?: string[] }> {
  const base = new URL(issuer)
  const path = base.pathname === '/' ? '' : base.pathname.replace(/\/$/, '')
  const candidates = [
    ...new Set([
      `/.well-known/oauth-authorization-server${path}`,
      `/.well-known/openid-configuration${path}`,
      `${path}/.well-known/openid-configuration`,
    ]),
  ].map((candidate) => new URL(candidate, base.origin))
  const problems: string[] = []
  for (const url of candidates) {
    try {
      const response = await fetcher(url, { headers: { accept: 'application/json' } })
      if (!response.ok) {
        problems.push(`${url.href}: HTTP ${response.status}`)
        continue
      }
      const metadata = (await response.json()) as Record<string, unknown>
      if (metadata.issuer !== issuer && metadata.issuer !== issuer.replace(/\/$/, '')) {
        problems.push(`${url.href}: its issuer is ${JSON.stringify(metadata.issuer)}, not ${issuer}`)
        continue
      }
      if (typeof metadata.jwks_uri !== 'string') {
        problems.push(`${url.href}: no jwks_uri`)
        continue
      }
      const scopes = Array.isArray(metadata.scopes_supported)
        ? metadata.scopes_supported.filter((scope): scope is string => typeof scope === 'string')
        : undefined
      return { jwksUri: metadata.jwks_uri, scopes }
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause
      problems.push(`${url.href}: ${cause?.code ?? cause?.message ?? (error as Error).message}`)
    }
  }
  throw new ServerError(
    'server_error',
    `cannot reach the authorization server ${issuer} (${problems.join('; ')})`,
  )
}

/** Why a token's `typ` header is not an access token's, or undefined when it is (RFC 9068 §4). */
function typeProblem(typ: unknown, required: boolean): string | undefined {
  if (typ === undefined && !required) return undefined
  const normalized = typeof typ === 'string' ? typ.toLowerCase().replace(/^application\//, '') : ''
  if (normalized === 'at+jwt' || (normalized === 'jwt' && !required)) return undefined
  return typ === undefined
    ? 'the token is not typed as an access token (typ at+jwt)'
    : `the token is not an access token (typ ${JSON.stringify(String(typ).slice(0, 40))}, not at+jwt)`
}

/** Why a token's `iat` cannot be right (issued in the future, beyond the clock tolerance). */
function issuedProblem(iat: unknown, toleranceSeconds: number): string | undefined {
  if (typeof iat !== 'number') return undefined
  return iat > Date.now() / 1000 + toleranceSeconds ? 'the token was issued in the future (iat)' : undefined
}

function scopesOf(payload: Record<string, unknown>): string[] {
  if (typeof payload.scope === 'string') return payload.scope.split(/\s+/).filter(Boolean)
  if (Array.isArray(payload.scp))
    return payload.scp.filter((scope): scope is string => typeof scope === 'string')
  return []
}

/** Sets up the resource server: discovers the issuer (failing clearly when it cannot be reached). */
export async function createOAuthResource(options: OAuthResourceOptions): Promise<OAuthResource> {
  const fetcher = options.fetch ?? fetch
  const jose = await import('jose')
  const discovered = options.jwksUri === undefined ? await discoverJwks(options.issuer, fetcher) : undefined
  const jwks = createKeySet(jose, new URL(options.jwksUri ?? (discovered as { jwksUri: string }).jwksUri), {
    fetch: fetcher,
  })
  const tolerance = options.clockToleranceSeconds ?? 30
  const resource = new URL(options.resource)
  const path = resource.pathname === '/' ? '' : resource.pathname
  const metadataUrl = new URL(`/.well-known/oauth-protected-resource${path}`, resource.origin).href
  const scopesSupported = options.scopesSupported ?? discovered?.scopes
  const metadata: Record<string, unknown> = {
    resource: resource.href,
    authorization_servers: [options.issuer],
    bearer_methods_supported: ['header'],
  }
  if (scopesSupported !== undefined) metadata.scopes_supported = [...scopesSupported]
  const audience = options.audience ?? resource.href
  const required = options.requiredScopes ?? []
  const challenge = (error?: string, description?: string, scope?: readonly string[]) => {
    const parts = [`resource_metadata=${quoted(metadataUrl)}`]
    if (error !== undefined) parts.push(`error=${quoted(error)}`)
    if (description !== undefined) parts.push(`error_description=${quoted(description)}`)
    if (scope !== undefined && scope.length > 0) parts.push(`scope=${quoted(scope.join(' '))}`)
    return `Bearer ${parts.join(', ')}`
  }
  const refuse = (message: string, error?: string): Verdict => ({
    ok: false,
    status: 401,
    challenge: challenge(error, error === undefined ? undefined : message, required),
    message,
  })

  const resource_: OAuthResource = {
    metadataPaths:
      path === ''
        ? ['/.well-known/oauth-protected-resource']
        : [`/.well-known/oauth-protected-resource${path}`, '/.well-known/oauth-protected-resource'],
    metadataUrl,
    metadata,
    async verify(authorization) {
      const match =
        authorization === undefined ? null : /^Bearer\s+([A-Za-z0-9._~+/-]+=*)\s*$/i.exec(authorization)
      if (match === null) return refuse('a bearer token from the authorization server is required')
      const token = match[1] as string
      let payload: Record<string, unknown>
      try {
        const verified = await jose.jwtVerify(token, jwks, {
          issuer: [options.issuer, options.issuer.replace(/\/$/, '')],
          audience,
          requiredClaims: ['exp'],
        })
        payload = verified.payload
        const problem =
          typeProblem(verified.protectedHeader.typ, options.requireTyp === true) ??
          issuedProblem(payload.iat, tolerance)
        if (problem !== undefined) return refuse(problem, 'invalid_token')
      } catch (error) {
        const code = (error as { code?: string }).code
        const why =
          code === 'ERR_JWT_EXPIRED'
            ? 'the token has expired'
            : code === 'ERR_JWT_CLAIM_VALIDATION_FAILED'
              ? `the token is not for this server (${(error as Error).message})`
              : 'the token is not valid here'
        return refuse(why, 'invalid_token')
      }
      const clientId = String(payload.client_id ?? payload.azp ?? '')
      // Who the token is for decides what it may see (auth/principal.ts): a token naming neither
      // a user nor a client would be everyone's.
      if ((typeof payload.sub !== 'string' || payload.sub === '') && clientId === '')
        return refuse('the token names neither a subject nor a client', 'invalid_token')
      const authInfo: AuthInfo = {
        token,
        clientId,
        scopes: scopesOf(payload),
        expiresAt: typeof payload.exp === 'number' ? payload.exp : undefined,
        subject: typeof payload.sub === 'string' ? payload.sub : undefined,
        resource,
        // The verified claims, for policies that match on them (a gateway's `groups`, say).
        extra: { issuer: payload.iss, claims: payload },
      }
      return resource_.checkScopes(authInfo, required) ?? { ok: true, authInfo }
    },
    checkScopes(authInfo, needed) {
      if (needed.length === 0) return undefined
      const granted = new Set(authInfo?.scopes ?? [])
      const missing = needed.filter((scope) => !granted.has(scope))
      if (missing.length === 0) return undefined
      // Name everything the operation needs (RFC 6750 §3): a client's step-up asks for it in one go.
      return {
        ok: false,
        status: 403,
        challenge: challenge('insufficient_scope', `this needs the scope ${missing.join(' ')}`, needed),
        message: `insufficient scope: this needs ${missing.join(', ')}`,
      }
    },
  }
  return resource_
}
