// @module-tag integration
// OAuth in `mcp-kit ui`, in a real browser: a server that needs a login fails at the OAuth step and
// says how to log in; "Log in" runs the CLI's own login (its page's address reaches the workspace,
// the login and consent are done in Chromium), the login lands in the CLI's credentials store, and
// the server connects with it.

import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type RunningAuthServer, startAuthServer } from '@mcp-kit/fixtures/auth-server'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startServe, stopStarted } from '../../helpers/helpers.js'
import { addServer, launchChromium, type RunningUi, serverButton, startUi } from '../../helpers/ui-harness.js'

const home = mkdtempSync(join(tmpdir(), 'mcp-kit-ui-oauth-'))
const moduleFile = join(home, 'tools.mjs')
writeFileSync(
  moduleFile,
  `export default ({ createToolRegistry }) => createToolRegistry()
  .tool({ name: 'whoami', scopes: ['tools:read'], handler: (_args, context) => ({ subject: context.authInfo?.subject }) })
`,
)

let authServer: RunningAuthServer
let browser: Browser
let ui: RunningUi

beforeAll(async () => {
  authServer = await startAuthServer({})
  browser = await launchChromium()
  ui = await startUi([], home)
}, 60_000)

afterAll(async () => {
  await ui?.stop()
  await stopStarted()
  await browser?.close()
  await authServer?.close()
  rmSync(home, { recursive: true, force: true })
})

it('a server that needs a login is explained, then logged in to from the page with the CLI’s login', async () => {
  const serving = await startServe([moduleFile, '--port', '0', '--auth-issuer', authServer.issuer])
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } })
  await page.goto(ui.url)
  await page.locator('ul[aria-label="Servers"][aria-busy="false"]').waitFor()
  await addServer(page, `mcp+${serving.url}`)
  await serverButton(page, 'failed').first().click()
  expect(await page.getByTestId('failed-step').textContent()).toBe('oauth')
  expect(await page.getByTestId('failure').textContent()).toContain(`mcp-kit auth login mcp+${serving.url}`)

  await page.getByRole('button', { name: 'Log in' }).click()
  const link = page.getByTestId('notice-link')
  await link.waitFor({ timeout: 30_000 })
  const address = (await link.getAttribute('href')) as string
  expect(address).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/auth\?/)
  const login = await browser.newPage()
  await login.goto(address)
  await login.fill('input[name=login]', 'alice')
  await login.fill('input[name=password]', 'any password')
  await login.click('button[type=submit]')
  await login.waitForSelector('button[autofocus], button[type=submit]')
  await login.click('button[type=submit]')
  await login.waitForURL(/^http:\/\/127\.0\.0\.1:\d+\/callback/)
  await login.close()

  await expect.poll(() => serverButton(page, 'connected').count(), { timeout: 30_000 }).toBe(1)
  const credentials = join(home, '.config', 'mcp-kit', 'credentials.json')
  expect(existsSync(credentials)).toBe(true)
  const stored = readFileSync(credentials, 'utf8')
  // The page never shows a token.
  const state = await (await page.request.get(`${ui.origin}/api/state`)).text()
  const tokens = Object.values(
    (JSON.parse(stored) as { tokens: Record<string, { tokens: { access_token: string } }> }).tokens,
  )
  expect(tokens.length).toBe(1)
  expect(state).not.toContain(tokens[0]?.tokens.access_token)
  expect(await page.content()).not.toContain(tokens[0]?.tokens.access_token)
  await page.close()
}, 120_000)
