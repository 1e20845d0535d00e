// @module-tag integration
// `mcp-kit ui -- cmd …` starts the server before the CLI has loaded (commands/ui/early-server.ts),
// and the workspace adopts that process instead of starting a second one: the server runs once,
// gets the environment it would have got, and a command line the CLI refuses never runs. Work the
// page asks for on load that can wait (the collection files) waits for the starting server, and a
// page already open gets the server's lists with the event that says it connected.

import type { ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { pollUntil } from '../../helpers/poll.js'
import { launchChromium, startUi } from '../../helpers/ui-harness.js'

const base = mkdtempSync(join(tmpdir(), 'mcp-kit-early-'))

/**
 * A stdio MCP server that writes a line per start (its pid) to `starts` and answers the handshake;
 * with `silentPrompts` it offers prompts and never answers prompts/list.
 */
function countingServer(starts: string, answerAfterMs = 0, silentPrompts = false): string {
  const file = join(base, `counting-${Math.random().toString(36).slice(2)}.mjs`)
  writeFileSync(
    file,
    `import { appendFileSync } from 'node:fs'
import { createInterface } from 'node:readline'
appendFileSync(${JSON.stringify(starts)}, process.pid + ' ' + (process.env.EARLY_PROBE ?? '-') + '\\n')
const send = (message) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...message }) + '\\n')
createInterface({ input: process.stdin }).on('line', (line) => {
  const message = JSON.parse(line)
  if (message.id === undefined) return
  if (message.method === 'initialize')
    setTimeout(() => send({ id: message.id, result: { protocolVersion: '2025-11-25', capabilities: { tools: {}${silentPrompts ? ', prompts: {}' : ''} }, serverInfo: { name: 'counting', version: '1.0.0' } } }), ${answerAfterMs})
  else if (message.method === 'tools/list')
    send({ id: message.id, result: { tools: [{ name: 'only-tool', inputSchema: { type: 'object' } }] } })
  else if (message.method === 'prompts/list' && ${silentPrompts}) return
  else send({ id: message.id, error: { code: -32601, message: 'Method not found' } })
})
`,
  )
  return file
}

function lines(file: string): string[] {
  return existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').filter(Boolean) : []
}

describe('the server of ui -- cmd starts early and is adopted', () => {
  it('runs once, connected, with the environment the workspace gives servers', async () => {
    const starts = join(base, 'starts-e2e')
    const ui = await startUi(['--', 'node', countingServer(starts)])
    try {
      const cookie = `mcp-kit-ui-${ui.port}=${ui.token}`
      const state = await pollUntil(
        'the server connected',
        async () => {
          const answer = await fetch(`${ui.origin}/api/state`, { headers: { cookie } })
          const body = (await answer.json()) as {
            servers: Array<{ state: string; counts: { tools: number } }>
          }
          return body.servers[0]?.state === 'connected' ? body : undefined
        },
        { timeoutMs: 30_000 },
      )
      expect(state.servers[0]?.counts.tools).toBe(1)
      // One start: the early process was adopted, not doubled by the workspace's own spawn.
      expect(lines(starts)).toHaveLength(1)
    } finally {
      await ui.stop()
    }
  })
})

describe('first things first', () => {
  it('the collections listing the page asks for on load waits for the starting server', async () => {
    const ui = await startUi(['--', 'node', countingServer(join(base, 'starts-slow'), 1500)])
    try {
      const headers = { cookie: `mcp-kit-ui-${ui.port}=${ui.token}` }
      const listing = await fetch(`${ui.origin}/api/collections`, { headers })
      expect(listing.status).toBe(200)
      const state = (await (await fetch(`${ui.origin}/api/state`, { headers })).json()) as {
        servers: Array<{ state: string }>
      }
      expect(state.servers[0]?.state).toBe('connected')
    } finally {
      await ui.stop()
    }
  })

  it('a page open while the server starts gets its lists with the connected event, not by asking', async () => {
    const ui = await startUi(['--', 'node', countingServer(join(base, 'starts-page'), 1500)])
    const browser = await launchChromium()
    try {
      const page = await (await browser.newContext()).newPage()
      const asked: string[] = []
      page.on('request', (request) => {
        if (request.url().includes('/lists')) asked.push(request.url())
      })
      await page.goto(ui.url)
      await page.getByRole('button', { name: /^only-tool/ }).waitFor({ timeout: 30_000 })
      // The schema hash arrives in a later event for the same lists: still nothing asked.
      await page.getByRole('button', { name: 'Overview', exact: true }).click()
      await pollUntil('the schema hash shown', async () => {
        const shown = await page.getByTestId('schema-hash').textContent()
        return shown !== null && shown !== '—' ? shown : undefined
      })
      // The page's reaction to that event (its effects) has run once the next task does.
      await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 0)))
      expect(asked).toEqual([])
    } finally {
      await browser.close()
      await ui.stop()
    }
  })
})

describe('the tools first', () => {
  it('a server that never lists its prompts still shows its tools; its prompts show as being listed', async () => {
    const ui = await startUi(['--', 'node', countingServer(join(base, 'starts-silent'), 0, true)])
    const browser = await launchChromium()
    try {
      const page = await (await browser.newContext()).newPage()
      await page.goto(ui.url)
      await page.getByRole('button', { name: /^only-tool/ }).waitFor({ timeout: 30_000 })
      await page.getByRole('button', { name: 'Prompts', exact: true }).click()
      await page.getByRole('list', { name: 'Prompts' }).getByText('Listing…').waitFor()
    } finally {
      await browser.close()
      await ui.stop()
    }
  })
})

describe('adoptingSpawn (in process)', () => {
  const children: ChildProcess[] = []
  afterEach(() => {
    for (const child of children.splice(0)) child.kill('SIGKILL')
    vi.resetModules()
  })

  async function freshModule() {
    return import('../../../src/commands/ui/early-server.js')
  }

  /** What the workspace's connection would ask for the same command line (the client's options). */
  async function clientRequest(words: string[]) {
    const { buildEnvironment } = await import('@mcp-kit/client/internal')
    const { env } = buildEnvironment({ parent: process.env, passEnv: [], set: {} })
    return {
      command: words[0] as string,
      args: words.slice(1),
      options: { env, cwd: process.cwd(), stdio: ['pipe', 'pipe', 'pipe'], shell: false, detached: true },
    }
  }

  /** A counting server started early (its first start recorded), and the request for it. */
  async function startedEarly(name: string) {
    const starts = join(base, name)
    const words = ['node', countingServer(starts)]
    const early = await freshModule()
    expect(await early.launchEarly(words)).toBe(true)
    await pollUntil('one start', () => (lines(starts).length === 1 ? true : undefined))
    const [earlyPid] = (lines(starts)[0] as string).split(' ')
    return { starts, early, earlyPid, request: await clientRequest(words) }
  }

  it('hands the early process to a request for the same command line, and replays its spawn event', async () => {
    const { starts, early, earlyPid, request } = await startedEarly('starts-same')
    const child = early.adoptingSpawn(request.command, request.args, request.options as never)
    children.push(child)
    const spawned = await new Promise<boolean>((resolve) => {
      child.once('spawn', () => resolve(true))
      child.once('error', () => resolve(false))
    })
    expect(spawned).toBe(true)
    expect(String(child.pid)).toBe(earlyPid)
    expect(lines(starts)).toHaveLength(1)
  })

  it('ends the early process and spawns anew when the request differs (another environment)', async () => {
    const { starts, early, earlyPid, request } = await startedEarly('starts-other')
    const env = { ...request.options.env, EARLY_PROBE: 'given' }
    const child = early.adoptingSpawn(request.command, request.args, { ...request.options, env } as never)
    children.push(child)
    await pollUntil('a second start', () => (lines(starts).length === 2 ? true : undefined))
    expect(lines(starts)[1]).toBe(`${child.pid} given`)
    // The early one was ended (its process group signalled).
    await pollUntil('the early process ended', () => {
      try {
        process.kill(Number(earlyPid), 0)
        return undefined
      } catch {
        return true
      }
    })
  })

  it('starts nothing for a command line the CLI refuses, nor once the workspace has spawned', async () => {
    const starts = join(base, 'starts-refused')
    const server = countingServer(starts)
    const early = await freshModule()
    // A program with shell syntax: the CLI refuses it (no shell runs commands), so nothing starts.
    expect(await early.launchEarly([`node ${server}`])).toBe(false)
    const request = await clientRequest(['node', server])
    const child = early.adoptingSpawn(request.command, request.args, request.options as never)
    children.push(child)
    await pollUntil('one start', () => (lines(starts).length === 1 ? true : undefined))
    // Too late: the workspace has spawned its own, so a late early launch starts nothing.
    expect(await early.launchEarly(['node', server])).toBe(false)
    expect(lines(starts)).toHaveLength(1)
  })
})
