// Runs one command the way a shell user would and times it from just before spawn until its
// stdout and stderr close, optionally polling /proc for the process's peak resident set size.
// Each command runs in its own process group so a timeout or Ctrl-C can end everything it started.

import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'

/** Process groups still running, ended if the benchmark itself is interrupted. */
const liveGroups = new Set()

/** Remembers a process group started elsewhere (a long-running server) until `untrackGroup`. */
export function trackGroup(pid) {
  liveGroups.add(pid)
}

/** @param {number} pid */
export function untrackGroup(pid) {
  liveGroups.delete(pid)
}

/** Ends every process group the benchmark started and has not seen exit. */
export function killLiveGroups() {
  for (const pid of liveGroups) {
    try {
      process.kill(-pid, 'SIGKILL')
    } catch {
      // already gone
    }
  }
  liveGroups.clear()
}

/**
 * Reads a `Vm…` field (in KiB) of /proc/<pid>/status: VmHWM is the peak resident set size the
 * kernel keeps for the process itself (not its children), VmRSS the current one.
 * @param {number} pid
 * @param {'VmHWM' | 'VmRSS'} field
 * @returns {number | undefined}
 */
export function readMemoryKib(pid, field) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8')
    const match = status.match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'))
    return match ? Number(match[1]) : undefined
  } catch {
    return undefined
  }
}

/**
 * @typedef {object} ProcessRun
 * @property {number} wallMs        spawn → stdout/stderr closed
 * @property {number | null} exitCode
 * @property {string | null} signal
 * @property {Buffer} stdout
 * @property {string} stderr
 * @property {number | undefined} peakRssKib  last VmHWM seen (only with trackPeakRss)
 * @property {boolean} leftProcesses  something it started was still running when it exited
 */

/**
 * @param {object} options
 * @param {string} options.command
 * @param {string[]} options.args
 * @param {Buffer | string} [options.input]   written to stdin, then stdin is closed (else stdin is empty)
 * @param {NodeJS.ProcessEnv} [options.env]
 * @param {boolean} [options.trackPeakRss]
 * @param {number} [options.timeoutMs]
 * @returns {Promise<ProcessRun>}
 */
export function runProcess({ command, args, input, env, trackPeakRss = false, timeoutMs = 300_000 }) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint()
    const child = spawn(command, args, { env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] })
    const pid = child.pid
    if (pid !== undefined) liveGroups.add(pid)
    /** @type {Buffer[]} */
    const stdout = []
    let stderr = ''
    let peakRssKib
    let poller
    if (trackPeakRss && pid !== undefined) {
      const poll = () => {
        const value = readMemoryKib(pid, 'VmHWM')
        if (value !== undefined) peakRssKib = value
      }
      poll()
      poller = setInterval(poll, 2)
    }
    const timer = setTimeout(() => {
      try {
        process.kill(-pid, 'SIGKILL')
      } catch {
        // already gone
      }
    }, timeoutMs)
    child.stdout.on('data', (chunk) => stdout.push(chunk))
    child.stderr.on('data', (chunk) => {
      if (stderr.length < 100_000) stderr += chunk
    })
    child.stdin.on('error', () => {}) // a command that exits without reading its input
    child.stdin.end(input ?? '')
    child.on('error', (error) => {
      clearTimeout(timer)
      clearInterval(poller)
      liveGroups.delete(pid)
      reject(error)
    })
    child.on('close', (exitCode, signal) => {
      const wallMs = Number(process.hrtime.bigint() - started) / 1e6
      clearTimeout(timer)
      clearInterval(poller)
      liveGroups.delete(pid)
      // Anything the command left in its group (a server it forgot) must not outlive the run.
      let leftProcesses = false
      try {
        process.kill(-pid, 'SIGKILL')
        leftProcesses = true
      } catch {
        // the usual case: nothing left
      }
      resolve({ wallMs, exitCode, signal, stdout: Buffer.concat(stdout), stderr, peakRssKib, leftProcesses })
    })
  })
}

/**
 * Runs the command and throws with its stderr unless it exited 0.
 * @param {Parameters<typeof runProcess>[0] & { label: string }} options
 */
export async function runChecked(options) {
  const result = await runProcess(options)
  if (result.exitCode !== 0) {
    throw new Error(
      `${options.label} failed (exit ${result.exitCode ?? result.signal}): ${result.stderr.trim().split('\n').slice(-5).join(' | ')}`,
    )
  }
  return result
}
