// Credentials for an API, as its security schemes say to send them: an API key in a header, the
// query or a cookie; HTTP bearer or basic; an OAuth 2 or OpenID Connect access token, or OAuth 2
// client credentials exchanged for one at the scheme's token URL. For each operation the first
// of its security alternatives that every credential is there for is used. Credentials only go
// with requests to the API's own origin, and no message ever shows them (http/redact.ts).

import type { OpenApiDocument } from '../document/load.js'
import type { HttpRequest } from '../http/request.js'
import { encode } from '../http/serialize.js'
import type { SecurityRequirements } from '../tools/operations.js'
import { type ClientCredentials, createTokenSource } from './client-credentials.js'

/** A secret for one security scheme: a key or token, a user and password (basic), or an OAuth client. */
export type OpenApiCredential = string | { username: string; password: string } | ClientCredentials

type Scheme = Record<string, unknown>

function schemesOf(document: OpenApiDocument): Record<string, Scheme> {
  const components = document.spec.components as { securitySchemes?: Record<string, Scheme> } | undefined
  return components?.securitySchemes ?? {}
}

/** A name as it appears in a variable: upper case, each run of other characters one `_`, none at the ends. */
function variableWord(name: string): string {
  return name
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
}

/**
 * The environment variable that holds the credential of security scheme `scheme` of the API named
 * `api`: `MCP_KIT_OPENAPI_<API>__<SCHEME>` (each name upper-cased, runs of other characters one
 * `_`). A word never holds `__`, so the first `__` ends the API's name: no scheme of one API can
 * name a variable of another. Undefined when a name has no letter or digit.
 */
export function environmentVariable(api: string, scheme: string): string | undefined {
  const apiWord = variableWord(api)
  const schemeWord = variableWord(scheme)
  return apiWord === '' || schemeWord === '' ? undefined : `MCP_KIT_OPENAPI_${apiWord}__${schemeWord}`
}

/**
 * Credentials for the document's security schemes from the environment, for the API named `api`
 * (see `environmentVariable`): `MCP_KIT_OPENAPI_<API>__<SCHEME>` holds a key or token,
 * `user:password` for basic; `…__<SCHEME>__CLIENT_ID` and `…__CLIENT_SECRET` an OAuth client
 * (client credentials). Variables are bound to one API's name, so two documents never share them.
 */
export function credentialsFromEnvironment(
  document: OpenApiDocument,
  api: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Record<string, OpenApiCredential> {
  const found: Record<string, OpenApiCredential> = {}
  for (const [name, scheme] of Object.entries(schemesOf(document))) {
    const variable = environmentVariable(api, name)
    if (variable === undefined) continue
    const clientId = env[`${variable}__CLIENT_ID`]
    const clientSecret = env[`${variable}__CLIENT_SECRET`]
    if (scheme.type === 'oauth2' && clientId && clientSecret) {
      found[name] = { clientId, clientSecret }
      continue
    }
    const value = env[variable]
    if (value === undefined || value === '') continue
    if (scheme.type === 'http' && String(scheme.scheme).toLowerCase() === 'basic' && value.includes(':')) {
      const at = value.indexOf(':')
      found[name] = { username: value.slice(0, at), password: value.slice(at + 1) }
    } else {
      found[name] = value
    }
  }
  return found
}

/** Every secret the credentials hold, in the forms they are sent (for the redactor). */
export function credentialSecrets(credentials: Readonly<Record<string, OpenApiCredential>>): string[] {
  const secrets: string[] = []
  const basic = (pair: string) => Buffer.from(pair).toString('base64')
  for (const credential of Object.values(credentials)) {
    if (typeof credential === 'string') {
      secrets.push(credential, basic(credential))
      if (credential.includes(':')) secrets.push(credential.slice(credential.indexOf(':') + 1))
    } else if ('password' in credential) {
      secrets.push(credential.password, basic(`${credential.username}:${credential.password}`))
    } else {
      secrets.push(
        credential.clientSecret,
        basic(`${encodeURIComponent(credential.clientId)}:${encodeURIComponent(credential.clientSecret)}`),
      )
    }
  }
  return secrets
}

/** Adds to a request what its operation's security asks for, when the credentials are there. */
export type Authorizer = (
  request: HttpRequest,
  security: SecurityRequirements,
  signal: AbortSignal,
) => Promise<void>

export function createAuthorizer(
  document: OpenApiDocument,
  credentials: Readonly<Record<string, OpenApiCredential>>,
  base: URL,
  fetchToken: typeof fetch | undefined,
  onToken: (token: string) => void = () => {},
): Authorizer {
  const schemes = schemesOf(document)
  const tokenSources = new Map<string, ReturnType<typeof createTokenSource>>()
  const usable = (name: string) => schemes[name] !== undefined && credentials[name] !== undefined
  return async (request, security, signal) => {
    if (request.url.origin !== base.origin) return
    const chosen = security.find((requirement) => Object.keys(requirement).every(usable))
    if (chosen === undefined) return
    for (const [name, scopes] of Object.entries(chosen)) {
      const scheme = schemes[name] as Scheme
      const credential = credentials[name] as OpenApiCredential
      const kind = String(scheme.type)
      if (kind === 'apiKey' && typeof credential === 'string' && typeof scheme.name === 'string') {
        if (scheme.in === 'query') request.secretQuery.push(`${encode(scheme.name)}=${encode(credential)}`)
        else if (scheme.in === 'cookie') request.cookies.push(`${encode(scheme.name)}=${encode(credential)}`)
        else request.headers[scheme.name.toLowerCase()] = credential
      } else if (kind === 'http' && String(scheme.scheme).toLowerCase() === 'basic') {
        const pair =
          typeof credential === 'string'
            ? credential
            : 'username' in credential
              ? `${credential.username}:${credential.password}`
              : ''
        request.headers.authorization = `Basic ${Buffer.from(pair).toString('base64')}`
      } else if (typeof credential === 'string') {
        const word = kind === 'http' && typeof scheme.scheme === 'string' ? scheme.scheme : 'Bearer'
        request.headers.authorization = `${word.toLowerCase() === 'bearer' ? 'Bearer' : word} ${credential}`
      } else if (kind === 'oauth2' && 'clientId' in credential) {
        const key = `${name} ${[...scopes].sort().join(' ')}`
        let source = tokenSources.get(key)
        if (source === undefined) {
          source = createTokenSource(name, scheme, credential, scopes, base, fetchToken, onToken)
          tokenSources.set(key, source)
        }
        request.headers.authorization = `Bearer ${await source.token(signal)}`
      }
    }
  }
}
