// @module-tag integration
// A gateway in front of OAuth-protected upstreams, run as a user would: a real authorization
// server (oidc-provider), `mcp-kit serve --auth-issuer` as the protected upstream, `mcp-kit auth
// login` done headlessly through the authorization server's pages, then `mcp-kit serve
// name=URL` (or `--config` with a client_credentials client) whose calls reach the upstream as
// the logged-in user (or the client). An expired login that cannot be refreshed fails the
// upstream saying so and naming `mcp-kit auth login`; a new login mends it without a restart.

import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { headlessLogin, type RunningAuthServer, startAuthServer } from '@mcp-kit/fixtures/auth-server'
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest'
import {
  binPath,
  type CliResult,
  runCli,
  type Serving,
  startServe,
  stopStarted,
} from '../../helpers/helpers.js'

const accessTokenTtl = 3
const home = mkdtempSync(join(tmpdir(), 'mcp-kit-gateway-oauth-'))
const env = { MCP_KIT_HOME: join(home, 'config'), MCP_KIT_CACHE_DIR: join(home, 'cache') }
const credentialsPath = join(home, 'config', 'credentials.json')
const moduleFile = join(home, 'tools.mjs')
writeFileSync(
  moduleFile,
  `export default ({ createToolRegistry }) => createToolRegistry()
  .tool({ name: 'whoami', scopes: ['tools:read'], handler: (_args, context) => ({ subject: context.authInfo?.subject }) })
`,
)

let authServer: RunningAuthServer

beforeAll(async () => {
  authServer = await startAuthServer({
    accessTokenTtl,
    clients: [
      {
        client_id: 'nightly-gateway',
        client_secret: 'a-long-client-secret-for-tests',
        grant_types: ['client_credentials'],
        redirect_uris: [],
        response_types: [],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
  })
})

afterEach(stopStarted)

afterAll(async () => {
  await authServer?.close()
  rmSync(home, { recursive: true, force: true })
})

interface StoredLogins {
  tokens: Record<string, { tokens: { access_token: string; refresh_token?: string } }>
}

function storedLogins(): StoredLogins {
  try {
    return JSON.parse(readFileSync(credentialsPath, 'utf8')) as StoredLogins
  } catch {
    return { tokens: {} }
  }
}

/** The protected upstream: tokens from the test authorization server required. */
function startProtected(): Promise<Serving> {
  return startServe([moduleFile, '--port', '0', '--auth-issuer', authServer.issuer], env)
}

/**
 * `mcp-kit auth login <reference> --no-browser` as `user`: the printed URL is gone through
 * headlessly and its redirect delivered to the command's loopback listener.
 */
async function login(reference: string, user: string): Promise<void> {
  const child = spawn(process.execPath, [binPath, 'auth', 'login', reference, '--no-browser'], {
    env: { ...process.env, NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  const printed = new Promise<string>((resolve) => {
    child.stderr.setEncoding('utf8').on('data', (text: string) => {
      output += text
      const url = /(http:\/\/127\.0\.0\.1:\d+\/auth\?\S+)/.exec(output)?.[1]
      if (url !== undefined) resolve(url)
    })
  })
  child.stdout.setEncoding('utf8').on('data', (text: string) => (output += text))
  const exited = new Promise<number | null>((resolve) => child.once('close', resolve))
  const url = await Promise.race([printed, exited.then(() => undefined)])
  if (url !== undefined) await (await fetch(await headlessLogin(url, user))).text()
  expect({ code: await exited, output }).toMatchObject({ code: 0 })
}

/** Leaves the stored login without its refresh token, as from a server that issues none. */
function dropRefreshTokens(): void {
  const data = storedLogins()
  for (const entry of Object.values(data.tokens)) delete entry.tokens.refresh_token
  writeFileSync(credentialsPath, JSON.stringify(data), { mode: 0o600 })
}

function whoami(gateway: Serving, tool = 'remote__whoami'): Promise<CliResult> {
  return runCli(['cat', `mcp+${gateway.url}?tool=${tool}`], { env })
}

async function health(gateway: Serving): Promise<{ state: string; error?: string }> {
  const answer = (await (await fetch(new URL('/healthz', gateway.url))).json()) as {
    upstreams: Record<string, { state: string; error?: string }>
  }
  return answer.upstreams.remote as { state: string; error?: string }
}

const expired = (url: string) =>
  new RegExp(
    `the login to ${url.replace(/[.?]/g, '\\$&')} has expired and it cannot be refreshed \\(no refresh token\\): run 'mcp-kit auth login mcp\\+${url.replace(/[.?]/g, '\\$&')}'`,
  )

test('auth login URL, then serve name=URL: calls reach the upstream as the logged-in user, refreshed past expiry', async () => {
  const upstream = await startProtected()
  await login(`mcp+${upstream.url}`, 'carol')
  const first = storedLogins().tokens[upstream.url]?.tokens.access_token
  expect(first).toBeTruthy()

  const gateway = await startServe([`remote=mcp+${upstream.url}`, '--port', '0'], env)
  const call = await whoami(gateway)
  expect(call.stderr).toBe('')
  expect(JSON.parse(call.stdout)).toEqual({ subject: 'carol' })

  // Past the access token's life the gateway refreshes it (no new login) and goes on as carol.
  const logins = authServer.stats.authorizations
  await new Promise((resolve) => setTimeout(resolve, accessTokenTtl * 1000 + 500))
  const later = await whoami(gateway)
  expect(later.stderr).toBe('')
  expect(JSON.parse(later.stdout)).toEqual({ subject: 'carol' })
  expect(authServer.stats.authorizations).toBe(logins)
  expect(storedLogins().tokens[upstream.url]?.tokens.access_token).not.toBe(first)
  expect(await health(gateway)).toMatchObject({ state: 'running' })
  // No token of the login is in the gateway's log.
  expect(gateway.stderr()).not.toContain(first)
})

test('an expired login that cannot be refreshed: the upstream fails saying so, naming mcp-kit auth login; a new login mends it', async () => {
  const upstream = await startProtected()
  const reference = `mcp+${upstream.url}`
  await login(reference, 'dave')
  dropRefreshTokens()
  const logins = authServer.stats.authorizations
  await new Promise((resolve) => setTimeout(resolve, accessTokenTtl * 1000 + 500))

  // At start: /healthz and the log say the login expired and what to run; no browser, no hang.
  const gateway = await startServe([`remote=${reference}`, '--port', '0'], env)
  expect(await health(gateway)).toMatchObject({
    state: 'failed',
    error: expect.stringMatching(expired(upstream.url)),
  })
  expect(gateway.stderr()).toMatch(/upstream 'remote' failed: .*the login to .* has expired/)
  expect(gateway.stderr()).toMatch(expired(upstream.url))
  expect(authServer.stats.authorizations).toBe(logins)

  // A new login is picked up by the next retry, without restarting the gateway.
  await login(reference, 'dave')
  const deadline = Date.now() + 20_000
  while ((await health(gateway)).state !== 'running' && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 200))
  const call = await whoami(gateway)
  expect(call.stderr).toBe('')
  expect(JSON.parse(call.stdout)).toEqual({ subject: 'dave' })

  // Expiring while the upstream runs: the call says so, the upstream is failed until a login.
  dropRefreshTokens()
  await new Promise((resolve) => setTimeout(resolve, accessTokenTtl * 1000 + 500))
  const refused = await whoami(gateway)
  expect(refused.code).not.toBe(0)
  expect(refused.stderr).toMatch(expired(upstream.url))
  expect(await health(gateway)).toMatchObject({
    state: 'failed',
    error: expect.stringMatching(expired(upstream.url)),
  })
})

test('a client_credentials client in the --config file: calls reach the upstream as that client, no login stored', async () => {
  const upstream = await startProtected()
  const config = join(home, 'gateway.json')
  writeFileSync(
    config,
    JSON.stringify({
      mcpServers: {
        remote: {
          url: upstream.url,
          oauth: { clientId: 'nightly-gateway', clientSecret: '${GATEWAY_SECRET}', scope: 'tools:read' },
        },
      },
    }),
  )
  const gateway = await startServe(['--config', config, '--port', '0'], {
    ...env,
    GATEWAY_SECRET: 'a-long-client-secret-for-tests',
  })
  const call = await whoami(gateway)
  expect(call.stderr).toBe('')
  expect(JSON.parse(call.stdout)).toEqual({ subject: 'nightly-gateway' })
  // Past the token's life the client asks for a new one by itself.
  await new Promise((resolve) => setTimeout(resolve, accessTokenTtl * 1000 + 500))
  expect(JSON.parse((await whoami(gateway)).stdout)).toEqual({ subject: 'nightly-gateway' })
  // The gateway's own tokens stay in its memory: nothing in the user's credentials file.
  expect(storedLogins().tokens[upstream.url]).toBeUndefined()
  expect(gateway.stderr()).not.toContain('a-long-client-secret-for-tests')
})
