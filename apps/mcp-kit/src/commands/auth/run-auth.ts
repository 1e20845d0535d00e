// `mcp-kit auth`: log in (the SDK's OAuth flow with a loopback redirect, driven by the same
// connect() every command uses), show logins from the credentials file (who, scopes, expiry —
// never a token), and log out (forget a server's tokens).

import type { TokenEntry } from '@mcp-kit/client'
import { CliError } from '../../base/errors.js'
import { type Io, write } from '../../base/io.js'
import { sanitizeLine } from '../../output/sanitize.js'
import type { ConnectionArguments } from '../../session/connection-flags.js'
import { oauthOptions, openSession, serverReference } from '../../session/open-session.js'
import { resolveForCli } from '../../session/reference.js'

interface LoginArguments extends ConnectionArguments {
  reference: string
  'login-timeout': number
}

async function httpServer(reference: string, io: Io) {
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

function describe(server: string, entry: TokenEntry) {
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
  const login = describe(key, entry)
  await write(
    io.stdout,
    `logged in to ${sanitizeLine(key)}${login.subject ? ` as ${sanitizeLine(login.subject)}` : ''} (issuer ${sanitizeLine(String(login.issuer))}${login.scopes ? `, scopes: ${sanitizeLine(login.scopes)}` : ''})\n`,
  )
  return 0
}

export async function runAuthStatus(
  args: { reference?: string; format: 'text' | 'json' },
  io: Io,
): Promise<number> {
  const { credentialKey, defaultCredentialsPath, fileCredentialStore } = await import('@mcp-kit/client')
  const store = fileCredentialStore(defaultCredentialsPath(io.env))
  const only =
    args.reference === undefined
      ? undefined
      : credentialKey((await httpServer(args.reference, io)).server.url)
  const logins = Object.entries(store.read().tokens)
    .filter(([server]) => only === undefined || server === only)
    .map(([server, entry]) => describe(server, entry))
  if (args.format === 'json') {
    await write(io.stdout, `${JSON.stringify(logins)}\n`)
    return only !== undefined && logins.length === 0 ? 1 : 0
  }
  if (logins.length === 0) {
    await write(io.stdout, only === undefined ? 'no logins\n' : `not logged in to ${only}\n`)
    return only === undefined ? 0 : 1
  }
  for (const login of logins) {
    const state = login.expired
      ? login.refreshable
        ? 'expired (refreshes on next use)'
        : 'expired'
      : 'valid'
    await write(
      io.stdout,
      `${sanitizeLine(login.server)}\n  issuer: ${sanitizeLine(String(login.issuer))}\n  user: ${sanitizeLine(login.subject ?? '(unknown)')}\n  scopes: ${sanitizeLine(login.scopes || '(none)')}\n  expires: ${login.expiresAt ?? '(no expiry given)'} — ${state}\n`,
    )
  }
  return 0
}

export async function runAuthLogout(args: { reference: string }, io: Io): Promise<number> {
  const resolved = await httpServer(args.reference, io)
  const { credentialKey, defaultCredentialsPath, fileCredentialStore, logout } = await import(
    '@mcp-kit/client'
  )
  const store = fileCredentialStore(defaultCredentialsPath(io.env))
  const key = sanitizeLine(credentialKey(resolved.server.url))
  const result = await logout(store, resolved.server.url)
  if (!result.removed) {
    await write(io.stdout, `not logged in to ${key}\n`)
    return 0
  }
  if (result.problem !== undefined) {
    io.stderr.write(
      `mcp-kit: warning: tokens not revoked (${sanitizeLine(result.problem)}); removed from this machine\n`,
    )
  }
  await write(
    io.stdout,
    `logged out of ${key}${result.revoked > 0 ? ` (${result.revoked} token${result.revoked === 1 ? '' : 's'} revoked)` : ''}\n`,
  )
  return 0
}
