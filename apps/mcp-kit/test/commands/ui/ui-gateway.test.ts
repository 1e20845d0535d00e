// @module-tag integration
// The web UI as a gateway's dashboard (issue 36), in Debian's Chromium: `mcp-kit ui` connected to
// `mcp-kit serve --config … --metrics` (two upstreams: one over stdio, one over HTTP) with an admin
// token shows each upstream's health and the per-tool figures, which change as calls are made;
// the HTTP upstream killed shows down with its error; a token that is not an admin's is told so.

import { type ChildProcess, spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { credentialKey } from '@mcp-kit/client'
import { obtainToken, startAuthServer } from '@mcp-kit/fixtures/auth-server'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli, type Serving, startServe, stopStarted } from '../../helpers/helpers.js'
import {
  launchChromium,
  type RunningUi,
  serverButton,
  severeAxeViolations,
  shot,
  startUi,
} from '../../helpers/ui-harness.js'

// What the page's functions see (evaluated in the browser; the tests' types have no DOM).

const fixture = fileURLToPath(
  new URL('../../../../../packages/gateway/test/fixtures/upstream.mjs', import.meta.url),
)
const adminToken = 'admin-token-0123456789abcdef'
const userToken = 'user-token-0123456789abcdef'

let browser: Browser
let remote: ChildProcess
let gateway: Serving
const uis: RunningUi[] = []

/** The HTTP upstream: the gateway tests' fixture on a free port. */
async function startRemote(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [fixture, '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] })
  const url = await new Promise<string>((resolve, reject) => {
    let out = ''
    child.stdout?.setEncoding('utf8').on('data', (text: string) => {
      out += text
      if (out.includes('\n')) resolve(out.trim())
    })
    child.once('exit', (code) => reject(new Error(`the HTTP upstream exited (${code})`)))
  })
  return { child, url }
}

beforeAll(async () => {
  browser = await launchChromium()
  const started = await startRemote()
  remote = started.child
  const dir = mkdtempSync(join(tmpdir(), 'mcp-kit-ui-gateway-'))
  const config = join(dir, 'config.json')
  writeFileSync(
    config,
    JSON.stringify({
      mcpServers: {
        local: { command: process.execPath, args: [fixture], resources: [], prompts: [] },
        remote: { url: started.url, resources: [], prompts: [] },
      },
      gateway: {
        tokens: { admin: { token: '${ADMIN}', scopes: ['admin'] }, user: { token: '${USER_TOKEN}' } },
        admin: { scopes: ['admin'] },
      },
    }),
  )
  gateway = await startServe(['--config', config, '--port', '0', '--metrics'], {
    ADMIN: adminToken,
    USER_TOKEN: userToken,
  })
}, 60_000)

afterAll(async () => {
  for (const ui of uis) await ui.stop()
  await browser?.close()
  if (remote?.exitCode === null) remote.kill()
  gateway?.child.kill('SIGTERM')
  await gateway?.exited
  await stopStarted()
})

async function openUi(token: string | undefined, url = gateway.url, home?: string): Promise<Page> {
  const header = token === undefined ? [] : ['--header', `Authorization: Bearer ${token}`]
  const ui = await startUi([`mcp+${url}`, ...header], home)
  uis.push(ui)
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } })
  page.on('pageerror', (error) => {
    throw error
  })
  await page.goto(ui.url)
  await expect.poll(() => serverButton(page, 'connected').count(), { timeout: 60_000 }).toBe(1)
  await page.getByRole('button', { name: 'Overview' }).click()
  return page
}

/** A call through the gateway from another client (the CLI), as the team's agents would make. */
async function callThrough(tool: string, text: string) {
  return runCli(
    [
      'cat',
      `mcp+${gateway.url}?tool=${tool}`,
      `text=${text}`,
      '--header',
      `Authorization: Bearer ${adminToken}`,
    ],
    { timeoutMs: 60_000 },
  )
}

describe('a gateway the UI may administer', () => {
  it('shows both upstreams up, the per-tool figures changing as calls are made, and the killed upstream down', async () => {
    const page = await openUi(adminToken)
    const panel = page.getByRole('region', { name: 'Gateway status' })
    const upstreams = panel.getByRole('table', { name: 'Upstreams' })
    const health = (name: string) => upstreams.locator(`tr[data-upstream="${name}"] .badge`).textContent()
    await expect.poll(() => health('local'), { timeout: 30_000 }).toBe('up')
    await expect.poll(() => health('remote')).toBe('up')
    expect(await panel.textContent()).toContain('No calls yet')

    expect((await callThrough('local__echo', 'one')).code).toBe(0)
    expect((await callThrough('remote__echo', 'two')).code).toBe(0)
    const figures = panel.getByRole('table', { name: 'Calls per tool' })
    const figure = (tool: string, which: 'calls' | 'errors') =>
      figures.locator(`tr[data-tool="${tool}"] td[data-figure="${which}"]`).textContent()
    // The page polls: the figures appear, then change, without a reload.
    await expect.poll(() => figure('local__echo', 'calls'), { timeout: 30_000 }).toBe('1')
    await expect.poll(() => figure('remote__echo', 'calls')).toBe('1')
    expect(await figures.locator('tr[data-tool="local__echo"]').textContent()).toMatch(/\d+(\.\d+)? ms/)
    for (const text of ['three', 'four']) expect((await callThrough('local__echo', text)).code).toBe(0)
    await expect.poll(() => figure('local__echo', 'calls'), { timeout: 30_000 }).toBe('3')
    expect(await figure('local__echo', 'errors')).toBe('0')

    // The HTTP upstream goes away: the next call to it fails, and the page shows it down.
    remote.kill('SIGKILL')
    await new Promise((resolve) => remote.once('exit', resolve))
    expect((await callThrough('remote__echo', 'five')).code).not.toBe(0)
    await expect.poll(() => health('remote'), { timeout: 30_000 }).toBe('down')
    expect(await health('local')).toBe('up')
    expect(await upstreams.locator('tr[data-upstream="remote"]').textContent()).toContain(
      'connection refused',
    )
    await expect.poll(() => figure('remote__echo', 'errors'), { timeout: 30_000 }).toBe('1')
    expect(await panel.getByRole('heading').textContent()).toContain('1 upstream down')
    await shot(page, 'gateway')

    expect(await severeAxeViolations(page)).toEqual([])
    await page.close()
  }, 180_000)

  it("a token the gateway's controls do not name as admin is told so", async () => {
    const page = await openUi(userToken)
    const panel = page.getByRole('region', { name: 'Gateway status' })
    await expect
      .poll(() => panel.textContent(), { timeout: 30_000 })
      .toContain('the gateway refuses its admin status to these credentials (HTTP 403)')
    expect(await panel.getByRole('table').count()).toBe(0)
    await page.close()
  }, 120_000)

  it("an OAuth-protected gateway: the login's own token reads the status when its subject is an admin", async () => {
    const authServer = await startAuthServer({})
    try {
      const dir = mkdtempSync(join(tmpdir(), 'mcp-kit-ui-gateway-oauth-'))
      const config = join(dir, 'config.json')
      writeFileSync(
        config,
        JSON.stringify({
          mcpServers: { local: { command: process.execPath, args: [fixture] } },
          gateway: { admin: { sub: ['alice'] } },
        }),
      )
      const protectedGateway = await startServe([
        '--config',
        config,
        '--port',
        '0',
        '--metrics',
        '--auth-issuer',
        authServer.issuer,
      ])
      // As after `mcp-kit auth login` as alice: her tokens in the CLI's credentials store.
      const home = mkdtempSync(join(tmpdir(), 'mcp-kit-ui-gateway-home-'))
      const login = async (who: string) => {
        const tokens = await obtainToken(authServer.issuer, { resource: protectedGateway.url, login: who })
        mkdirSync(join(home, '.config', 'mcp-kit'), { recursive: true })
        writeFileSync(
          join(home, '.config', 'mcp-kit', 'credentials.json'),
          JSON.stringify({
            version: 1,
            clients: {},
            tokens: {
              [credentialKey(protectedGateway.url)]: {
                issuer: authServer.issuer,
                tokens,
                savedAt: Date.now(),
              },
            },
          }),
          { mode: 0o600 },
        )
      }
      await login('alice')
      const page = await openUi(undefined, protectedGateway.url, home)
      const panel = page.getByRole('region', { name: 'Gateway status' })
      await expect
        .poll(() => panel.locator('tr[data-upstream="local"] .badge').textContent(), { timeout: 30_000 })
        .toBe('up')
      await page.close()
      // Logged in as someone the controls do not name: told so.
      await login('mallory')
      const other = await openUi(undefined, protectedGateway.url, home)
      await expect
        .poll(() => other.getByRole('region', { name: 'Gateway status' }).textContent(), { timeout: 30_000 })
        .toContain('HTTP 403')
      await other.close()
    } finally {
      await authServer.close()
    }
  }, 120_000)
})
