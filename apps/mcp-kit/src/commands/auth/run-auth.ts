// `mcp-kit auth status|logout`: show logins from the credentials file (who, scopes, expiry —
// never a token), and log out (forget a server's tokens). Logging in is shared with `mcp-kit ui`
// (commands/shared/auth-login.ts).

import { type Io, write } from '../../base/io.js'
import { sanitizeLine } from '../../output/sanitize.js'
import { describeLogin, httpServer } from '../shared/auth-login.js'

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
    .map(([server, entry]) => describeLogin(server, entry))
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
