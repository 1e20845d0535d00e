// The gate every request to the MCP endpoint passes before its method is looked at: Host and
// Origin checks against DNS rebinding (403), the CORS preflight (204), and the credentials: the
// one shared bearer token (401), or an OAuth access token checked by auth/oauth-resource.ts
// (401 or 403 with the challenge clients act on). The verdicts come from request-guard.ts and
// the OAuth resource; this module turns them into answers.

import type { IncomingMessage, ServerResponse } from 'node:http'
import type { OAuthResource, Refusal } from '../../auth/oauth-resource.js'
import { principalOf } from '../../auth/principal.js'
import type { AuthInfo } from '../../context.js'
import { rpcCodes } from '../../errors.js'
import { headerValue, refuse } from '../answers.js'
import { createRequestGuard, type GuardOptions } from './request-guard.js'

/** What an admitted request carries on: CORS headers for its answer and who the client is. */
export interface Admission {
  /** Extra headers (CORS) every answer to this request gets. */
  headers: readonly string[]
  /** The verified bearer token, when the server requires one. */
  authInfo: AuthInfo | undefined
  /**
   * Who the client is (its principal, auth/principal.ts), when authentication tells clients
   * apart; undefined for the one shared bearer token, which every client holds alike.
   */
  clientIdentity: string | undefined
}

/**
 * Admits a request, or answers it (403, 401, or 204 to a preflight) and returns undefined; a
 * promise when an OAuth token is being verified.
 */
export type Admit = (
  request: IncomingMessage,
  response: ServerResponse,
) => Admission | undefined | Promise<Admission | undefined>

export interface AdmissionOptions extends GuardOptions {
  /** Verify OAuth access tokens instead of one shared token (it may still be starting up). */
  oauth?: Promise<OAuthResource>
  /** Named bearer tokens: who a token is, or undefined for an unknown one (replaces `token`). */
  verifyToken?: ((token: string) => AuthInfo | undefined) | undefined
}

const bearerPattern = /^Bearer[ \t]+(\S+)[ \t]*$/i

export const allowedMethods = 'GET, POST, DELETE, OPTIONS'

function corsHeaders(origin: string | undefined): readonly string[] {
  if (origin === undefined) return []
  return [
    'access-control-allow-origin',
    origin,
    'access-control-expose-headers',
    'mcp-session-id, mcp-protocol-version, www-authenticate',
    'vary',
    'origin',
  ]
}

const baseAllowedHeaders = [
  'content-type',
  'authorization',
  'mcp-session-id',
  'mcp-protocol-version',
  'last-event-id',
  'mcp-method',
  'mcp-name',
]

/** CORS: the standard MCP headers, plus whatever `Mcp-Param-*` headers the preflight asks for. */
function allowedRequestHeaders(requested: string | undefined): string {
  if (requested === undefined) return baseAllowedHeaders.join(', ')
  const params = requested
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => /^mcp-param-[!#$%&'*+\-.^_`|~0-9a-z]+$/.test(name))
  return [...baseAllowedHeaders, ...params].join(', ')
}

export function createAdmission(options: AdmissionOptions): Admit {
  const guard = createRequestGuard(options)
  const tokenAuthInfo: AuthInfo | undefined =
    options.token === undefined
      ? undefined
      : Object.freeze({ token: options.token, clientId: 'bearer', scopes: [] })

  return (request, response) => {
    const requestHeaders = request.headers
    if (!guard.hostAllowed(requestHeaders.host)) {
      refuse(
        request,
        response,
        403,
        rpcCodes.transportError,
        `Forbidden: Host ${JSON.stringify(String(requestHeaders.host ?? '').slice(0, 100))} is not allowed`,
      )
      return undefined
    }
    const origin = headerValue(requestHeaders.origin)
    if (!guard.originAllowed(origin)) {
      refuse(
        request,
        response,
        403,
        rpcCodes.transportError,
        `Forbidden: Origin ${JSON.stringify(String(origin).slice(0, 100))} is not allowed`,
      )
      return undefined
    }
    const headers = corsHeaders(origin)
    if (request.method === 'OPTIONS') {
      request.resume()
      response.writeHead(204, [
        ...headers,
        'access-control-allow-methods',
        allowedMethods,
        'access-control-allow-headers',
        allowedRequestHeaders(headerValue(requestHeaders['access-control-request-headers'])),
        'access-control-max-age',
        '600',
        'allow',
        allowedMethods,
      ])
      response.end()
      return undefined
    }
    const oauth = options.oauth
    if (oauth !== undefined) return admitOAuth(oauth, request, response, headers)
    const verifyToken = options.verifyToken
    let authInfo = tokenAuthInfo
    let verdict = 'ok'
    if (verifyToken !== undefined) {
      const presented = bearerPattern.exec(headerValue(requestHeaders.authorization) ?? '')?.[1]
      authInfo = presented === undefined ? undefined : verifyToken(presented)
      verdict = presented === undefined ? 'missing' : authInfo === undefined ? 'invalid' : 'ok'
    } else verdict = guard.checkToken(headerValue(requestHeaders.authorization))
    if (verdict !== 'ok') {
      const challenge =
        verdict === 'invalid' ? 'Bearer realm="mcp", error="invalid_token"' : 'Bearer realm="mcp"'
      refuse(
        request,
        response,
        401,
        rpcCodes.transportError,
        'Unauthorized: a valid bearer token is required',
        [...headers, 'www-authenticate', challenge],
      )
      return undefined
    }
    // A named token tells its holder apart from the others'; the one shared token tells nobody apart.
    const clientIdentity = verifyToken === undefined ? undefined : principalOf(authInfo)
    return { headers, authInfo, clientIdentity }
  }
}

async function admitOAuth(
  oauth: Promise<OAuthResource>,
  request: IncomingMessage,
  response: ServerResponse,
  headers: readonly string[],
): Promise<Admission | undefined> {
  const verdict = await (await oauth).verify(headerValue(request.headers.authorization))
  if (!verdict.ok) {
    refuseVerdict(request, response, verdict, headers)
    return undefined
  }
  const { authInfo } = verdict
  return { headers, authInfo, clientIdentity: principalOf(authInfo) }
}

/** Answers a refused OAuth verdict: its status, its message, its `WWW-Authenticate` challenge. */
export function refuseVerdict(
  request: IncomingMessage,
  response: ServerResponse,
  verdict: Refusal,
  headers: readonly string[],
): void {
  const reason = verdict.status === 401 ? 'Unauthorized' : 'Forbidden'
  refuse(request, response, verdict.status, rpcCodes.transportError, `${reason}: ${verdict.message}`, [
    ...headers,
    'www-authenticate',
    verdict.challenge,
  ])
}
