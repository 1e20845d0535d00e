// @module-tag integration
// `mcp-kit ui`'s timeline and drift view in a real browser: a call through an mcp-kit gateway with
// two upstreams shows its upstream hop on its line; a CLI `--trace --trace-messages` file opened in
// the page shows the same messages; a saved profile against a changed server shows the classified
// diff, and updating the profile from the page clears it.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fixtureServers, npmServers } from '@mcp-kit/fixtures'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { binPath, runCliAtHome } from '../../helpers/helpers.js'
import {
  addServer,
  launchChromium,
  type RunningUi,
  screenshots,
  serverButton,
  startUi,
} from '../../helpers/ui-harness.js'

let browser: Browser
let ui: RunningUi
let base: string
let variantFile: string

beforeAll(async () => {
  base = mkdtempSync(join(tmpdir(), 'mcp-kit-ui-timeline-'))
  variantFile = join(base, 'variant')
  writeFileSync(variantFile, 'base')
  browser = await launchChromium()
  ui = await startUi([], join(base, 'home'))
}, 60_000)

afterAll(async () => {
  await ui?.stop()
  await browser?.close()
  rmSync(base, { recursive: true, force: true })
})

async function openPage(): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } })
  await page.goto(ui.url)
  await page.locator('ul[aria-label="Servers"][aria-busy="false"]').waitFor()
  return page
}

describe('the timeline', () => {
  it('a call through a gateway of two upstreams shows its upstream hop on its line', async () => {
    const page = await openPage()
    const gateway = `node ${binPath} serve --stdio everything=mcp+node://${npmServers.everything} basic=mcp+node://${fixtureServers.basic}`
    await addServer(page, gateway)
    await serverButton(page, 'connected').first().click()
    await page.getByRole('button', { name: /^Tools/ }).click()
    await page
      .getByRole('list', { name: 'Tools' })
      .getByRole('button', { name: /^everything__echo/ })
      .click()
    const form = page.getByRole('form', { name: 'Call everything__echo' })
    await form.getByLabel('message', { exact: true }).fill('through the gateway')
    await form.getByRole('button', { name: 'Call everything__echo' }).click()
    await expect
      .poll(() => form.getByTestId('result').textContent(), { timeout: 30_000 })
      .toContain('Echo: through the gateway')
    const row = page.getByTestId('timeline').locator('li', { hasText: 'everything__echo' }).last()
    await expect
      .poll(() => row.getByTestId('hop').textContent(), { timeout: 10_000 })
      .toMatch(/everything: tools\/call echo [\d.]+ ms/)
    expect(await row.locator('.bar.hop').count()).toBe(1)
    if (screenshots) await page.screenshot({ path: join(screenshots, 'timeline.png') })
    await page.close()
  }, 120_000)

  it('a CLI trace (--trace --trace-messages) opened in the page shows the same messages; the export reads back', async () => {
    const trace = join(base, 'cli-trace.ndjson')
    const cli = await runCliAtHome(join(base, 'home'), base, [
      'cat',
      `mcp+node://${fixtureServers.basic}?tool=echo`,
      'message=traced',
      '--trace',
      trace,
      '--trace-messages',
    ])
    expect(cli.code).toBe(0)
    const entries = readFileSync(trace, 'utf8')
      .trim()
      .split('\n')
      .map(
        (line) =>
          JSON.parse(line) as {
            kind: string
            direction?: string
            message?: { method?: string; id?: unknown }
          },
      )
    const messages = entries.filter((entry) => entry.kind === 'message')
    expect(messages.length).toBeGreaterThan(3)
    expect(entries.some((entry) => entry.kind === 'tool_call')).toBe(true)
    const methods = messages
      .filter((entry) => entry.message?.method !== undefined)
      .map((entry) => entry.message?.method)

    const page = await openPage()
    await page.getByLabel('Open trace…').setInputFiles(trace)
    await page.getByText(/cli-trace\.ndjson: \d+ entries/).waitFor()
    const source = page.getByLabel('Server', { exact: true })
    const options = await source.locator('option').allTextContents()
    const traced = options.find((option) => option.includes(fixtureServers.basic)) as string
    await source.selectOption({ label: traced })
    await page.getByLabel('notifications').check()
    const timeline = page.getByTestId('timeline')
    await expect.poll(() => timeline.locator('li.row').count()).toBeGreaterThan(0)
    const shown = await timeline
      .locator('li.row:not(.call)')
      .evaluateAll((rows) =>
        rows.map((row) => (row as unknown as { dataset: { method: string } }).dataset.method),
      )
    expect(shown).toEqual(methods)
    expect(await timeline.locator('li.row.call').count()).toBe(1)

    const exported = await (await page.request.get(`${ui.origin}/api/timeline.ndjson`)).text()
    const exportedMessages = exported
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { kind: string; message?: unknown })
      .filter((entry) => entry.kind === 'message')
      .map((entry) => entry.message)
    for (const entry of messages) expect(exportedMessages).toContainEqual(entry.message)
    await page.close()
  }, 120_000)
})

describe('drift', () => {
  it("a saved profile against its changed server: the schema package's classification, then an update from the page", async () => {
    const home = join(base, 'home')
    const reference = `mcp+node://${fixtureServers.drift}?arg=${encodeURIComponent(variantFile)}`
    expect((await runCliAtHome(home, base, ['profile', 'create', 'bio', '--from', reference])).code).toBe(0)
    writeFileSync(variantFile, 'new-required')
    const page = await openPage()
    await addServer(page, '@bio')
    await serverButton(page, 'connected').last().click()
    await page.getByRole('button', { name: 'Drift', exact: true }).click()
    await page.getByRole('button', { name: 'Compare @bio with the live server' }).click()
    const table = page.getByTestId('drift-table')
    await table.waitFor({ timeout: 30_000 })
    expect(await table.textContent()).toMatch(/breaking.*search.*year/)
    expect(await page.getByTestId('cli-command').first().textContent()).toBe('mcp-kit profile diff @bio')
    if (screenshots) await page.screenshot({ path: join(screenshots, 'drift.png') })
    await page.getByRole('button', { name: 'Update @bio to the live tools' }).click()
    await page.getByTestId('drift-none').waitFor({ timeout: 30_000 })
    expect(await page.getByTestId('drift-updated').textContent()).toMatch(/updated @bio/)
    const diff = await runCliAtHome(home, base, ['profile', 'diff', '@bio'])
    expect(diff.stdout.trim()).toBe('no changes')
    await page.close()
  }, 120_000)
})
