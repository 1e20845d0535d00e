// Lists a stdio MCP server's tools the way a host does at start-up: spawn it, `initialize`
// (2025-11-25, which every server here speaks), then `tools/list` following `nextCursor` to the
// end. Timed from just before spawn; the bytes of every page as they arrived; the server's
// resident set (VmRSS), its peak (VmHWM) and its CPU time once the list is complete. The server is
// stopped after.

import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { readMemoryKib, trackGroup, untrackGroup } from './run-process.js'

/**
 * @typedef {object} Listing
 * @property {number} firstPageMs   spawn → the first tools/list answer
 * @property {number} allPagesMs    spawn → the last page
 * @property {number} tools
 * @property {number[]} pageBytes   each page's message, as sent
 * @property {number} rssKib        VmRSS with the list complete
 * @property {number} peakRssKib    VmHWM then
 * @property {number} cpuMs         the server's user + system CPU time then (load moves it far less than wall time)
 */

/** User + system CPU time of a process so far, from /proc/<pid>/stat (clock ticks of 10 ms). */
function cpuMsOf(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
    return (Number(fields[11]) + Number(fields[12])) * 10
  } catch {
    return Number.NaN
  }
}

/**
 * @param {{ command: string, args: string[], env: NodeJS.ProcessEnv, label: string, timeoutMs?: number }} options
 * @returns {Promise<Listing>}
 */
export async function listOverStdio({ command, args, env, label, timeoutMs = 120_000 }) {
  const started = process.hrtime.bigint()
  const elapsed = () => Number(process.hrtime.bigint() - started) / 1e6
  const child = spawn(command, args, { env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] })
  const pid = /** @type {number} */ (child.pid)
  trackGroup(pid)
  let stderr = ''
  child.stderr.setEncoding('utf8').on('data', (text) => {
    if (stderr.length < 20_000) stderr += text
  })
  /** @type {Map<number, (answer: { message: any, bytes: number }) => void>} */
  const waiting = new Map()
  let failed
  const failure = new Promise((_, reject) => {
    failed = reject
  })
  failure.catch(() => {})
  child.once('exit', (code) => failed(new Error(`${label} exited (${code}): ${stderr.trim().slice(-500)}`)))
  const timer = setTimeout(
    () => failed(new Error(`${label}: no full list within ${timeoutMs / 1000} s`)),
    timeoutMs,
  )
  let buffered = ''
  child.stdout.setEncoding('utf8').on('data', (chunk) => {
    buffered += chunk
    for (let end = buffered.indexOf('\n'); end !== -1; end = buffered.indexOf('\n')) {
      const line = buffered.slice(0, end)
      buffered = buffered.slice(end + 1)
      if (line.trim() === '') continue
      const message = JSON.parse(line)
      waiting.get(message.id)?.({ message, bytes: Buffer.byteLength(line) })
      waiting.delete(message.id)
    }
  })
  let nextId = 0
  const request = (method, params) => {
    const id = ++nextId
    const answer = new Promise((resolve) => waiting.set(id, resolve))
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`)
    return Promise.race([answer, failure])
  }
  try {
    await request('initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'mcp-kit-bench', version: '1.0.0' },
    })
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`)
    const pageBytes = []
    let tools = 0
    let firstPageMs
    let cursor
    do {
      const { message, bytes } = await request('tools/list', cursor === undefined ? {} : { cursor })
      if (message.error) throw new Error(`${label}: tools/list failed: ${JSON.stringify(message.error)}`)
      firstPageMs ??= elapsed()
      pageBytes.push(bytes)
      tools += message.result.tools.length
      cursor = message.result.nextCursor
    } while (typeof cursor === 'string' && pageBytes.length < 1000)
    const allPagesMs = elapsed()
    const rssKib = readMemoryKib(pid, 'VmRSS') ?? Number.NaN
    const peakRssKib = readMemoryKib(pid, 'VmHWM') ?? Number.NaN
    return { firstPageMs, allPagesMs, tools, pageBytes, rssKib, peakRssKib, cpuMs: cpuMsOf(pid) }
  } finally {
    clearTimeout(timer)
    try {
      process.kill(-pid, 'SIGKILL')
    } catch {
      // gone already
    }
    untrackGroup(pid)
  }
}
