// `mcp-kit auth login`, and the login `mcp-kit ui` offers on its page: the SDK's OAuth flow with a
// loopback redirect, driven by the same connect() every command uses.

import type { TokenEntry } from '@mcp-kit/client'
import { CliError } from '../../base/errors.js'
import { type Io, write } from '../../base/io.js'
import { sanitizeLine } from '../../output/sanitize.js'
import type { ConnectionArguments } from '../../session/connection-flags.js'
import { oauthOptions, openSession, serverReference } from '../../session/open-session.js'
import { resolveForCli } from '../../session/reference.js'

export interface LoginArguments extends ConnectionArguments {
  reference: string
  'login-timeout': number
}

/** The HTTP server a reference names: logins are for those only. */
export async function httpServer(reference: string, io: Io) {
  const resolved = await resolveForCli(reference, io)
  const server = resolved.server
  if (server.transport !== 'http') {
    throw new CliError(
      'usage',
      `${reference} is a stdio server: logins are for HTTP servers (stdio servers take credentials from their environment)`,
    )
  }
  return { ...resolved, server }
}

/** The claims of a JWT access or ID token, for display only (never verified, never printed whole). */
function claims(token: string | undefined): Record<string, unknown> {
  const payload = token?.split('.')[1]
  if (payload === undefined) return {}
  try {
    return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>
  } catch {
    return {}
  }
}

/** A login as shown: who, by which issuer, its scopes and expiry (never a token). */
export function describeLogin(server: string, entry: TokenEntry) {
  const { tokens } = entry
  const id = claims(tokens.id_token)
  const access = claims(tokens.access_token)
  const subject = id.email ?? id.preferred_username ?? id.sub ?? access.sub
  const expiresAt =
    typeof tokens.expires_in === 'number'
      ? new Date(entry.savedAt + tokens.expires_in * 1000).toISOString()
      : typeof access.exp === 'number'
        ? new Date(access.exp * 1000).toISOString()
        : undefined
  return {
    server,
    issuer: entry.issuer,
    subject: typeof subject === 'string' ? subject : undefined,
    scopes: tokens.scope ?? '',
    expiresAt,
    expired: expiresAt !== undefined && Date.parse(expiresAt) <= Date.now(),
    refreshable: typeof tokens.refresh_token === 'string',
  }
}

export async function runAuthLogin(args: LoginArguments, io: Io): Promise<number> {
  const resolved = await httpServer(args.reference, io)
  const { credentialKey, defaultCredentialsPath, fileCredentialStore } = await import('@mcp-kit/client')
  const store = fileCredentialStore(defaultCredentialsPath(io.env))
  const key = credentialKey(resolved.server.url)
  // A login is always a fresh one (more scopes, another user): the current login is set aside,
  // and put back if the new one fails.
  const previous = store.read().tokens[key]
  store.update((data) => void delete data.tokens[key])
  // A login always offers the browser leg, terminal or not (--no-browser prints the URL).
  const oauth = await oauthOptions(resolved, args, io, serverReference(resolved), true)
  try {
    const session = await openSession(resolved, args, io, { oauth })
    await session.close()
  } catch (error) {
    // Tokens the server refused are of no use: what was there before comes back.
    store.update((data) => {
      if (previous === undefined) delete data.tokens[key]
      else data.tokens[key] = previous
    })
    throw error
  }
  const entry = store.read().tokens[key]
  if (entry === undefined) {
    await write(io.stdout, `${resolved.server.url} did not ask for a login: nothing to store\n`)
    return 0
  }
  const login = describeLogin(key, entry)
  await write(
    io.stdout,
    `logged in to ${sanitizeLine(key)}${login.subject ? ` as ${sanitizeLine(login.subject)}` : ''} (issuer ${sanitizeLine(String(login.issuer))}${login.scopes ? `, scopes: ${sanitizeLine(login.scopes)}` : ''})\n`,
  )
  return 0
}
