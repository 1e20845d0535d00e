// @module-tag integration
// MCP Apps in `mcp-kit ui`, in a real browser (Debian's Chromium, headless): a view built on the
// ext-apps App class (served by a registry module declaring it with @mcp-kit/server's defineApp)
// renders in the double-iframe sandbox on another origin, gets the tool's input and result, calls
// a tool through the workspace's session, and a fetch its policy does not allow is blocked and
// shown as a CSP violation; every ui/* message is on the timeline.

import { mkdirSync } from 'node:fs'
import { request } from 'node:http'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { npmServers } from '@mcp-kit/fixtures'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { binPath } from '../../helpers/helpers.js'
import {
  addServer,
  launchChromium,
  type RunningUi,
  screenshots,
  serverButton,
  severeAxeViolations,
  startUi,
} from '../../helpers/ui-harness.js'

const registry = fileURLToPath(new URL('../../fixtures/apps-registry.mjs', import.meta.url))
const appsServer = `node ${binPath} serve --stdio ${registry}`
// The ext-apps project's own example (npm @modelcontextprotocol/server-basic-vanillajs).
const exampleServer = `node ${npmServers.basicApp} --stdio`

let browser: Browser
let ui: RunningUi

beforeAll(async () => {
  browser = await launchChromium()
  ui = await startUi()
}, 60_000)

afterAll(async () => {
  await ui?.stop()
  await browser?.close()
})

/** A new page with the server added (once per workspace), its tool called: its view opens. */
async function openView(server: string, name: string | RegExp, tool: string): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } })
  page.on('pageerror', (error) => {
    throw error
  })
  await page.goto(ui.url)
  await page.locator('ul[aria-label="Servers"][aria-busy="false"]').waitFor()
  if ((await serverButton(page, name).count()) === 0) await addServer(page, server)
  await serverButton(page, name).first().click()
  await page.getByRole('button', { name: /^Tools/ }).click()
  await page
    .getByRole('list', { name: 'Tools' })
    .getByRole('button', { name: new RegExp(`^${tool}`) })
    .click()
  await page.getByRole('button', { name: `Call ${tool}`, exact: true }).click()
  return page
}

const openWeatherView = () => openView(appsServer, 'apps-fixture', 'weather')

/** The view's frame (the inner one, on the sandbox's origin), once it is there. */
async function viewFrame(page: Page) {
  await expect
    .poll(() => page.frames().some((frame) => frame.url().includes('/view/')), { timeout: 15_000 })
    .toBe(true)
  const view = page.frames().find((frame) => frame.url().includes('/view/'))
  if (view === undefined) throw new Error('no view frame')
  return view
}

type Row = {
  serverId: string
  direction: string
  channel?: string
  message: { method?: string; id?: unknown }
}

async function appRows(page: Page): Promise<Row[]> {
  const rows = (await (await page.request.get(`${ui.origin}/api/timeline`)).json()) as Row[]
  return rows.filter((row) => row.channel === 'app')
}

describe('MCP Apps in the workspace', () => {
  it('renders the ext-apps view on another origin; it gets input and result, calls a tool, and its blocked fetch is a CSP violation; the ui/* messages are on the timeline', async () => {
    const page = await openWeatherView()
    const section = page.getByRole('region', { name: 'App view of weather' })
    await section.waitFor({ timeout: 30_000 })

    // The outer frame is the sandbox's proxy, on another origin than the workspace's.
    const outer = page.frames().find((frame) => frame.url().includes('/proxy?'))
    await expect
      .poll(() => page.frames().some((frame) => frame.url().includes('/proxy?')), { timeout: 15_000 })
      .toBe(true)
    const proxy = page.frames().find((frame) => frame.url().includes('/proxy?')) ?? outer
    const sandboxOrigin = new URL(proxy?.url() ?? '').origin
    expect(sandboxOrigin).not.toBe(ui.origin)
    expect(await section.getByTestId('app-origin').textContent()).toBe(sandboxOrigin)

    // The view (the inner frame) got the tool input and result, and its own tool call's answer.
    await expect
      .poll(() => page.frames().some((frame) => frame.url().includes('/view/')), { timeout: 15_000 })
      .toBe(true)
    const view = page.frames().find((frame) => frame.url().includes('/view/'))
    if (view === undefined) throw new Error('no view frame')
    expect(new URL(view.url()).origin).toBe(sandboxOrigin)
    await expect
      .poll(() => view.locator('#input').textContent(), { timeout: 15_000 })
      .toBe('input: {"city":"Oslo"}')
    await expect.poll(() => view.locator('#result').textContent()).toBe('result: sunny in Oslo')
    await expect.poll(() => view.locator('#called').textContent()).toBe('forecast: rain tomorrow in Oslo')
    await expect.poll(() => view.locator('#fetched').textContent()).toBe('fetch blocked')
    await expect.poll(() => view.locator('#read').textContent()).toBe('cities: Oslo, Bergen')
    // The view's ui/message is shown, and its blocked fetch as a CSP violation.
    await expect
      .poll(() => section.getByTestId('app-messages').textContent())
      .toContain('message: Tell me more about Oslo')
    await expect
      .poll(() => section.getByTestId('csp-violations').textContent())
      .toContain('CSP blocked connect-src: https://blocked.invalid/secrets')

    // The timeline: the handshake, the notifications, the view's tool call (and the server call it made).
    await expect
      .poll(async () =>
        (await appRows(page)).map((row) => `${row.direction} ${row.message.method ?? 'answer'}`),
      )
      .toEqual(
        expect.arrayContaining([
          'received ui/notifications/sandbox-proxy-ready',
          'sent ui/notifications/sandbox-resource-ready',
          'received ui/initialize',
          'sent answer',
          'received ui/notifications/initialized',
          'sent ui/notifications/tool-input',
          'sent ui/notifications/tool-result',
          'received tools/call',
          'received ui/message',
          'received mcp-kit/csp-violation',
        ]),
      )
    const all = (await (await page.request.get(`${ui.origin}/api/timeline`)).json()) as Row[]
    const forecastCalls = all.filter(
      (row) =>
        row.channel === undefined &&
        row.direction === 'sent' &&
        row.message.method === 'tools/call' &&
        (row.message as { params?: { name?: string } }).params?.name === 'forecast',
    )
    expect(forecastCalls).toHaveLength(1)
    // The view said how tall it is: the frame took that height.
    const lastHeight = async () => {
      const sizes = (await appRows(page)).filter(
        (row) => row.message.method === 'ui/notifications/size-changed',
      )
      const message = sizes.at(-1)?.message as { params?: { height?: number } } | undefined
      return message?.params?.height
    }
    await expect.poll(lastHeight).toBeGreaterThan(0)
    const frameHeight = () =>
      section
        .locator('iframe.app-frame')
        .evaluate((frame) => (frame as { style: { height: string } }).style.height)
    await expect
      .poll(async () => [await frameHeight(), await lastHeight()])
      .toSatisfy(
        ([shown, reported]) => shown === `${Math.min(Math.max(Math.ceil(Number(reported)), 80), 2000)}px`,
      )
    // The outer frame may keep its origin; the view's own frame is sandboxed to scripts alone.
    expect(await section.locator('iframe.app-frame').getAttribute('sandbox')).toBe(
      'allow-scripts allow-same-origin',
    )
    const proxyFrame = page.frames().find((frame) => frame.url().includes('/proxy?'))
    expect(await proxyFrame?.locator('iframe').getAttribute('sandbox')).toBe('allow-scripts')
    // On the page's timeline, marked as the view's, and paired with its answer.
    const initialize = page
      .getByRole('region', { name: 'Timeline' })
      .locator('li[data-method="ui/initialize"]')
    await expect.poll(() => initialize.first().locator('.who').textContent()).toMatch(/apps-fixture ⇄ view/)
    await expect.poll(() => initialize.first().locator('.latency').textContent()).toMatch(/^\d+ ms$/)

    // Closing the view asks it to tear down first.
    await section.getByRole('button', { name: 'Close view' }).click()
    await section.getByText('The view was closed.').waitFor()
    expect((await appRows(page)).some((row) => row.message.method === 'ui/resource-teardown')).toBe(true)
    await page.close()
  }, 120_000)

  it("the ext-apps example from npm (server-basic-vanillajs): its view renders on the sandbox's origin, calls its tool, sends a log and a message; a link waits for the person; a fetch it did not declare is a CSP violation", async () => {
    const page = await openView(exampleServer, /Basic MCP App/, 'get-time')
    const section = page.getByRole('region', { name: 'App view of get-time' })
    await section.waitFor({ timeout: 30_000 })
    const view = await viewFrame(page)
    expect(new URL(view.url()).origin).not.toBe(ui.origin)
    // The tool result the page sent is what the view shows first.
    const time = view.locator('#server-time')
    await expect.poll(() => time.textContent(), { timeout: 15_000 }).toMatch(/^\d{4}-\d\d-\d\dT/)
    const first = await time.textContent()
    const serverCalls = async () => {
      const rows = (await (await page.request.get(`${ui.origin}/api/timeline`)).json()) as Row[]
      return rows.filter(
        (row) =>
          row.channel === undefined &&
          row.direction === 'sent' &&
          row.message.method === 'tools/call' &&
          (row.message as { params?: { name?: string } }).params?.name === 'get-time',
      ).length
    }
    expect(await serverCalls()).toBe(1)
    // The view's own call goes to the server through the workspace's session.
    await page.waitForTimeout(5) // a new ISO time needs the clock to move
    await view.getByRole('button', { name: 'Get Server Time' }).click()
    await expect.poll(serverCalls).toBe(2)
    await expect.poll(() => time.textContent()).not.toBe(first)
    await view.getByRole('button', { name: 'Send Log' }).click()
    await view.getByRole('button', { name: 'Send Message' }).click()
    await expect
      .poll(() => section.getByTestId('app-messages').textContent())
      .toContain('message: This is message text.')
    // A link is only offered: nothing opens until the person says so.
    const pages = browser.contexts().flatMap((context) => context.pages()).length
    await view.getByRole('button', { name: 'Open Link' }).click()
    const ask = section.getByRole('alertdialog', { name: 'The view asks to open a link' })
    await expect.poll(() => ask.textContent()).toContain('https://modelcontextprotocol.io/')
    await ask.getByRole('button', { name: 'Dismiss' }).click()
    await ask.waitFor({ state: 'detached' })
    expect(browser.contexts().flatMap((context) => context.pages()).length).toBe(pages)
    // The example declares no connectDomains: a fetch from inside it is blocked, and reported.
    const fetched = await view.evaluate(() =>
      fetch('https://blocked.invalid/exfiltrate').then(
        () => 'went through',
        () => 'blocked',
      ),
    )
    expect(fetched).toBe('blocked')
    await expect
      .poll(() => section.getByTestId('csp-violations').textContent())
      .toContain('CSP blocked connect-src: https://blocked.invalid/exfiltrate')
    if (screenshots !== undefined) {
      mkdirSync(screenshots, { recursive: true })
      await section.screenshot({ path: join(screenshots, 'app.png') })
    }
    const methods = (await appRows(page)).map((row) => `${row.direction} ${row.message.method ?? 'answer'}`)
    expect(methods).toEqual(
      expect.arrayContaining([
        'received ui/initialize',
        'sent ui/notifications/tool-result',
        'received tools/call',
        'received notifications/message',
        'received ui/message',
        'received ui/open-link',
        'received mcp-kit/csp-violation',
      ]),
    )
    await page.close()
  }, 120_000)

  it('the sandbox serves a view once, with its CSP as a header, framed only by the sandbox; the proxy only by the workspace', async () => {
    const page = await openWeatherView()
    const seen = new Map<string, Record<string, string>>()
    page.on('response', (response) => {
      if (/\/(proxy|view\/)/.test(response.url())) seen.set(response.url(), response.headers())
    })
    await page.getByRole('region', { name: 'App view of weather' }).waitFor({ timeout: 30_000 })
    await expect
      .poll(() => [...seen.keys()].some((url) => url.includes('/view/')), { timeout: 15_000 })
      .toBe(true)
    const [viewUrl, viewHeaders] = [...seen].find(([url]) => url.includes('/view/')) ?? []
    const csp = viewHeaders?.['content-security-policy'] ?? ''
    expect(csp).toContain("default-src 'none'")
    expect(csp).toContain('connect-src https://api.weather.example;')
    expect(csp).toMatch(/frame-ancestors http:\/\/127\.0\.0\.1:\d+ http:\/\/127\.0\.0\.1:\d+ /)
    const proxyHeaders = [...seen].find(([url]) => url.includes('/proxy?'))?.[1]
    expect(proxyHeaders?.['content-security-policy']).toContain(`frame-ancestors http://127.0.0.1:${ui.port}`)
    // Another Host (DNS rebinding) is refused.
    const sandbox = new URL(viewUrl as string)
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const asked = request(
        {
          host: sandbox.hostname,
          port: sandbox.port,
          path: '/proxy',
          headers: { host: `evil.example:${sandbox.port}` },
        },
        (answer) => {
          answer.resume()
          resolve(answer.statusCode)
        },
      )
      asked.on('error', reject)
      asked.end()
    })
    expect(status).toBe(403)
    // A second load of the same view is refused: each registration serves one frame.
    expect((await fetch(viewUrl as string)).status).toBe(404)
    // The workspace page may frame the sandbox origin, nothing else.
    const pageCsp = (await page.request.get(ui.url)).headers()['content-security-policy']
    expect(pageCsp).toContain(`frame-src ${new URL(viewUrl as string).origin};`)
    await page.close()
  }, 120_000)

  it('axe finds no serious or critical violation with an app view open', async () => {
    const page = await openWeatherView()
    await page.getByRole('region', { name: 'App view of weather' }).waitFor({ timeout: 30_000 })
    expect(await severeAxeViolations(page)).toEqual([])
    await page.close()
  }, 120_000)
})
