// @module-tag integration
// Collections in the web UI (issue 33, must-show 3), in Debian's Chromium against server-everything:
// a call saved from a tool's form lands in a collection file that `mcp-kit test` (a child process)
// runs green; a step saved with an assertion the server does not meet makes it fail; the page runs
// the file with pass or fail per step; `ui --record FILE` writes the page's calls as a collection.

import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { npmServers } from '@mcp-kit/fixtures'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { records, runCliAtHome } from '../../helpers/helpers.js'
import {
  launchChromium,
  type RunningUi,
  serverButton,
  severeAxeViolations,
  shot,
  startUi,
} from '../../helpers/ui-harness.js'

// What the page's functions see (evaluated in the browser; the tests' types have no DOM).

let browser: Browser
const started: RunningUi[] = []

beforeAll(async () => {
  browser = await launchChromium()
}, 60_000)

afterAll(async () => {
  for (const ui of started) await ui.stop()
  await browser?.close()
})

async function openUi(args: string[]): Promise<{ ui: RunningUi; page: Page }> {
  const ui = await startUi([...args, '--', 'node', npmServers.everything])
  started.push(ui)
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } })
  page.on('pageerror', (error) => {
    throw error
  })
  await page.goto(ui.url)
  await expect.poll(() => serverButton(page, 'connected').count(), { timeout: 60_000 }).toBe(1)
  return { ui, page }
}

/** Fills server-everything's echo form with `message`. */
async function echoForm(page: Page, message: string) {
  await page.getByRole('button', { name: /^Tools/ }).click()
  await page.getByRole('list', { name: 'Tools' }).getByRole('button', { name: /^echo/ }).click()
  const form = page.getByRole('form', { name: 'Call echo' })
  await form.getByLabel('message', { exact: true }).fill(message)
  return form
}

async function saveStep(
  page: Page,
  options: { message: string; file: string; name: string; contains?: string },
): Promise<string> {
  const form = await echoForm(page, options.message)
  const save = form.locator('details.save-call')
  if ((await save.getAttribute('open')) === null) await save.locator('summary').click()
  await form.getByLabel('Collection file').fill(options.file)
  await form.getByLabel('Step name (optional)').fill(options.name)
  if (options.contains !== undefined) {
    await form.getByLabel('The step expects').selectOption('contains')
    await form.getByLabel('Text', { exact: true }).fill(options.contains)
  }
  await form.getByRole('button', { name: 'Save step' }).click()
  const status = form.getByTestId('save-status')
  await status.waitFor()
  return (await status.textContent()) ?? ''
}

describe('a call saved in the page runs in mcp-kit test', () => {
  it('saves echo with a "contains" assertion; mcp-kit test passes it; an assertion the server does not meet, saved or changed in the page, fails it', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'mcp-kit-ui-collections-'))
    const { ui, page } = await openUi(['--collections', directory])
    // The file the page writes, run exactly as CI would run it.
    const test = (file: string) => runCliAtHome(ui.home, directory, ['test', file], { timeoutMs: 90_000 })

    expect(
      await saveStep(page, {
        message: 'saved from <b>the page</b>',
        file: 'smoke/ui-calls.yaml',
        name: 'echo from the page',
        contains: 'saved from <b>the page</b>',
      }),
    ).toBe('Saved as step 1 of smoke/ui-calls.yaml')
    const written = readFileSync(join(directory, 'smoke/ui-calls.yaml'), 'utf8')
    expect(written).toContain('call: echo')
    expect(written).toContain('contains: saved from <b>the page</b>')

    const passing = await test('smoke/ui-calls.yaml')
    expect(passing.stderr).toBe('')
    expect(passing.code).toBe(0)
    expect(records(passing.stdout)).toContainEqual(
      expect.objectContaining({ type: 'step', step: 'echo from the page', status: 'passed' }),
    )

    // The list beside the questions shows the step; the page's run shows it passed.
    const collection = page.getByRole('region', { name: 'Collection smoke/ui-calls.yaml' })
    await expect.poll(() => collection.getByTestId('saved-step').count()).toBe(1)
    expect(await collection.getByTestId('saved-step').textContent()).toContain(
      'call echo on everything — expects $.content[0].text contains "saved from <b>the page</b>"',
    )
    await collection.getByRole('button', { name: 'Run smoke/ui-calls.yaml' }).click()
    await expect
      .poll(() => collection.getByTestId('run-verdict').textContent(), { timeout: 60_000 })
      .toBe('passed')
    // Nothing the file or the server said became markup.
    expect(await page.locator('.collections b').count()).toBe(0)

    // A second step whose assertion the server does not meet: mcp-kit test fails, naming it.
    expect(
      await saveStep(page, {
        message: 'hello',
        file: 'smoke/ui-calls.yaml',
        name: 'echo expects another text',
        contains: 'goodbye',
      }),
    ).toBe('Saved as step 2 of smoke/ui-calls.yaml')
    const failing = await test('smoke/ui-calls.yaml')
    expect(failing.code).toBe(1)
    const steps = records(failing.stdout) as Array<Record<string, unknown>>
    expect(steps).toContainEqual(
      expect.objectContaining({ type: 'step', step: 'echo from the page', status: 'passed' }),
    )
    expect(steps).toContainEqual(
      expect.objectContaining({ type: 'step', step: 'echo expects another text', status: 'failed' }),
    )
    await collection.getByRole('button', { name: 'Run smoke/ui-calls.yaml' }).click()
    await expect
      .poll(() => collection.getByTestId('run-verdict').textContent(), { timeout: 60_000 })
      .toBe('failed')
    expect(await collection.getByTestId('saved-step').nth(1).textContent()).toMatch(
      /failed.*expected it to contain "goodbye"/s,
    )
    expect(await severeAxeViolations(page)).toEqual([])
    await shot(page, 'collections')

    // Removed in the page: the file passes again.
    await collection.getByRole('button', { name: 'Remove step 2 of smoke/ui-calls.yaml' }).click()
    await expect.poll(() => collection.getByTestId('saved-step').count()).toBe(1)
    expect((await test('smoke/ui-calls.yaml')).code).toBe(0)

    // The saved step's check changed in the page: the same file now fails in mcp-kit test, then
    // passes again once it expects success only.
    const step = collection.getByTestId('saved-step').first()
    await step.getByText('Change the check').click()
    const change = step.getByRole('form', { name: 'Check of step 1 of smoke/ui-calls.yaml' })
    await change.getByLabel('Text', { exact: true }).fill('goodbye')
    await change.getByRole('button', { name: 'Apply' }).click()
    await expect.poll(() => step.textContent()).toContain('contains "goodbye"')
    expect(readFileSync(join(directory, 'smoke/ui-calls.yaml'), 'utf8')).toContain('contains: goodbye')
    const changed = await test('smoke/ui-calls.yaml')
    expect(changed.code).toBe(1)
    expect(records(changed.stdout)).toContainEqual(
      expect.objectContaining({ type: 'step', step: 'echo from the page', status: 'failed' }),
    )
    await step.getByText('Change the check').click()
    await step.getByRole('form').getByLabel('The step expects').selectOption('success')
    await step.getByRole('form').getByRole('button', { name: 'Apply' }).click()
    await expect.poll(() => step.textContent()).toContain('expects success')
    expect(readFileSync(join(directory, 'smoke/ui-calls.yaml'), 'utf8')).not.toContain('expect:')
    expect((await test('smoke/ui-calls.yaml')).code).toBe(0)
    await page.close()
  }, 240_000)

  it('refuses a file outside the collections directory, with one line', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'mcp-kit-ui-collections-'))
    const { page } = await openUi(['--collections', directory])
    expect(await saveStep(page, { message: 'x', file: '../escape.yaml', name: '' })).toBe(
      `../escape.yaml: a collection file must be inside ${directory}`,
    )
    await page.close()
  }, 120_000)
})

describe('ui --record FILE', () => {
  it("writes the page's calls as a collection that mcp-kit test replays", async () => {
    const directory = mkdtempSync(join(tmpdir(), 'mcp-kit-ui-record-'))
    const file = join(directory, 'recorded.yaml')
    const { ui, page } = await openUi(['--record', file])
    const form = await echoForm(page, 'recorded in the page')
    await form.getByRole('button', { name: 'Call echo' }).click()
    await expect
      .poll(() => form.getByTestId('result').textContent(), { timeout: 30_000 })
      .toContain('recorded in the page')
    await page.close()
    await ui.stop()
    expect(readFileSync(file, 'utf8')).toContain('recorded in the page')
    const replay = await runCliAtHome(ui.home, directory, ['test', file], { timeoutMs: 90_000 })
    expect(replay.code).toBe(0)
  }, 180_000)
})
