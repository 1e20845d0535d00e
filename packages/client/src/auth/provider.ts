// The official SDK's OAuthClientProvider on the credential store: registrations per authorization server,
// tokens per MCP server stamped with their issuer (SEP-2352), the loopback redirect or client_credentials.

import { randomBytes } from 'node:crypto'
import type {
  OAuthClientInformationContext,
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client'
import { ClientError } from '../errors.js'
import type { CredentialStore, StoredClient } from './credential-store.js'

/** The browser part of a login: where the authorization server sends the user back, and what it sent. */
export interface Authorizer {
  /** The redirect URI (a loopback URL), ready to receive the callback. */
  prepare(): Promise<string>
  /** Sends the user to the authorization URL (opens a browser, or prints it). */
  open(url: URL): Promise<void>
  /** Resolves with the callback's query parameters (code, state, iss, error). */
  callback(): Promise<URLSearchParams>
  close(): Promise<void>
}

export interface OAuthSettings {
  store: CredentialStore
  /** A pre-registered client: no registration happens. */
  clientId?: string | undefined
  clientSecret?: string | undefined
  /**
   * The issuer of the authorization server `clientSecret` belongs to: the secret is never sent
   * to another, whatever authorization server the MCP server's metadata names (`auth_required`,
   * `details.reason` `issuer`). Without it, the first authorization server the secret goes to is
   * remembered in the store and the secret goes to no other.
   */
  issuer?: string | undefined
  /** An HTTPS URL of a Client ID Metadata Document, used as client_id where the server supports it. */
  clientMetadataUrl?: string | undefined
  /** Scopes to ask for (default: the server's challenge, then its scopes_supported). */
  scope?: string | undefined
  /** How this client names itself when it registers. */
  clientName?: string | undefined
  /** Runs logins; without one a command that needs a login fails (auth_required). */
  authorizer?: Authorizer | undefined
  /**
   * `authorization_code` (default): a user's login, refreshed while it can be.
   * `client_credentials`: the pre-registered client (`clientId`, `clientSecret`) gets tokens for
   * itself, with no user and no browser, again whenever they expire.
   */
  grant?: 'authorization_code' | 'client_credentials' | undefined
}

const placeholderRedirect = 'http://127.0.0.1/callback'

/** The store key under which a pre-registered client's authorization server is remembered. */
const pinnedPrefix = 'pre-registered:'

/** One issuer identifier, with or without a trailing slash (as the SDK compares them). */
function sameIssuer(a: string, b: string): boolean {
  return a.replace(/\/$/, '') === b.replace(/\/$/, '')
}

/** The key a server's login is stored under: its URL without the fragment. */
export function serverKey(url: string | URL): string {
  const parsed = new URL(url)
  parsed.hash = ''
  return parsed.href
}

/**
 * The SDK's `auth()` drives discovery, registration, PKCE, the token exchange and refresh through
 * this provider. A server whose authorization server changed gets a fresh registration and login
 * (SEP-2352); a pre-registered client or a Client ID Metadata Document URL is used when given.
 */
export class StoreProvider implements OAuthClientProvider {
  readonly #settings: OAuthSettings
  readonly #server: string
  #redirectUrl: string | undefined
  #codeVerifier: string | undefined
  #state: string | undefined
  #discovery: OAuthDiscoveryState | undefined
  #droppedLogin = false
  /** The authorization URL of the last redirect (a non-interactive run reports it). */
  lastAuthorizationUrl: URL | undefined
  /** The Client ID Metadata Document URL of the settings; absent without one, as the SDK's interface has it. */
  declare readonly clientMetadataUrl?: string

  constructor(serverUrl: string | URL, settings: OAuthSettings) {
    this.#server = serverKey(serverUrl)
    this.#settings = settings
    if (settings.clientMetadataUrl !== undefined) this.clientMetadataUrl = settings.clientMetadataUrl
  }

  /** Sets the loopback redirect URI of the login about to start. */
  useRedirect(url: string): void {
    this.#redirectUrl = url
  }

  /**
   * The loopback redirect of the login in progress; without one, the registered placeholder: a
   * redirect URL is what tells the SDK this is an authorization code client (its refresh path),
   * not a client_credentials one. A login without an authorizer stops before any redirect.
   */
  get redirectUrl(): string | undefined {
    if (this.clientCredentials) return undefined
    return this.#redirectUrl ?? placeholderRedirect
  }

  get clientCredentials(): boolean {
    return this.#settings.grant === 'client_credentials'
  }

  /** The client_credentials token request (the SDK builds the authorization code one itself). */
  prepareTokenRequest(scope?: string): URLSearchParams | undefined {
    if (!this.clientCredentials) return undefined
    const parameters = new URLSearchParams({ grant_type: 'client_credentials' })
    if (scope) parameters.set('scope', scope)
    return parameters
  }

  /**
   * True when the login this server had is over: its access token expired, or its tokens were
   * dropped after the authorization server refused them (a refused refresh), so only a new login
   * helps.
   */
  loginExpired(): boolean {
    const expiresAt = this.expiresAt()
    return this.#droppedLogin || (expiresAt !== undefined && Date.now() >= expiresAt)
  }

  /** When the stored access token expires (ms since the epoch), when the server said. */
  expiresAt(): number | undefined {
    const entry = this.#settings.store.read().tokens[this.#server]
    const lifetime = entry?.tokens.expires_in
    return entry === undefined || typeof lifetime !== 'number' ? undefined : entry.savedAt + lifetime * 1000
  }

  get clientMetadata(): OAuthClientMetadata {
    if (this.clientCredentials) {
      return {
        client_name: this.#settings.clientName ?? 'mcp-kit',
        redirect_uris: [],
        grant_types: ['client_credentials'],
        token_endpoint_auth_method: 'client_secret_basic',
        ...(this.#settings.scope === undefined ? {} : { scope: this.#settings.scope }),
      } as unknown as OAuthClientMetadata
    }
    const metadata: Record<string, unknown> = {
      client_name: this.#settings.clientName ?? 'mcp-kit',
      redirect_uris: [this.#redirectUrl ?? placeholderRedirect],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      // A command-line tool is a native application (SEP-837).
      application_type: 'native',
    }
    if (this.#settings.scope !== undefined) metadata.scope = this.#settings.scope
    return metadata as unknown as OAuthClientMetadata
  }

  state(): string {
    this.#state = randomBytes(16).toString('base64url')
    return this.#state
  }

  /** The state of the last authorization request (the callback must carry it back). */
  get expectedState(): string | undefined {
    return this.#state
  }

  clientInformation(context?: OAuthClientInformationContext): StoredOAuthClientInformation | undefined {
    const { clientId, clientSecret } = this.#settings
    if (clientId !== undefined) {
      // The SDK sends what this returns to the authorization server it resolved (`context.issuer`).
      const issuer = clientSecret === undefined ? undefined : this.#secretIssuer(clientId, context?.issuer)
      return {
        client_id: clientId,
        ...(clientSecret === undefined ? {} : { client_secret: clientSecret }),
        ...(issuer === undefined ? {} : { issuer }),
      } as StoredOAuthClientInformation
    }
    const stored = this.#settings.store.read().clients[context?.issuer ?? '']
    if (stored === undefined) return undefined
    // A registration for another redirect URI (an earlier loopback port) is registered again.
    const uris = stored.redirect_uris
    if (this.#redirectUrl !== undefined && Array.isArray(uris) && !uris.includes(this.#redirectUrl))
      return undefined
    return stored as unknown as StoredOAuthClientInformation
  }

  /**
   * The authorization server the pre-registered client's secret belongs to: the configured
   * `issuer`, else the first one it was given to (remembered in the store, keyed by the client
   * id). A secret about to go to another one is refused.
   */
  #secretIssuer(clientId: string, current: string | undefined): string | undefined {
    const key = `${pinnedPrefix}${clientId}`
    const pinned = this.#settings.issuer ?? this.#settings.store.read().clients[key]?.issuer
    if (current === undefined) return typeof pinned === 'string' ? pinned : undefined
    if (typeof pinned !== 'string') {
      this.#settings.store.update((data) => {
        data.clients[key] = { client_id: clientId, issuer: current }
      })
      return current
    }
    if (sameIssuer(pinned, current)) return pinned
    const why = this.#settings.issuer === undefined ? 'the first one it was sent to' : 'its configured issuer'
    throw new ClientError(
      'auth_required',
      `${this.#server} names the authorization server ${current}, but the secret of client '${clientId}' belongs to ${pinned} (${why}): it is not sent there`,
      { details: { server: this.#server, reason: 'issuer', issuer: current, expectedIssuer: pinned } },
    )
  }

  saveClientInformation(
    information: StoredOAuthClientInformation,
    context?: OAuthClientInformationContext,
  ): void {
    if (this.#settings.clientId !== undefined) return
    this.#settings.store.update((data) => {
      data.clients[context?.issuer ?? ''] = information as unknown as StoredClient
    })
  }

  tokens(context?: OAuthClientInformationContext): StoredOAuthTokens | undefined {
    const entry = this.#settings.store.read().tokens[this.#server]
    if (entry === undefined) return undefined
    if (context?.issuer !== undefined && entry.issuer !== undefined && entry.issuer !== context.issuer)
      return undefined
    return entry.tokens as unknown as StoredOAuthTokens
  }

  saveTokens(tokens: StoredOAuthTokens, context?: OAuthClientInformationContext): void {
    const stamped = tokens as unknown as Record<string, unknown>
    const issuer = context?.issuer ?? (typeof stamped.issuer === 'string' ? stamped.issuer : undefined)
    this.#droppedLogin = false
    this.#settings.store.update((data) => {
      data.tokens[this.#server] = { issuer, tokens: tokens as never, savedAt: Date.now() }
    })
  }

  async redirectToAuthorization(url: URL): Promise<void> {
    this.lastAuthorizationUrl = url
    await this.#settings.authorizer?.open(url)
  }

  saveCodeVerifier(verifier: string): void {
    this.#codeVerifier = verifier
  }

  codeVerifier(): string {
    if (this.#codeVerifier === undefined) throw new Error('no login is in progress')
    return this.#codeVerifier
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.#discovery
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.#discovery = state
  }

  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    if (scope === 'verifier') this.#codeVerifier = undefined
    if (scope === 'discovery' || scope === 'all') this.#discovery = undefined
    if (scope === 'tokens' || scope === 'all' || scope === 'client') {
      this.#settings.store.update((data) => {
        const issuer = data.tokens[this.#server]?.issuer
        if (scope !== 'client' && data.tokens[this.#server] !== undefined) {
          this.#droppedLogin = true
          delete data.tokens[this.#server]
        }
        if (scope !== 'tokens' && issuer !== undefined) delete data.clients[issuer]
      })
    }
  }
}
