// Running the built CLI and the Python peers as real processes, and stopping every one of them.

import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { pythonPeers } from '../peers.js'

export { peers } from '../peers.js'

/** The workspace's built CLI, as `.ci/run` builds it. */
export const binPath = fileURLToPath(new URL('../../../apps/mcp-kit/dist/bin.js', import.meta.url))

/**
 * The Python environment, or why there is none. When there is none this says so on the console
 * (the tests that need it are skipped and counted as skipped, so a missing Python shows).
 */
export function pythonOrWarn(what) {
  const environment = pythonPeers()
  if (!environment.ready)
    console.warn(
      `\n*** python-peers: SKIPPING ${what}: ${environment.reason}. They are counted as skipped. ***\n`,
    )
  return environment
}

/**
 * This test file's own cache directory for remembered protocol eras (test files run in parallel;
 * what one remembers must not change what another sees). `fresh()` gives another, empty one.
 */
const cacheDirectories = []
export function cacheDirectory() {
  const directory = mkdtempSync(join(tmpdir(), 'mcp-kit-python-peers-cache-'))
  cacheDirectories.push(directory)
  return directory
}
const fileCache = cacheDirectory()

const running = new Set()

/**
 * Runs a program to its end with stdin at end of file: {code, stdout, stderr}. Killed after
 * `timeoutMs` (a hang fails the test instead of stalling the run).
 */
export function run(command, args, { env, timeoutMs = 120_000 } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      env: { ...process.env, NO_COLOR: '1', MCP_KIT_CACHE_DIR: fileCache, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    running.add(child)
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (text) => {
      stdout += text
    })
    child.stderr.setEncoding('utf8').on('data', (text) => {
      stderr += text
    })
    const timer = setTimeout(() => {
      stderr += `\n(killed after ${timeoutMs} ms)`
      child.kill('SIGKILL')
    }, timeoutMs)
    child.on('error', reject)
    child.on('close', (code) => {
      clearTimeout(timer)
      running.delete(child)
      resolve({ code, stdout, stderr })
    })
  })
}

/** `mcp-kit <args>`. */
export function cli(args, options) {
  return run(process.execPath, [binPath, ...args], options)
}

/** NDJSON stdout as values. */
export function records(stdout) {
  return stdout
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line))
}

/**
 * Starts a long-running server and resolves with {url, stop(), output()} once it prints its
 * http://127.0.0.1:PORT/mcp URL (on stdout or stderr). `stop()` sends SIGTERM, then SIGKILL
 * after 3 s, and resolves when it is gone.
 */
export function startServer(command, args, { env, timeoutMs = 90_000 } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      env: { ...process.env, NO_COLOR: '1', MCP_KIT_CACHE_DIR: fileCache, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    running.add(child)
    let output = ''
    let settled = false
    const exited = new Promise((resolveExit) => child.on('close', resolveExit))
    exited.then(() => running.delete(child))
    const stop = async () => {
      if (child.exitCode !== null || child.signalCode !== null) return
      child.kill('SIGTERM')
      const timer = setTimeout(() => child.kill('SIGKILL'), 3000)
      await exited
      clearTimeout(timer)
    }
    const timer = setTimeout(() => {
      if (settled) return
      settled = true
      stop()
      reject(new Error(`${command} ${args.join(' ')} printed no URL within ${timeoutMs} ms:\n${output}`))
    }, timeoutMs)
    const look = (text) => {
      output += text
      const url = /http:\/\/127\.0\.0\.1:\d+\/mcp/.exec(output)?.[0]
      if (url === undefined || settled) return
      settled = true
      clearTimeout(timer)
      resolve({ url, stop, output: () => output })
    }
    child.stdout.setEncoding('utf8').on('data', look)
    child.stderr.setEncoding('utf8').on('data', look)
    child.on('error', (error) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      reject(error)
    })
    exited.then((code) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      reject(new Error(`${command} ${args.join(' ')} exited (${code}) before it printed a URL:\n${output}`))
    })
  })
}

/** Kills whatever is still running and removes the cache directories (afterAll). */
export function cleanUp() {
  for (const child of running) child.kill('SIGKILL')
  running.clear()
  for (const directory of cacheDirectories) rmSync(directory, { recursive: true, force: true })
}

// A test run that is interrupted still leaves no servers behind.
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL')
})
