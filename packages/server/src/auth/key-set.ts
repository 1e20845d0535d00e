// The authorization server's signing keys (its JWKS), as the resource server needs them: kept as
// long as the JWKS response's `Cache-Control: max-age` says (bounded), so a key the server
// removed stops verifying when its publisher wants; and fetched again at once for a token signed
// by a key not seen yet (a rotation), at most once per cooldown — tokens with made-up key ids
// share that one fetch and cannot make the server hammer the authorization server.

import type { CryptoKey, JSONWebKeySet, JWTHeaderParameters, JWTVerifyGetKey } from 'jose'

export interface KeySetOptions {
  fetch: typeof fetch
  /** Least time between two fetches (default 1 s); also the shortest time keys are kept. */
  cooldownMs?: number
  /** How long keys are kept when the response names no max-age (default 5 minutes). */
  defaultMaxAgeMs?: number
  /** The longest a max-age is honoured (default 1 hour). */
  maximumMaxAgeMs?: number
  now?: () => number
}

/** How long a JWKS response may be used: its max-age, bounded; no-store and no-cache mean now. */
export function freshnessOf(
  cacheControl: string | null,
  fallbackMs: number,
  bounds: [number, number],
): number {
  const directives = (cacheControl ?? '').toLowerCase()
  let lifetime = fallbackMs
  if (/(^|[\s,])(no-store|no-cache)([\s,=]|$)/.test(directives)) lifetime = 0
  else {
    const maxAge = /(?:^|[\s,])max-age\s*=\s*"?(\d+)"?/.exec(directives)?.[1]
    if (maxAge !== undefined) lifetime = Number(maxAge) * 1000
  }
  return Math.min(Math.max(lifetime, bounds[0]), bounds[1])
}

type LocalKeys = (header: JWTHeaderParameters, token: unknown) => Promise<CryptoKey>

/** A key resolver for `jose.jwtVerify` over the JWKS at `url`. */
export function createKeySet(jose: typeof import('jose'), url: URL, options: KeySetOptions): JWTVerifyGetKey {
  const cooldownMs = options.cooldownMs ?? 1000
  const now = options.now ?? Date.now
  const bounds: [number, number] = [cooldownMs, options.maximumMaxAgeMs ?? 60 * 60_000]
  let keys: LocalKeys | undefined
  let fetchedAt = Number.NEGATIVE_INFINITY
  let freshUntil = Number.NEGATIVE_INFINITY
  let loading: Promise<void> | undefined

  async function fetchKeys(): Promise<void> {
    fetchedAt = now()
    // Until this fetch succeeds, keys held so far serve (the resource server stays up while its
    // authorization server is briefly away), and are not asked for again before the cooldown.
    freshUntil = Math.max(freshUntil, fetchedAt + cooldownMs)
    const response = await options.fetch(url, { headers: { accept: 'application/json' } })
    if (!response.ok) throw new Error(`the JWKS at ${url.href} answered HTTP ${response.status}`)
    const body = (await response.json()) as JSONWebKeySet
    if (typeof body !== 'object' || body === null || !Array.isArray(body.keys))
      throw new Error(`the JWKS at ${url.href} has no keys array`)
    keys = jose.createLocalJWKSet(body) as unknown as LocalKeys
    freshUntil =
      now() +
      freshnessOf(response.headers.get('cache-control'), options.defaultMaxAgeMs ?? 5 * 60_000, bounds)
  }

  /** One fetch for everyone waiting, no sooner than the cooldown after the previous one. */
  function reload(): Promise<void> {
    loading ??= (async () => {
      const wait = fetchedAt + cooldownMs - now()
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait))
      await fetchKeys()
    })().finally(() => {
      loading = undefined
    })
    return loading
  }

  return async (header, token) => {
    const stale = keys === undefined || now() >= freshUntil
    if (stale) {
      await reload().catch((error) => {
        if (keys === undefined) throw error
      })
    }
    try {
      return await (keys as LocalKeys)(header, token)
    } catch (error) {
      if ((error as { code?: string }).code !== 'ERR_JWKS_NO_MATCHING_KEY' || stale) throw error
      // A key not seen yet: the authorization server may have rotated its keys since.
      await reload()
      return (keys as LocalKeys)(header, token)
    }
  }
}
