// @module-tag integration
// OAuth end to end, as a user meets it: `mcp-kit serve --auth-issuer` in front of a real
// authorization server (oidc-provider), `mcp-kit auth login` through its login and consent pages
// in a real browser (Debian's Chromium, driven by Playwright), calls that use the stored login,
// a refresh without a browser once the access token expires, a step-up for a tool that needs
// more scopes, logout with revocation — and no token in any output, the credentials file 0600.

import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type RunningAuthServer, startAuthServer } from '@mcp-kit/fixtures/auth-server'
import { type Browser, chromium } from 'playwright-core'
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest'
import { binPath, type CliResult, runCli, startServe, stopStarted } from '../../helpers/helpers.js'

const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const home = mkdtempSync(join(tmpdir(), 'mcp-kit-oauth-'))
const env = { MCP_KIT_HOME: join(home, 'config'), MCP_KIT_CACHE_DIR: join(home, 'cache') }
const credentialsPath = join(home, 'config', 'credentials.json')
const moduleFile = join(home, 'tools.mjs')
writeFileSync(
  moduleFile,
  `export default ({ createToolRegistry }) => createToolRegistry()
  .tool({ name: 'whoami', scopes: ['tools:read'], handler: (_args, context) => ({ subject: context.authInfo?.subject, scopes: context.authInfo?.scopes }) })
  .tool({ name: 'purge', scopes: ['admin'], handler: () => 'purged' })
`,
)

let authServer: RunningAuthServer
let browser: Browser
/** Every output of every command, to check no token ever appears in one. */
const outputs: string[] = []

beforeAll(async () => {
  if (!existsSync(chromiumPath)) {
    throw new Error(
      `these tests drive a real browser: install Debian's chromium (apt-get install chromium) or set CHROMIUM_PATH`,
    )
  }
  authServer = await startAuthServer({ accessTokenTtl: 3 })
  browser = await chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox', '--headless=new'] })
})

afterEach(stopStarted)

afterAll(async () => {
  await browser?.close()
  await authServer?.close()
  rmSync(home, { recursive: true, force: true })
})

async function cli(args: string[]): Promise<CliResult> {
  const result = await runCli(args, { env })
  outputs.push(result.stdout, result.stderr)
  return result
}

/**
 * `mcp-kit auth login` with the URL printed (--no-browser), the login and consent done in
 * Chromium as `user`; resolves with the command's result.
 */
async function browserLogin(reference: string, extra: string[] = [], user = 'alice'): Promise<CliResult> {
  const child = spawn(process.execPath, [binPath, 'auth', 'login', reference, '--no-browser', ...extra], {
    env: { ...process.env, NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text))
  const printed = new Promise<string>((resolve) => {
    child.stderr.setEncoding('utf8').on('data', (text: string) => {
      stderr += text
      const url = /(http:\/\/127\.0\.0\.1:\d+\/auth\?\S+)/.exec(stderr)?.[1]
      if (url !== undefined) resolve(url)
    })
  })
  const exited = new Promise<number | null>((resolve) => child.once('close', resolve))
  const url = await Promise.race([printed, exited.then(() => undefined)])
  if (url !== undefined) {
    const page = await browser.newPage()
    try {
      await page.goto(url)
      await page.fill('input[name=login]', user)
      await page.fill('input[name=password]', 'any password')
      await page.click('button[type=submit]')
      await page.waitForSelector('button[autofocus], button[type=submit]')
      await page.click('button[type=submit]')
      await page.waitForURL(/^http:\/\/127\.0\.0\.1:\d+\/callback/)
      expect(await page.textContent('body')).toMatch(/logged in/i)
    } finally {
      await page.close()
    }
  }
  const code = await exited
  const result = { code, signal: null, stdout, stderr, milliseconds: 0 }
  outputs.push(stdout, stderr)
  return result
}

test('login in the browser, calls, a refresh without the browser, step-up, logout; no token printed', async () => {
  const serving = await startServe([moduleFile, '--port', '0', '--auth-issuer', authServer.issuer], env)
  expect(serving.stderr()).toMatch(/OAuth tokens from http:\/\/127\.0\.0\.1:\d+ required/)
  const server = `mcp+${serving.url}`

  // Without a login and without a terminal, a command says what to do (exit 7).
  const before = await cli(['cat', `${server}?tool=whoami`])
  expect(before.code).toBe(7)
  expect(before.stderr).toMatch(/mcp-kit auth login/)

  // Only some scopes (without --scope, a login asks for all the server lists).
  const login = await browserLogin(server, ['--scope', 'tools:read'])
  expect(login.stderr).not.toMatch(/error/i)
  expect(login.code).toBe(0)
  expect(login.stdout).toMatch(
    /^logged in to http:\/\/127\.0\.0\.1:\d+\/mcp as alice \(issuer http:\/\/127\.0\.0\.1:\d+/,
  )
  expect(authServer.stats.registrations).toBe(1)

  // The credentials file: owner-only, in an owner-only directory.
  expect(statSync(credentialsPath).mode & 0o777).toBe(0o600)
  expect(statSync(join(home, 'config')).mode & 0o777).toBe(0o700)
  const stored = JSON.parse(readFileSync(credentialsPath, 'utf8')) as {
    tokens: Record<string, { tokens: { access_token: string; refresh_token?: string } }>
  }
  const entry = Object.values(stored.tokens)[0]
  expect(entry?.tokens.refresh_token).toBeTruthy()
  const secrets = [entry?.tokens.access_token as string, entry?.tokens.refresh_token as string]

  const trace = join(home, 'trace.ndjson')
  const call = await cli(['cat', `${server}?tool=whoami`, '--trace', trace])
  expect(call.stderr).toBe('')
  expect(JSON.parse(call.stdout)).toEqual({ subject: 'alice', scopes: ['tools:read'] })
  const inspect = await cli(['inspect', server, '--format', 'json', '--verbose'])
  expect(inspect.code).toBe(0)
  expect(
    (JSON.parse(inspect.stdout) as { tools: Array<{ name: string }> }).tools.map((tool) => tool.name),
  ).toEqual(['whoami', 'purge'])

  // The access token lives 3 s: after that the next call refreshes it, no browser involved.
  const logins = authServer.stats.authorizations
  await new Promise((resolve) => setTimeout(resolve, 3500))
  const refreshed = await cli(['cat', `${server}?tool=whoami`, '--verbose'])
  // --verbose says which era was spoken, and nothing about a login.
  expect(refreshed.stderr).toBe(
    'mcp-kit: server/discover answered a DiscoverResult (versions 2026-07-28); speaking 2026-07-28\n',
  )
  expect(refreshed.code).toBe(0)
  expect(JSON.parse(refreshed.stdout)).toMatchObject({ subject: 'alice' })
  expect(authServer.stats.authorizations).toBe(logins)
  const after = JSON.parse(readFileSync(credentialsPath, 'utf8')) as typeof stored
  secrets.push(Object.values(after.tokens)[0]?.tokens.access_token as string)
  expect(secrets[2]).not.toBe(secrets[0])

  // A tool needing a scope the login lacks: the server's 403 names it; without a terminal the
  // command says to log in again with it; a new login (without --scope: all the server lists)
  // gets it.
  const denied = await cli(['cat', `${server}?tool=purge`])
  expect(denied.code).toBe(7)
  expect(denied.stderr).toMatch(
    /needs a login with the scopes tools:read admin: run 'mcp-kit auth login mcp\+http/,
  )
  const stepUp = await browserLogin(server)
  expect(stepUp.code).toBe(0)
  const purged = await cli(['cat', `${server}?tool=purge`])
  expect(purged.code).toBe(0)
  expect(purged.stdout).toMatch(/purged/)

  const status = await cli(['auth', 'status', '--format', 'json'])
  expect(JSON.parse(status.stdout)).toEqual([
    expect.objectContaining({ subject: 'alice', refreshable: true, scopes: expect.stringMatching(/admin/) }),
  ])

  const beforeLogout = JSON.parse(readFileSync(credentialsPath, 'utf8')) as typeof stored
  const logout = await cli(['auth', 'logout', server])
  expect(logout.stderr).toBe('')
  expect(logout.stdout).toMatch(/^logged out of http:\/\/127\.0\.0\.1:\d+\/mcp \(\d tokens? revoked\)\n$/)
  // The refresh token is dead at the authorization server too, not only forgotten here.
  const last = Object.values(beforeLogout.tokens)[0]?.tokens.refresh_token as string
  const metadata = (await (await fetch(`${authServer.issuer}/.well-known/openid-configuration`)).json()) as {
    token_endpoint: string
  }
  const clients = (
    JSON.parse(readFileSync(credentialsPath, 'utf8')) as { clients: Record<string, { client_id: string }> }
  ).clients
  const reuse = await fetch(metadata.token_endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'refresh_token',
      refresh_token: last,
      client_id: Object.values(clients)[0]?.client_id as string,
    }),
  })
  expect(reuse.status).toBe(400)
  expect(((await reuse.json()) as { error: string }).error).toBe('invalid_grant')
  expect((await cli(['cat', `${server}?tool=whoami`])).code).toBe(7)
  expect((await cli(['auth', 'status'])).stdout).toBe('no logins\n')

  const latest = JSON.parse(readFileSync(credentialsPath, 'utf8')) as typeof stored
  for (const token of Object.values(latest.tokens).flatMap((item) => Object.values(item.tokens))) {
    if (typeof token === 'string' && token.length > 20) secrets.push(token)
  }
  for (const output of [...outputs, serving.stderr(), readFileSync(trace, 'utf8')]) {
    for (const secret of secrets) expect(output.includes(secret)).toBe(false)
  }
})

test('a server that accepts only another audience: refused, the login cannot help, exit 7 says so', async () => {
  const serving = await startServe(
    [
      moduleFile,
      '--port',
      '0',
      '--auth-issuer',
      authServer.issuer,
      '--auth-audience',
      'https://elsewhere.example/mcp',
    ],
    env,
  )
  const server = `mcp+${serving.url}`
  const login = await browserLogin(server)
  // The token is for this URL (RFC 8707), which this server does not accept: still 401.
  expect(login.code).toBe(7)
  expect(login.stderr).toMatch(
    /refused the token its authorization server issued \(HTTP 401: .*not for this server/,
  )
  expect((await cli(['auth', 'status', server])).stdout).toMatch(/^not logged in/)
})
