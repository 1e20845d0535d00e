// Starts an HTTP server under test (mcp-kit serve, the SDK anchor, the bare ceiling) as its own
// process on a free port, learns the port from the line it prints, and stops it again.

import { spawn } from 'node:child_process'
import { trackGroup, untrackGroup } from './run-process.js'

/**
 * @param {object} options
 * @param {string} options.label
 * @param {string} options.command
 * @param {string[]} options.args
 * @param {NodeJS.ProcessEnv} options.env
 * @param {string} [options.path] the path of the URL it prints (default `/mcp`; '' for a plain
 *   origin such as the stand-in REST APIs print)
 * @returns {Promise<{ url: string, pid: number, stop: () => Promise<void> }>}
 */
export function startHttpServer({ label, command, args, env, path = '/mcp' }) {
  const printed = new RegExp(`http://127\\.0\\.0\\.1:(\\d+)${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`)
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
    const pid = /** @type {number} */ (child.pid)
    trackGroup(pid)
    let output = ''
    let exited = false
    const exit = new Promise((resolveExit) =>
      child.once('exit', () => {
        exited = true
        untrackGroup(pid)
        resolveExit(undefined)
      }),
    )
    const stop = async () => {
      if (!exited) {
        child.kill('SIGTERM')
        const timer = setTimeout(() => {
          try {
            process.kill(-pid, 'SIGKILL')
          } catch {
            // gone meanwhile
          }
        }, 5000)
        await exit
        clearTimeout(timer)
      }
      try {
        process.kill(-pid, 'SIGKILL') // anything the server started
      } catch {
        // nothing left: the usual case
      }
    }
    const timer = setTimeout(() => {
      stop()
      reject(new Error(`${label} did not print its URL within 15 s: ${output.slice(-500)}`))
    }, 15_000)
    const onOutput = (chunk) => {
      if (output.length < 100_000) output += chunk
      const match = output.match(printed)
      if (match) {
        clearTimeout(timer)
        child.stdout.off('data', onOutput)
        child.stderr.off('data', onOutput)
        // Keep draining, so a server that logs never blocks on a full pipe.
        child.stdout.resume()
        child.stderr.resume()
        resolve({ url: `http://127.0.0.1:${match[1]}${path}`, pid, stop })
      }
    }
    child.stdout.on('data', onOutput)
    child.stderr.on('data', onOutput)
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`${label} exited (${code}) before listening: ${output.slice(-500)}`))
    })
  })
}
