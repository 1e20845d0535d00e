// OAuth for one HTTP server, as the Streamable HTTP transport's auth hook: the stored token on every
// request, the SDK's `auth()` flow on 401, step-up on 403 `insufficient_scope`; tokens stay in here.

import { ClientError } from '../errors.js'
import type { FetchLike } from '../http/transport-options.js'
import { oauthFetch } from './oauth-fetch.js'
import { type OAuthSettings, StoreProvider } from './provider.js'

export const maximumStepUps = 3

export interface AuthHook {
  headers(): Promise<Record<string, string>>
  onUnauthorized(status: 401 | 403, response: Response): Promise<boolean>
}

export interface OAuthHookOptions extends OAuthSettings {
  serverUrl: string
  fetch: FetchLike
  /** How to tell a user to log in: ends an `auth_required` message (e.g. the command that does it). */
  loginHint?: string | undefined
  onDiagnostic?: ((message: string) => void) | undefined
}

function scopes(text: string | undefined): string[] {
  return (text ?? '').split(/\s+/).filter(Boolean)
}

/** A login: the SDK's `auth()`, then, if it wants the browser, the authorizer and the code exchange. */
export async function authorize(
  provider: StoreProvider,
  options: OAuthHookOptions,
  challenge: { resourceMetadataUrl?: URL; scope?: string },
  force = false,
): Promise<void> {
  // A client acting for itself asks for tokens again; it has no login to run.
  const authorizer = provider.clientCredentials ? undefined : options.authorizer
  // Without a way to log in, only a refresh can help: do not register or start a login for nothing.
  if (
    authorizer === undefined &&
    !provider.clientCredentials &&
    (force || provider.tokens()?.refresh_token === undefined)
  )
    throw loginNeeded(provider, options, force ? challenge.scope : undefined)
  const sdk = await import('@modelcontextprotocol/client')
  if (authorizer !== undefined) provider.useRedirect(await authorizer.prepare())
  const base = {
    serverUrl: options.serverUrl,
    resourceMetadataUrl: challenge.resourceMetadataUrl,
    scope: challenge.scope ?? options.scope,
    fetchFn: oauthFetch(options.fetch, options.onDiagnostic) as never,
  }
  let result: string
  try {
    result = await sdk.auth(provider, { ...base, forceReauthorization: force })
  } catch (error) {
    throw authError(error, options)
  }
  if (result === 'AUTHORIZED') return
  if (authorizer === undefined) throw loginNeeded(provider, options)
  const callback = await authorizer.callback()
  // The state first: nothing else in a callback that is not this login's is to be believed (the
  // loopback authorizer waits for the right one; another Authorizer may not).
  if (provider.expectedState === undefined || callback.get('state') !== provider.expectedState) {
    throw new ClientError('auth_required', 'the login callback did not carry the state this login sent')
  }
  const error = callback.get('error')
  if (error !== null) {
    const description = callback.get('error_description')
    throw new ClientError(
      'auth_required',
      `the authorization server refused the login: ${error}${description ? ` (${description})` : ''}`,
    )
  }
  const code = callback.get('code')
  if (code === null)
    throw new ClientError('auth_required', 'the login callback carried no authorization code')
  try {
    result = await sdk.auth(provider, {
      ...base,
      authorizationCode: code,
      iss: callback.get('iss') ?? undefined,
    })
  } catch (failure) {
    throw authError(failure, options)
  }
  if (result !== 'AUTHORIZED') throw new ClientError('auth_required', 'the login did not complete')
}

/**
 * Why a login is needed, with what to run: `details.reason` is `scope` (a login with more
 * scopes), `expired` (the login there was is over and cannot be refreshed) or `login` (none).
 */
function loginNeeded(provider: StoreProvider, options: OAuthHookOptions, scope?: string): ClientError {
  const hint = options.loginHint ? `: run '${options.loginHint}'` : ''
  const server = options.serverUrl
  if (scope !== undefined) {
    return new ClientError('auth_required', `${server} needs a login with the scopes ${scope}${hint}`, {
      details: { server, reason: 'scope' },
    })
  }
  if (provider.loginExpired()) {
    const why =
      provider.tokens() === undefined
        ? 'the authorization server refused to refresh it'
        : 'it cannot be refreshed (no refresh token)'
    return new ClientError('auth_required', `the login to ${server} has expired and ${why}${hint}`, {
      details: { server, reason: 'expired' },
    })
  }
  return new ClientError('auth_required', `${server} needs a login${hint}`, {
    details: { server, reason: 'login' },
  })
}

function authError(error: unknown, options: OAuthHookOptions): ClientError {
  if (ClientError.isInstance(error)) return error
  const message = (error as Error)?.message ?? String(error)
  return new ClientError('auth_required', `logging in to ${options.serverUrl} failed: ${message}`, {
    cause: error,
  })
}

/**
 * The auth hook of one HTTP server. A 401 runs the MCP authorization flow (protected-resource and
 * authorization-server discovery, registration, PKCE, token exchange, refresh) and a login when one
 * is needed and possible; a 403 `insufficient_scope` asks again for the union of the scopes, at
 * most a few times. A client_credentials client asks for new tokens instead of a login.
 */
export function createOAuthHook(options: OAuthHookOptions): AuthHook & { provider: StoreProvider } {
  const provider = new StoreProvider(options.serverUrl, options)
  let stepUps = 0
  let refreshing: Promise<void> | undefined
  return {
    provider,
    async headers(): Promise<Record<string, string>> {
      // An access token known to have expired is refreshed first (once for concurrent requests),
      // saving the round trip of a 401; if that fails, the 401 path decides what happens.
      const expiresAt = provider.expiresAt()
      const renewable = provider.clientCredentials || provider.tokens()?.refresh_token !== undefined
      if (expiresAt !== undefined && Date.now() >= expiresAt - 5000 && renewable) {
        refreshing ??= authorize(provider, { ...options, authorizer: undefined }, {})
          .catch(() => {})
          .finally(() => {
            refreshing = undefined
          })
        await refreshing
      }
      const tokens = provider.tokens()
      return tokens === undefined ? {} : { authorization: `Bearer ${tokens.access_token}` }
    },
    async onUnauthorized(status, response) {
      const { extractWWWAuthenticateParams } = await import('@modelcontextprotocol/client')
      const challenge = extractWWWAuthenticateParams(response)
      if (status === 403) {
        if (challenge.error !== 'insufficient_scope') return false
        if (stepUps >= maximumStepUps) {
          throw new ClientError(
            'auth_required',
            `${options.serverUrl} still refuses after ${maximumStepUps} logins with more scopes (insufficient_scope)`,
          )
        }
        stepUps += 1
        const granted = scopes(provider.tokens()?.scope)
        const union = [...new Set([...granted, ...scopes(challenge.scope)])].join(' ')
        options.onDiagnostic?.(
          `${options.serverUrl} wants more scopes (${challenge.scope ?? 'unnamed'}); logging in again`,
        )
        await authorize(
          provider,
          options,
          { resourceMetadataUrl: challenge.resourceMetadataUrl, scope: union || undefined },
          true,
        )
        return true
      }
      // A new challenge may name another authorization server (SEP-2352): discover afresh.
      provider.invalidateCredentials('discovery')
      await authorize(provider, options, {
        resourceMetadataUrl: challenge.resourceMetadataUrl,
        scope: challenge.scope,
      })
      return true
    },
  }
}
