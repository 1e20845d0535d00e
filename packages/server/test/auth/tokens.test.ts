// The resource server's token checks that need tokens a test controls: RFC 9068 `typ`, expiry,
// an `iat` in the future, and key rotation (a new key at once, a removed key as soon as the JWKS's
// Cache-Control says, unknown key ids fetched at most once per cooldown). The issuer is a real
// HTTP server on 127.0.0.1 publishing its metadata and JWKS; tokens are signed with `jose`. Real
// tokens from oidc-provider pass the strict `typ` check.

import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { obtainToken, startAuthServer } from '@mcp-kit/fixtures/auth-server'
import { type CryptoKey, exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose'
import { afterEach, describe, expect, test } from 'vitest'
import { freshnessOf } from '../../src/auth/key-set.js'
import { createOAuthResource } from '../../src/auth/oauth-resource.js'

const resource = 'http://127.0.0.1:9/mcp'

interface KeyIssuer {
  issuer: string
  /** The key ids the JWKS lists now. */
  publish(kids: string[], cacheControl?: string): void
  sign(kid: string, claims?: Record<string, unknown>, typ?: string | null): Promise<string>
  fetches(): number
  close(): Promise<void>
}

const started: Server[] = []

afterEach(async () => {
  for (const server of started.splice(0)) {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  }
})

async function startKeyIssuer(): Promise<KeyIssuer> {
  const keys = new Map<string, { privateKey: CryptoKey; jwk: JWK }>()
  for (const kid of ['old', 'new']) {
    const { privateKey, publicKey } = await generateKeyPair('ES256')
    keys.set(kid, { privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' } })
  }
  let published = ['old']
  let cacheControl: string | undefined
  let jwksFetches = 0
  const server = createServer((request, response) => {
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    if (request.url === '/.well-known/oauth-authorization-server') {
      response.writeHead(200, { 'content-type': 'application/json' })
      response.end(JSON.stringify({ issuer: base, jwks_uri: `${base}/jwks` }))
      return
    }
    if (request.url === '/jwks') {
      jwksFetches += 1
      response.writeHead(200, {
        'content-type': 'application/json',
        ...(cacheControl === undefined ? {} : { 'cache-control': cacheControl }),
      })
      response.end(JSON.stringify({ keys: published.map((kid) => keys.get(kid)?.jwk) }))
      return
    }
    response.writeHead(404).end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  started.push(server)
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    issuer,
    publish(kids, control) {
      published = kids
      cacheControl = control
    },
    async sign(kid, claims = {}, typ = 'at+jwt') {
      const key = keys.get(kid)?.privateKey ?? (keys.get('old')?.privateKey as CryptoKey)
      return new SignJWT({ sub: 'alice', client_id: 'app', scope: 'tools:read', ...claims })
        .setProtectedHeader({ alg: 'ES256', kid, ...(typ === null ? {} : { typ }) })
        .setIssuer(issuer)
        .setAudience(resource)
        .setIssuedAt(typeof claims.iat === 'number' ? claims.iat : undefined)
        .setExpirationTime(typeof claims.exp === 'number' ? claims.exp : '5m')
        .sign(key)
    },
    fetches: () => jwksFetches,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}

const message = (verdict: { ok: boolean; message?: string }) => (verdict.ok ? 'ok' : verdict.message)

describe('token type (RFC 9068)', () => {
  test('at+jwt and application/at+jwt pass; another type is refused; an untyped token passes unless requireTyp', async () => {
    const issuer = await startKeyIssuer()
    const lenient = await createOAuthResource({ issuer: issuer.issuer, resource })
    const strict = await createOAuthResource({ issuer: issuer.issuer, resource, requireTyp: true })
    const bearer = async (typ: string | null) => `Bearer ${await issuer.sign('old', {}, typ)}`
    for (const typ of ['at+jwt', 'application/at+jwt', 'AT+JWT']) {
      expect(message(await lenient.verify(await bearer(typ)))).toBe('ok')
      expect(message(await strict.verify(await bearer(typ)))).toBe('ok')
    }
    for (const typ of ['logout+jwt', 'application/secevent+jwt', 'dpop+jwt']) {
      const refused = await lenient.verify(await bearer(typ))
      expect(refused).toMatchObject({ ok: false, status: 401 })
      expect(message(refused)).toMatch(/not an access token/)
    }
    // Untyped (or the generic JWT): accepted by default, refused when the type is required.
    expect(message(await lenient.verify(await bearer(null)))).toBe('ok')
    expect(message(await lenient.verify(await bearer('JWT')))).toBe('ok')
    expect(message(await strict.verify(await bearer(null)))).toMatch(/not typed as an access token/)
    expect(message(await strict.verify(await bearer('JWT')))).toMatch(/not an access token/)
  })

  test("a real authorization server's tokens (oidc-provider types them at+jwt) pass requireTyp", async () => {
    const authServer = await startAuthServer()
    try {
      const strict = await createOAuthResource({ issuer: authServer.issuer, resource, requireTyp: true })
      const token = await obtainToken(authServer.issuer, { resource })
      expect(message(await strict.verify(`Bearer ${token.access_token}`))).toBe('ok')
    } finally {
      await authServer.close()
    }
  })
})

describe('who the token is for', () => {
  test("a token naming neither a subject nor a client is refused (it would be everyone's)", async () => {
    const issuer = await startKeyIssuer()
    const checker = await createOAuthResource({ issuer: issuer.issuer, resource })
    const nobody = await checker.verify(
      `Bearer ${await issuer.sign('old', { sub: undefined, client_id: undefined })}`,
    )
    expect(message(nobody)).toMatch(/neither a subject nor a client/)
    const client = await checker.verify(`Bearer ${await issuer.sign('old', { sub: undefined })}`)
    expect(client).toMatchObject({ ok: true, authInfo: { clientId: 'app', subject: undefined } })
  })
})

describe('expiry', () => {
  test('a token past its exp is refused as expired, with invalid_token; one a second from it passes', async () => {
    const issuer = await startKeyIssuer()
    const checker = await createOAuthResource({ issuer: issuer.issuer, resource })
    const now = Math.floor(Date.now() / 1000)
    const expired = await checker.verify(
      `Bearer ${await issuer.sign('old', { iat: now - 120, exp: now - 1 })}`,
    )
    expect(expired).toMatchObject({ ok: false, status: 401 })
    expect(message(expired)).toBe('the token has expired')
    expect(expired.ok ? '' : expired.challenge).toMatch(/error="invalid_token"/)
    const fresh = await checker.verify(`Bearer ${await issuer.sign('old', { exp: now + 60 })}`)
    expect(message(fresh)).toBe('ok')
  })
})

describe('issued at', () => {
  test('an iat in the future beyond the clock tolerance is refused; a little skew is not', async () => {
    const issuer = await startKeyIssuer()
    const checker = await createOAuthResource({ issuer: issuer.issuer, resource })
    const now = Math.floor(Date.now() / 1000)
    const future = await checker.verify(`Bearer ${await issuer.sign('old', { iat: now + 3600 })}`)
    expect(future).toMatchObject({ ok: false, status: 401 })
    expect(message(future)).toMatch(/issued in the future/)
    expect(message(await checker.verify(`Bearer ${await issuer.sign('old', { iat: now + 10 })}`))).toBe('ok')
    const tight = await createOAuthResource({ issuer: issuer.issuer, resource, clockToleranceSeconds: 0 })
    expect(message(await tight.verify(`Bearer ${await issuer.sign('old', { iat: now + 10 })}`))).toMatch(
      /issued in the future/,
    )
  })
})

describe('key rotation', () => {
  test("a new key verifies at once; a removed key stops verifying when the JWKS's max-age runs out", async () => {
    const issuer = await startKeyIssuer()
    issuer.publish(['old'], 'public, max-age=1')
    const checker = await createOAuthResource({ issuer: issuer.issuer, resource })
    const oldToken = `Bearer ${await issuer.sign('old')}`
    expect(message(await checker.verify(oldToken))).toBe('ok')

    // Rotation: the new key is published (the old one still listed for tokens in flight).
    issuer.publish(['old', 'new'], 'public, max-age=1')
    expect(message(await checker.verify(`Bearer ${await issuer.sign('new')}`))).toBe('ok')

    // The old key is removed; after the max-age its tokens are refused, the new key's are not.
    issuer.publish(['new'], 'public, max-age=1')
    await new Promise((resolve) => setTimeout(resolve, 1100))
    expect(message(await checker.verify(oldToken))).toMatch(/not valid/)
    expect(message(await checker.verify(`Bearer ${await issuer.sign('new')}`))).toBe('ok')
  })

  test('tokens naming unknown keys share one JWKS fetch per cooldown', async () => {
    const issuer = await startKeyIssuer()
    issuer.publish(['old'], 'max-age=600')
    const checker = await createOAuthResource({ issuer: issuer.issuer, resource })
    expect(message(await checker.verify(`Bearer ${await issuer.sign('old')}`))).toBe('ok')
    const before = issuer.fetches()
    const forged = await Promise.all(
      Array.from({ length: 20 }, async (_, index) => `Bearer ${await issuer.sign(`made-up-${index}`)}`),
    )
    const verdicts = await Promise.all(forged.map((token) => checker.verify(token)))
    expect(verdicts.every((verdict) => !verdict.ok)).toBe(true)
    expect(issuer.fetches() - before).toBe(1)
  })

  test('Cache-Control: max-age honoured, bounded; no-store and no-cache keep keys only for the cooldown', () => {
    const bounds: [number, number] = [1000, 3_600_000]
    expect(freshnessOf('public, max-age=120', 300_000, bounds)).toBe(120_000)
    expect(freshnessOf(null, 300_000, bounds)).toBe(300_000)
    expect(freshnessOf('max-age=0', 300_000, bounds)).toBe(1000)
    expect(freshnessOf('no-store', 300_000, bounds)).toBe(1000)
    expect(freshnessOf('no-cache, max-age=60', 300_000, bounds)).toBe(1000)
    expect(freshnessOf('max-age=31536000', 300_000, bounds)).toBe(3_600_000)
  })
})
