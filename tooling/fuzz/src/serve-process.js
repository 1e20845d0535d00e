// Starts `mcp-kit serve` as a user would (the built bin, its own process group) over HTTP on
// 127.0.0.1 port 0 or over stdio, keeps what it writes to stderr, notices when it exits, and
// stops it again (SIGTERM, then SIGKILL of its group).

import { spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

const require = createRequire(import.meta.url)

/** The workspace's built CLI (apps/mcp-kit/bin/mcp-kit.js, which loads dist/bin.js). */
export const defaultBin = join(dirname(require.resolve('mcp-kit/package.json')), 'bin', 'mcp-kit.js')

/**
 * @typedef {object} ServeProcess
 * @property {number} pid
 * @property {import('node:child_process').ChildProcess} child
 * @property {() => boolean} alive
 * @property {() => string} exitReason   how it ended ("exit 1", "signal SIGSEGV"), once it has
 * @property {() => string[]} takeStderr  stderr lines since the last call
 * @property {() => Promise<void>} stop
 */

/**
 * @param {object} options
 * @param {string} options.bin
 * @param {string[]} options.args  after `serve`
 * @param {boolean} [options.stdio]  keep stdin/stdout as pipes for the protocol
 * @returns {ServeProcess}
 */
function spawnServe({ bin, args, stdio = false }) {
  const child = spawn(process.execPath, [bin, 'serve', ...args], {
    detached: true,
    env: { ...process.env, NO_COLOR: '1', MCP_KIT_TOKEN: '' },
    stdio: [stdio ? 'pipe' : 'ignore', 'pipe', 'pipe'],
  })
  const pid = /** @type {number} */ (child.pid)
  let exited = false
  let reason = ''
  let stderrLines = []
  let partial = ''
  child.stderr?.setEncoding('utf8').on('data', (text) => {
    const lines = (partial + text).split('\n')
    partial = lines.pop() ?? ''
    if (stderrLines.length < 1000) stderrLines.push(...lines)
  })
  const exit = new Promise((resolve) =>
    child.once('exit', (code, signal) => {
      exited = true
      reason = signal === null ? `exit ${code}` : `signal ${signal}`
      resolve(undefined)
    }),
  )
  return {
    pid,
    child,
    alive: () => !exited,
    exitReason: () => reason,
    takeStderr() {
      const taken = stderrLines
      stderrLines = []
      return taken
    },
    async stop() {
      if (!exited) {
        child.kill('SIGTERM')
        const timer = setTimeout(() => killGroup(pid), 5000)
        await exit
        clearTimeout(timer)
      }
      killGroup(pid)
    },
  }
}

function killGroup(pid) {
  try {
    process.kill(-pid, 'SIGKILL')
  } catch {
    // nothing left: the usual case
  }
}

/**
 * `mcp-kit serve <module> --port 0 …`, resolved once it prints its URL.
 * @returns {Promise<ServeProcess & { port: number, url: string }>}
 */
export function startHttpServe({ bin = defaultBin, module, args = [] }) {
  const serving = spawnServe({ bin, args: [module, '--port', '0', ...args] })
  return new Promise((resolve, reject) => {
    let seen = ''
    const timer = setTimeout(() => {
      void serving.stop()
      reject(new Error(`mcp-kit serve did not print its URL within 20 s: ${seen.slice(-500)}`))
    }, 20_000)
    const onData = (text) => {
      seen += text
      const match = /http:\/\/127\.0\.0\.1:(\d+)\/mcp/.exec(seen)
      if (match === null) return
      clearTimeout(timer)
      serving.child.stderr?.off('data', onData)
      serving.takeStderr()
      resolve({ ...serving, port: Number(match[1]), url: match[0] })
    }
    serving.child.stderr?.on('data', onData)
    serving.child.stdout?.resume()
    serving.child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`mcp-kit serve exited (${code}) before listening: ${seen.slice(-500)}`))
    })
  })
}

/**
 * `mcp-kit serve <module> --stdio`, with its stdout split into lines for `onLine`.
 * @param {{ bin?: string, module: string, onLine: (line: string) => void }} options
 * @returns {ServeProcess & { write: (bytes: Buffer) => Promise<void> }}
 */
export function startStdioServe({ bin = defaultBin, module, onLine }) {
  const serving = spawnServe({ bin, args: [module, '--stdio'], stdio: true })
  let partial = ''
  serving.child.stdout?.setEncoding('utf8').on('data', (text) => {
    const lines = (partial + text).split('\n')
    partial = lines.pop() ?? ''
    for (const line of lines) onLine(line)
  })
  const stdin = /** @type {import('node:stream').Writable} */ (serving.child.stdin)
  // A crashed server closes its stdin: writes then fail with EPIPE, which the crash check reports.
  stdin.on('error', () => {})
  return {
    ...serving,
    write: (bytes) =>
      new Promise((resolve) => {
        if (stdin.destroyed || !serving.alive()) return resolve()
        if (stdin.write(bytes)) return resolve()
        const done = () => {
          stdin.off('drain', done)
          stdin.off('close', done)
          resolve()
        }
        stdin.once('drain', done)
        stdin.once('close', done)
      }),
  }
}
