// @module-tag integration
// `mcp-kit ui` in a real browser (Debian's Chromium, headless) against real servers: several at
// once, generated forms called, questions answered, failures explained, the timeline, traces, drift,
// an accessibility scan, a keyboard-only form, and a hostile server whose strings must not run.

import { fileURLToPath } from 'node:url'
import { fixtureServers, npmServers } from '@mcp-kit/fixtures'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { binPath } from '../../helpers/helpers.js'
import {
  addServer,
  launchChromium,
  type RunningUi,
  serverButton,
  severeAxeViolations,
  shot,
  startUi,
} from '../../helpers/ui-harness.js'

const registry = fileURLToPath(new URL('../../fixtures/ui-registry.mjs', import.meta.url))
const hostileServer = fileURLToPath(new URL('../../fixtures/ui-hostile-server.js', import.meta.url))
const everything = `node ${npmServers.everything}`
const kitServer = `node ${binPath} serve --stdio ${registry}`

// What the page's functions see (evaluated in the browser; the tests' types have no DOM).
declare const document: { activeElement: unknown }
declare const window: { __pwned?: unknown }

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

async function openPage(): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } })
  page.on('pageerror', (error) => {
    throw error
  })
  await page.goto(ui.url)
  await page.locator('ul[aria-label="Servers"][aria-busy="false"]').waitFor()
  return page
}

/** Selects the 2026 mcp-kit server, adding it first when an earlier test has not (a test run alone). */
async function selectKitServer(page: Page): Promise<void> {
  if ((await serverButton(page, 'mcp-kit').count()) === 0) await addServer(page, kitServer)
  await serverButton(page, 'mcp-kit').first().click()
}

async function chooseTool(page: Page, name: string): Promise<void> {
  await page.getByRole('button', { name: /^Tools/ }).click()
  await page
    .getByRole('list', { name: 'Tools' })
    .getByRole('button', { name: new RegExp(`^${name}`) })
    .click()
}

describe('a workspace of several servers', () => {
  it('connects server-everything (2025) and a 2026 mcp-kit server at once; fills and calls the most complex tool; answers its question', async () => {
    const page = await openPage()
    await addServer(page, everything)
    await addServer(page, kitServer)
    await expect.poll(() => serverButton(page, 'connected').count(), { timeout: 30_000 }).toBe(2)
    await expect.poll(() => serverButton(page, '2025').count()).toBe(1)
    await expect.poll(() => serverButton(page, '2026').count()).toBe(1)

    // server-everything's tool with the most parameters.
    await serverButton(page, /everything/i).click()
    const state = (await (await page.request.get(`${ui.origin}/api/state`)).json()) as {
      servers: Array<{ id: string; name: string }>
    }
    const id = state.servers.find((server) => /everything/i.test(server.name))?.id as string
    const lists = (await (await page.request.get(`${ui.origin}/api/servers/${id}/lists`)).json()) as {
      tools: Array<{ name: string; inputSchema: { properties?: object } }>
    }
    const widest = [...lists.tools].sort(
      (a, b) =>
        Object.keys(b.inputSchema.properties ?? {}).length -
        Object.keys(a.inputSchema.properties ?? {}).length,
    )[0]
    expect(widest?.name).toBe('trigger-url-elicitation')
    await chooseTool(page, 'trigger-url-elicitation')
    const form = page.getByRole('form', { name: 'Call trigger-url-elicitation' })
    await form.getByLabel('url', { exact: true }).fill('http://127.0.0.1:9/finish')
    await form.getByLabel('message', { exact: true }).fill('Please "finish" \\ the flow')
    await form.getByLabel('elicitationId', { exact: true }).fill('ui-test-1')
    await expect
      .poll(() => form.getByTestId('cli-command').textContent())
      .toContain('--tool trigger-url-elicitation')
    await form.getByRole('button', { name: 'Call trigger-url-elicitation' }).click()
    // The server asks the person to visit a URL: answered in the questions panel.
    const question = page.getByRole('form', { name: /Question from/ })
    await question.waitFor({ timeout: 30_000 })
    expect(await question.textContent()).toContain('http://127.0.0.1:9/finish')
    await shot(page, 'question')
    await question.getByRole('button', { name: 'Done' }).click()
    await expect.poll(() => form.getByTestId('result').textContent(), { timeout: 30_000 }).toMatch(/accept/i)
    await shot(page, 'workspace')
    await page.close()
  }, 180_000)

  it("results are rendered by type: server-everything's image, its resource links", async () => {
    const page = await openPage()
    if ((await serverButton(page, /everything/i).count()) === 0) await addServer(page, everything)
    await serverButton(page, /everything/i)
      .first()
      .click()
    await chooseTool(page, 'get-tiny-image')
    const image = page.getByRole('form', { name: 'Call get-tiny-image' })
    await image.getByRole('button', { name: 'Call get-tiny-image' }).click()
    const picture = image.getByTestId('result').locator('img.result-image')
    await picture.waitFor({ timeout: 30_000 })
    expect(await picture.getAttribute('src')).toMatch(/^data:image\/png;base64,/)
    expect(
      await picture.evaluate((element) => (element as unknown as { naturalWidth: number }).naturalWidth),
    ).toBeGreaterThan(0)
    await chooseTool(page, 'get-resource-links')
    const links = page.getByRole('form', { name: 'Call get-resource-links' })
    await links.getByLabel('count', { exact: true }).fill('2')
    await links.getByRole('button', { name: 'Call get-resource-links' }).click()
    await expect
      .poll(() => links.getByTestId('result').getByRole('button', { name: 'Read' }).count(), {
        timeout: 30_000,
      })
      .toBe(2)
    await page.close()
  }, 120_000)

  it('a form elicitation of the 2026 server, generated from its requested schema, is answered and reaches the tool', async () => {
    const page = await openPage()
    await selectKitServer(page)
    await chooseTool(page, 'confirm_order')
    const form = page.getByRole('form', { name: 'Call confirm_order' })
    await form.getByLabel('item', { exact: true }).fill('coffee')
    await form.getByRole('button', { name: 'Call confirm_order' }).click()
    const question = page.getByRole('form', { name: /Question from/ })
    await question.waitFor({ timeout: 30_000 })
    expect(await question.textContent()).toContain('Order coffee?')
    // An answer that does not fit the form is refused here, by the CLI's validation; the question stays.
    await question.getByRole('button', { name: 'Send answer' }).click()
    await expect.poll(() => question.getByRole('alert').first().textContent()).toMatch(/quantity/)
    await question.getByLabel(/How many/).fill('3')
    await question.getByLabel('size', { exact: true }).selectOption({ label: 'large' })
    await question.getByRole('button', { name: 'Send answer' }).click()
    await expect
      .poll(() => form.getByTestId('result').textContent(), { timeout: 30_000 })
      .toContain('answer: {"action":"accept","content":{"quantity":3,"size":"large"}}')
    await page.close()
  }, 120_000)

  it('a sampling request is answered by the person, and the answer reaches the tool', async () => {
    const page = await openPage()
    await selectKitServer(page)
    await chooseTool(page, 'ask_model')
    const form = page.getByRole('form', { name: 'Call ask_model' })
    await form.getByRole('button', { name: 'Call ask_model' }).click()
    const question = page.getByRole('form', { name: /Sampling request from/ })
    await question.waitFor({ timeout: 30_000 })
    expect(await question.textContent()).toContain('Write a haiku about MCP')
    await question.getByLabel('Your answer, as the assistant').fill('Servers speak in JSON')
    await question.getByRole('button', { name: 'Send' }).click()
    await expect
      .poll(() => form.getByTestId('result').textContent(), { timeout: 30_000 })
      .toContain('model said: Servers speak in JSON')
    await page.close()
  }, 120_000)

  it("server-everything's prompt arguments are completed by the server as you type", async () => {
    const page = await openPage()
    if ((await serverButton(page, /everything/i).count()) === 0) await addServer(page, everything)
    await serverButton(page, /everything/i)
      .first()
      .click()
    await page.getByRole('button', { name: 'Prompts', exact: true }).click()
    await page
      .getByRole('list', { name: 'Prompts' })
      .getByRole('button', { name: /^completable-prompt/ })
      .click()
    await page.getByLabel('department', { exact: true }).fill('E')
    const options = page.getByTestId('completions-department').locator('option')
    await expect
      .poll(() => options.evaluateAll((all) => all.map((each) => each.getAttribute('value'))))
      .toContain('Engineering')
    await page.getByLabel('department', { exact: true }).fill('Engineering')
    await page.getByLabel('name', { exact: true }).focus()
    await expect.poll(() => page.getByTestId('completions-name').locator('option').count()).toBeGreaterThan(0)
    await page.close()
  }, 120_000)

  it('a call the server runs as a task shows the task and its status, then its result', async () => {
    const page = await openPage()
    await selectKitServer(page)
    await chooseTool(page, 'long_job')
    const form = page.getByRole('form', { name: 'Call long_job' })
    await form.getByRole('button', { name: 'Call long_job' }).click()
    await expect
      .poll(() => form.getByTestId('task').textContent(), { timeout: 30_000 })
      .toMatch(/task \S+: working/)
    await expect
      .poll(() => form.getByTestId('result').textContent(), { timeout: 30_000 })
      .toContain('job done')
    await page.close()
  }, 120_000)

  it('a long call shows progress and can be cancelled', async () => {
    const page = await openPage()
    await selectKitServer(page)
    await chooseTool(page, 'slow_count')
    const form = page.getByRole('form', { name: 'Call slow_count' })
    await form.getByLabel('steps', { exact: true }).fill('40')
    await form.getByRole('button', { name: 'Call slow_count' }).click()
    await form.getByRole('progressbar', { name: 'progress of slow_count' }).waitFor({ timeout: 30_000 })
    expect(await form.getByRole('status').textContent()).toMatch(/step \d+ of 40/)
    await form.getByRole('button', { name: 'Cancel' }).click()
    await expect
      .poll(() => form.getByTestId('result').textContent(), { timeout: 30_000 })
      .toContain('cancelled')
    await page.close()
  }, 120_000)
})

describe('forms from complex schemas', () => {
  it('fills $ref/$defs arrays, a oneOf, a nullable enum, allOf and a multiline string by keyboard alone; the call gets typed arguments', async () => {
    const page = await openPage()
    await selectKitServer(page)
    await chooseTool(page, 'plan_trip')
    const form = page.getByRole('form', { name: 'Call plan_trip' })
    await form.waitFor()
    /**
     * Presses Tab (or Shift+Tab, when the field comes before the focus) until the focused element
     * is the one `locator` finds: the keyboard only.
     */
    const tabTo = async (locator: ReturnType<Page['locator']>) => {
      for (let presses = 0; presses < 60; presses++) {
        const where = await locator.evaluate((element) => {
          const active = document.activeElement as unknown as {
            compareDocumentPosition(other: unknown): number
          } | null
          if (element === active) return 0
          // Node.DOCUMENT_POSITION_FOLLOWING: the field comes after the focus.
          return active === null || (active.compareDocumentPosition(element) & 4) !== 0 ? 1 : -1
        })
        if (where === 0) return
        await page.keyboard.press(where > 0 ? 'Tab' : 'Shift+Tab')
      }
      throw new Error('Tab never reached the field')
    }
    await form.getByLabel('title', { exact: true }).focus()
    await page.keyboard.type('Alps "tour" \\ 2026')
    await tabTo(form.getByRole('button', { name: /Add an item to stops/ }))
    await page.keyboard.press('Enter')
    await tabTo(form.getByLabel('city', { exact: true }))
    await page.keyboard.type('Zürich')
    await tabTo(form.getByLabel('nights', { exact: true }))
    await page.keyboard.press('Control+A')
    await page.keyboard.type('3')
    await tabTo(form.getByLabel('Kind of transport'))
    await page.keyboard.press('ArrowDown')
    await tabTo(form.getByLabel('seats', { exact: true }))
    await page.keyboard.type('4')
    await tabTo(form.getByLabel(/^meal/))
    await page.keyboard.press('ArrowDown')
    await page.keyboard.press('ArrowDown')
    await tabTo(form.getByLabel('budget', { exact: true }))
    await page.keyboard.type('1500.5')
    const notes = form.getByLabel('notes', { exact: true })
    expect(await notes.evaluate((element) => element.tagName)).toBe('TEXTAREA')
    await tabTo(notes)
    await page.keyboard.type('line one')
    await page.keyboard.press('Enter')
    await page.keyboard.type('line <two>')
    await tabTo(form.getByRole('button', { name: 'Call plan_trip' }))
    await shot(page, 'form')
    await page.keyboard.press('Enter')
    const result = form.getByTestId('result')
    await expect.poll(() => result.textContent(), { timeout: 30_000 }).toContain('Zürich')
    const text = (await result.locator('pre').first().textContent()) ?? ''
    expect(JSON.parse(text)).toEqual({
      title: 'Alps "tour" \\ 2026',
      stops: [{ city: 'Zürich', nights: 3 }],
      transport: { kind: 'car', seats: 4 },
      meal: 'vegan',
      budget: 1500.5,
      notes: 'line one\nline <two>',
    })
    await page.close()
  }, 120_000)

  it('problems come from the CLI validation, per field, before anything is called', async () => {
    const page = await openPage()
    await selectKitServer(page)
    await chooseTool(page, 'plan_trip')
    const form = page.getByRole('form', { name: 'Call plan_trip' })
    await form.getByLabel('title', { exact: true }).fill('x'.repeat(61))
    await expect
      .poll(() => form.getByTestId('problems').textContent(), { timeout: 10_000 })
      .toMatch(/title: .*60 characters/)
    expect(await form.getByTestId('problems').textContent()).toMatch(/stops: missing required/)
    expect(await form.getByLabel('title', { exact: true }).getAttribute('aria-invalid')).toBe('true')
    await form.getByRole('button', { name: 'Call plan_trip' }).click()
    await expect
      .poll(() => form.getByTestId('result').textContent(), { timeout: 10_000 })
      .toContain('invalid_arguments')
    await page.close()
  }, 60_000)
})

describe('failures', () => {
  it('a server that fails to start is explained: the step, its stderr, the fix', async () => {
    const page = await openPage()
    await addServer(page, `node ${fixtureServers.crash} --at-start`)
    await serverButton(page, 'failed').first().click()
    const failure = page.getByTestId('failure')
    await failure.waitFor()
    expect(await page.getByTestId('failed-step').textContent()).toBe('initialize')
    expect(await failure.textContent()).toMatch(/exited/)
    expect(await failure.textContent()).toMatch(/Fix:/)
    await shot(page, 'failure')
    await addServer(page, 'no-such-command-mcp-kit-test')
    await expect.poll(() => page.getByTestId('failed-step').allTextContents()).toContain('spawn')
    await page.close()
  }, 60_000)
})

describe('the page is safe from a hostile server', () => {
  it('descriptions and results with <script>, <img onerror> and javascript: links run nothing', async () => {
    const page = await openPage()
    const violations: string[] = []
    page.on('console', (message) => {
      if (/Content Security Policy/.test(message.text())) violations.push(message.text())
    })
    await addServer(page, `node ${hostileServer}`)
    await serverButton(page, 'evil').first().click()
    await chooseTool(page, 'describe')
    const form = page.getByRole('form', { name: 'Call describe' })
    expect(await form.textContent()).toContain('<script>window.__pwned')
    await form.getByRole('button', { name: 'Call describe' }).click()
    await form.getByTestId('result').waitFor({ timeout: 30_000 })
    await form.getByTestId('result').getByRole('button', { name: 'Markdown' }).first().click()
    await page.getByRole('button', { name: 'Overview' }).click()
    await page.waitForTimeout(300)
    expect(await page.evaluate(() => window.__pwned)).toBeUndefined()
    expect(await page.locator('script:not([src])').count()).toBe(0)
    expect(await page.locator('[onerror]').count()).toBe(0)
    expect(await page.locator('a[href^="javascript:"]').count()).toBe(0)
    await page.getByRole('button', { name: /^Tools/ }).click()
    await chooseTool(page, 'mismatch')
    const mismatch = page.getByRole('form', { name: 'Call mismatch' })
    await mismatch.getByRole('button', { name: 'Call mismatch' }).click()
    await mismatch.getByTestId('output-mismatch').waitFor({ timeout: 30_000 })
    expect(await mismatch.getByTestId('output-mismatch').textContent()).toContain('"temperature": "warm"')
    expect(await mismatch.getByTestId('result').textContent()).toMatch(/outputSchema/)
    expect(await page.evaluate(() => window.__pwned)).toBeUndefined()
    await page.close()
  }, 60_000)
})

describe('accessibility', () => {
  it('axe finds no serious or critical violation in the workspace with a form open', async () => {
    const page = await openPage()
    await selectKitServer(page)
    await chooseTool(page, 'plan_trip')
    await page.getByRole('form', { name: 'Call plan_trip' }).waitFor()
    expect(await severeAxeViolations(page)).toEqual([])
    await page.close()
  }, 60_000)
})
