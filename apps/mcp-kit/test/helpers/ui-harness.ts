// The web UI's test harness: `mcp-kit ui` as a real process (its address read from stdout), and
// Debian's Chromium driven by playwright-core, headless, with nothing fetched from the network.

import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Browser, chromium, type Page } from 'playwright-core'
import { binPath, cacheHome } from './helpers.js'

export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

export const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

export function launchChromium(): Promise<Browser> {
  if (!existsSync(chromiumPath)) {
    throw new Error(
      `these tests drive a real browser: install Debian's chromium (apt-get install chromium) or set CHROMIUM_PATH`,
    )
  }
  return chromium.launch({ executablePath: chromiumPath, args: chromiumArgs })
}

export interface RunningUi {
  url: string
  origin: string
  port: number
  token: string
  home: string
  child: ChildProcess
  stderr: () => string
  stop(): Promise<void>
}

/** Starts `mcp-kit ui --no-open` with its own HOME (profiles, logins) and waits for its address. */
export async function startUi(
  args: string[] = [],
  home = mkdtempSync(join(tmpdir(), 'mcp-kit-ui-')),
): Promise<RunningUi> {
  mkdirSync(join(home, '.config'), { recursive: true })
  const child = spawn(process.execPath, [binPath, 'ui', '--no-open', ...args], {
    cwd: home,
    env: {
      ...process.env,
      HOME: home,
      XDG_CONFIG_HOME: join(home, '.config'),
      XDG_CACHE_HOME: cacheHome,
      NO_COLOR: '1',
      DISPLAY: '',
      WAYLAND_DISPLAY: '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stderr = ''
  child.stderr?.setEncoding('utf8').on('data', (text: string) => (stderr += text))
  const url = await new Promise<string>((resolve, reject) => {
    let stdout = ''
    const timer = setTimeout(() => reject(new Error(`mcp-kit ui printed no address: ${stderr}`)), 30_000)
    child.stdout?.setEncoding('utf8').on('data', (text: string) => {
      stdout += text
      const line = stdout.split('\n')[0]
      if (stdout.includes('\n') && line !== undefined) {
        clearTimeout(timer)
        resolve(line.trim())
      }
    })
    child.on('exit', (code) => reject(new Error(`mcp-kit ui exited (${code}): ${stderr}`)))
  })
  const parsed = new URL(url)
  return {
    url,
    origin: parsed.origin,
    port: Number(parsed.port),
    token: parsed.searchParams.get('token') ?? '',
    home,
    child,
    stderr: () => stderr,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve()
        child.once('exit', () => resolve())
        child.kill('SIGINT')
        setTimeout(() => child.kill('SIGKILL'), 10_000).unref()
      }),
  }
}

/** Adds a server through the page's form; resolves once the workspace answered (connected or failed). */
export async function addServer(page: Page, target: string): Promise<void> {
  await page.getByLabel('Add a server').fill(target)
  await page.getByRole('button', { name: 'Connect', exact: true }).click()
  await page.getByLabel('Add a server').and(page.locator('[data-empty="true"]')).waitFor({ timeout: 90_000 })
}

/** The server list's button for the server whose name contains `name`. */
export function serverButton(page: Page, name: string | RegExp) {
  return page.getByRole('list', { name: 'Servers' }).getByRole('button').filter({ hasText: name })
}

// What axe's function sees in the page (evaluated in the browser; the tests' types have no DOM).
declare const document: unknown
declare const window: { axe: { run: (context: unknown) => Promise<unknown> } }

/**
 * The page's serious and critical accessibility violations by axe-core, one line each (rule,
 * impact, the elements). axe is evaluated through the DevTools protocol: the page's CSP allows
 * no injected script tag.
 */
export async function severeAxeViolations(page: Page): Promise<string[]> {
  const source = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')
  await page.evaluate(source)
  const results = (await page.evaluate(() => window.axe.run(document))) as {
    violations: Array<{ id: string; impact: string; nodes: Array<{ target: string[] }> }>
  }
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
    )
}

/** Where the tests save screenshots (MCP_KIT_UI_SCREENSHOTS), or undefined: none are taken. */
export const screenshots = process.env.MCP_KIT_UI_SCREENSHOTS

/** A screenshot of the page as `<name>.png` in the screenshots directory, when one is set. */
export async function shot(page: Page, name: string): Promise<void> {
  if (screenshots === undefined) return
  mkdirSync(screenshots, { recursive: true })
  await page.screenshot({ path: join(screenshots, `${name}.png`) })
}
