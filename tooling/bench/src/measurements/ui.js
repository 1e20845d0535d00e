// The web UI rows: `mcp-kit ui` against the Inspector 2.12 web UI, side by side in one run — from
// launching the command to server-everything's tools list rendered in headless Chromium (a fresh
// browser context each run: nothing cached), the initial JavaScript each page loads (gzip), and the
// memory of each backend (its process group, server-everything included on both sides).

import { spawn } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { dirname, join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { assetsDirectory } from '@mcp-kit/ui'
import { chromium } from 'playwright-core'
import { makeRow } from '../rows.js'
import { readMemoryKib, trackGroup, untrackGroup } from '../run-process.js'

const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]
const runsByMode = { full: 10, quick: 3, smoke: 1 }

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (server.address())
      server.close(() => resolve(port))
    })
  })
}

/** Every pid of a process group, from /proc. */
function groupPids(group) {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]) === group
      } catch {
        return false
      }
    })
    .map(Number)
}

/** Starts a command in its own group; resolves with the first stdout match of `pattern`. */
function launch(command, args, env, pattern) {
  const started = performance.now()
  const child = spawn(command, args, { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
  trackGroup(child.pid)
  let output = ''
  const address = new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no address within 60 s: ${output.slice(-2000)}`)),
      60_000,
    )
    const onData = (chunk) => {
      output += chunk
      const match = pattern.exec(output)
      if (match) {
        clearTimeout(timer)
        resolve(match[0])
      }
    }
    child.stdout.setEncoding('utf8').on('data', onData)
    child.stderr.setEncoding('utf8').on('data', onData)
    child.on('exit', (code) =>
      reject(new Error(`exited (${code}) before its address: ${output.slice(-2000)}`)),
    )
  })
  const stop = () => {
    try {
      process.kill(-child.pid, 'SIGKILL')
    } catch {
      // gone
    }
    untrackGroup(child.pid)
  }
  return { started, address, stop, group: child.pid }
}

function rssMib(group) {
  return groupPids(group).reduce((total, pid) => total + (readMemoryKib(pid, 'VmRSS') ?? 0), 0) / 1024
}

/** One launch to tools list of each side; returns { ms, rssMib }. */
const sides = {
  async kit(context, browser) {
    const run = launch(
      context.node,
      [context.kitBin, 'ui', '--no-open', '--', 'node', context.servers.everything],
      context.env,
      /http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+/,
    )
    try {
      const page = await (await browser.newContext()).newPage()
      await page.goto(await run.address)
      await page
        .getByRole('list', { name: 'Tools' })
        .getByRole('button', { name: /^get-sum/ })
        .waitFor({ timeout: 60_000 })
      const ms = performance.now() - run.started
      const rss = rssMib(run.group)
      await page.context().close()
      return { ms, rssMib: rss }
    } finally {
      run.stop()
    }
  },
  async inspector(context, browser) {
    const [client, sandbox] = [await freePort(), await freePort()]
    const run = launch(
      context.node22,
      [context.inspectorWeb, '--web', 'node', context.servers.everything],
      {
        ...context.env,
        CLIENT_PORT: String(client),
        MCP_SANDBOX_PORT: String(sandbox),
        MCP_AUTO_OPEN_ENABLED: 'false',
        MCP_INSPECTOR_SECRET_STORE: 'memory',
      },
      new RegExp(`http://127\\.0\\.0\\.1:${client}\\?MCP_INSPECTOR_API_TOKEN=\\w+`),
    )
    try {
      const page = await (await browser.newContext()).newPage()
      await page.goto(await run.address)
      // As a person does: switch the server on, open Tools.
      await page.getByRole('switch').first().click({ force: true })
      await page.getByText('Tools', { exact: true }).first().click({ timeout: 60_000 })
      await page.getByText('get-sum', { exact: true }).first().waitFor({ timeout: 60_000 })
      const ms = performance.now() - run.started
      const rss = rssMib(run.group)
      await page.context().close()
      return { ms, rssMib: rss }
    } finally {
      run.stop()
    }
  },
}

/** gzip bytes of the scripts a built page loads at once (its entry and what it preloads or imports). */
function initialJsGzip(directory) {
  const html = readFileSync(join(directory, 'index.html'), 'utf8')
  const queue = [
    ...html.matchAll(/<script[^>]*src="\.?\/?([^"]+\.js)"/g),
    ...html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="\.?\/?([^"]+\.js)"/g),
  ].map((match) => match[1])
  const seen = new Set()
  while (queue.length > 0) {
    const file = queue.shift()
    if (seen.has(file)) continue
    seen.add(file)
    const code = readFileSync(join(directory, file), 'utf8')
    for (const match of code.matchAll(
      /^import\s*["']\.\/([^"']+\.js)["']|\bfrom\s*["']\.\/([^"']+\.js)["']/gm,
    ))
      queue.push(join(dirname(file), match[1] ?? match[2]))
  }
  let total = 0
  for (const file of seen) total += gzipSync(readFileSync(join(directory, file)), { level: 9 }).length
  return { bytes: total, files: seen.size }
}

/** @type {import('../main.js').Measurement} */
export async function measureUi(context, options, log) {
  const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs })
  const samples = { kit: [], inspector: [] }
  const memory = { kit: [], inspector: [] }
  try {
    const runs = options.mode === 'full' ? options.runs : (runsByMode[options.mode] ?? 3)
    if (options.warmup) for (const side of ['kit', 'inspector']) await sides[side](context, browser)
    for (let round = 0; round < runs; round++) {
      for (const side of round % 2 === 0 ? ['kit', 'inspector'] : ['inspector', 'kit']) {
        const result = await sides[side](context, browser)
        samples[side].push(result.ms)
        memory[side].push(result.rssMib)
      }
      log(
        `  round ${round + 1}: mcp-kit ui ${samples.kit.at(-1).toFixed(0)} ms, Inspector ${samples.inspector.at(-1).toFixed(0)} ms`,
      )
    }
  } finally {
    await browser.close()
  }
  const kitJs = initialJsGzip(assetsDirectory)
  const inspectorJs = initialJsGzip(context.inspectorWebAssets)
  log(`  initial JS gzip: mcp-kit ui ${kitJs.bytes} B, Inspector ${inspectorJs.bytes} B`)
  return [
    makeRow({
      id: 'ui-first-tools',
      group: 'ui',
      name: 'launch to first tools list rendered (server-everything, headless Chromium)',
      unit: 'ms',
      kit: samples.kit,
      anchor: { name: 'Inspector 2.12 web UI', samples: samples.inspector },
      target: { op: '<=', value: 0.4 },
    }),
    makeRow({
      id: 'ui-initial-js',
      group: 'ui',
      name: `initial JavaScript, gzip (${kitJs.files} file${kitJs.files === 1 ? '' : 's'} against ${inspectorJs.files})`,
      unit: 'KiB',
      kit: [kitJs.bytes / 1024],
      anchor: { name: 'Inspector 2.12 web UI', samples: [inspectorJs.bytes / 1024] },
      target: { op: '<=', value: 0.2 },
    }),
    makeRow({
      id: 'ui-backend-rss',
      group: 'ui',
      name: 'backend RSS with the tools list shown (its process group, server-everything included)',
      unit: 'MiB',
      kit: memory.kit,
      anchor: { name: 'Inspector 2.12 web UI', samples: memory.inspector },
    }),
  ]
}
