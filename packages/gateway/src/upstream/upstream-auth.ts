// OAuth for a gateway's HTTP upstreams: each uses its own credentials, never a client's token —
// the login stored for its URL (refreshed by the client package as it expires), or a
// pre-registered client getting tokens for itself (client_credentials), whose secret goes only to
// its authorization server (`issuer`, else the first one it went to). No upstream ever gets an
// authorizer, so a gateway never opens a browser: a login that is missing or over fails the
// upstream with a message saying what to run.

import { ClientError, type ConnectOptions, memoryCredentialStore } from '@mcp-kit/client'
import type { GatewayOptions, UpstreamOptions } from '../types.js'

/** The upstream with its OAuth settings in `connect.oauth` (unchanged when it has its own or is stdio). */
export function withUpstreamAuth(upstream: UpstreamOptions, gateway: GatewayOptions): UpstreamOptions {
  if (upstream.server.transport !== 'http') return upstream
  if (upstream.connect?.oauth !== undefined || gateway.connect?.oauth !== undefined) return upstream
  const settings = upstream.oauth ?? {}
  const grant =
    settings.grant ?? (settings.clientSecret === undefined ? 'authorization_code' : 'client_credentials')
  // Tokens a client gets for itself are the gateway's alone: kept in memory, never in a user's file.
  const store = grant === 'client_credentials' ? memoryCredentialStore() : gateway.credentials
  if (store === undefined) return upstream
  const oauth: NonNullable<ConnectOptions['oauth']> = {
    store,
    grant,
    clientId: settings.clientId,
    clientSecret: settings.clientSecret,
    issuer: settings.issuer,
    scope: settings.scope,
    loginHint: gateway.loginHint?.(upstream),
    authorizer: undefined,
  }
  return { ...upstream, connect: { ...upstream.connect, oauth } }
}

/**
 * True for a failure that only a new login can mend (none, or an expired one that cannot be
 * refreshed); not a tool's wish for more scopes, which concerns that tool alone.
 */
export function isLoginLost(error: unknown): error is ClientError {
  return ClientError.isInstance(error) && error.code === 'auth_required' && error.details?.reason !== 'scope'
}
