// Logging out: the server's tokens leave the credentials file, revoked first where the authorization
// server offers it (RFC 7009), so a copied file is no use either.

import type { CredentialStore, StoredClient, TokenEntry } from './credential-store.js'
import { serverKey } from './provider.js'

export interface LogoutResult {
  /** False when there was no login for this server. */
  removed: boolean
  /** Tokens the authorization server confirmed revoked (a JWT access token cannot be: it expires). */
  revoked: number
  /** Why revocation did not happen or failed (the tokens are removed from the file anyway). */
  problem?: string
}

async function revoke(
  endpoint: string,
  token: string,
  hint: 'refresh_token' | 'access_token',
  client: StoredClient | undefined,
  fetcher: typeof fetch,
): Promise<boolean> {
  const body = new URLSearchParams({ token, token_type_hint: hint })
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' }
  if (client !== undefined) {
    const method = client.token_endpoint_auth_method
    if (client.client_secret !== undefined && method !== 'client_secret_post') {
      const basic = `${encodeURIComponent(client.client_id)}:${encodeURIComponent(client.client_secret)}`
      headers.authorization = `Basic ${Buffer.from(basic).toString('base64')}`
    } else {
      body.set('client_id', client.client_id)
      if (client.client_secret !== undefined) body.set('client_secret', client.client_secret)
    }
  }
  const response = await fetcher(endpoint, {
    method: 'POST',
    headers,
    body,
    signal: AbortSignal.timeout(10_000),
  })
  if (response.ok) {
    await response.body?.cancel()
    return true
  }
  const text = await response.text().catch(() => '')
  // A self-contained (JWT) access token cannot be revoked; it ends at its expiry (RFC 7009 §2.2.1).
  if (hint === 'access_token' && /unsupported_token_type/.test(text)) return false
  throw new Error(`the revocation endpoint answered HTTP ${response.status}`)
}

/** Revokes (where possible) and forgets the login for the MCP server at `serverUrl`. */
export async function logout(
  store: CredentialStore,
  serverUrl: string | URL,
  options: { fetch?: typeof fetch } = {},
): Promise<LogoutResult> {
  const key = serverKey(serverUrl)
  const data = store.read()
  const entry: TokenEntry | undefined = data.tokens[key]
  if (entry === undefined) return { removed: false, revoked: 0 }
  let revoked = 0
  let problem: string | undefined
  try {
    if (entry.issuer === undefined)
      throw new Error('the login does not say which authorization server issued it')
    const { discoverAuthorizationServerMetadata } = await import('@modelcontextprotocol/client')
    const metadata = await discoverAuthorizationServerMetadata(entry.issuer, { fetchFn: options.fetch })
    const endpoint = (metadata as { revocation_endpoint?: unknown } | undefined)?.revocation_endpoint
    if (typeof endpoint !== 'string') throw new Error('the authorization server offers no token revocation')
    const client = data.clients[entry.issuer]
    for (const [token, hint] of [
      [entry.tokens.refresh_token, 'refresh_token'],
      [entry.tokens.access_token, 'access_token'],
    ] as const) {
      if (typeof token !== 'string') continue
      if (await revoke(endpoint, token, hint, client, options.fetch ?? fetch)) revoked += 1
    }
  } catch (error) {
    problem = (error as Error).message
  }
  store.update((current) => {
    delete current.tokens[key]
  })
  return { removed: true, revoked, ...(problem === undefined ? {} : { problem }) }
}
