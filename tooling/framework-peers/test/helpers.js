// Running the matrix: the built CLI as a real process, the peers' HTTP servers and the gateway
// (`mcp-kit serve`) started once per test file, and every process stopped at the end.

import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, connect as tcpConnect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The workspace's built CLI, as `.ci/run` builds it. */
export const binPath = fileURLToPath(new URL('../../../apps/mcp-kit/dist/bin.js', import.meta.url))

const directories = []

/** A scratch directory, removed by cleanUp(). */
export function scratch(prefix = 'mcp-kit-framework-peers-') {
  const directory = mkdtempSync(join(tmpdir(), prefix))
  directories.push(directory)
  return directory
}

const running = new Set()

/**
 * Runs a program to its end with `input` on stdin: {code, stdout, stderr}. Killed after
 * `timeoutMs` (a hang fails the test instead of stalling the run).
 */
export function run(command, args, { env, input = '', timeoutMs = 120_000 } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      env: { ...process.env, NO_COLOR: '1', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
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
    child.stdin.on('error', () => {})
    child.stdin.end(input)
  })
}

/**
 * `mcp-kit <args>` with nothing remembered: each run has an empty cache directory, so `auto`
 * negotiates from scratch (a remembered 2025 verdict would skip the probe this matrix checks).
 */
export function cli(args, options = {}) {
  return run(process.execPath, [binPath, ...args], {
    ...options,
    env: { MCP_KIT_CACHE_DIR: scratch('mcp-kit-framework-peers-cache-'), ...options.env },
  })
}

/** NDJSON stdout as values. */
export function records(stdout) {
  return stdout
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line))
}

/** A port nobody listens on right now. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })
}

function accepts(port) {
  return new Promise((resolve) => {
    const socket = tcpConnect(port, '127.0.0.1')
    socket.once('connect', () => {
      socket.destroy()
      resolve(true)
    })
    socket.once('error', () => resolve(false))
  })
}

/**
 * Starts a long-running process and resolves with {stop(), output()} once 127.0.0.1:`port`
 * accepts connections (or `ready` matches its output). `stop()` sends SIGTERM, then SIGKILL
 * after 3 s, and resolves when it is gone.
 */
export function startProcess(command, args, { env, port, ready, timeoutMs = 90_000 } = {}) {
  const child = spawn(command, args, {
    env: { ...process.env, NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  running.add(child)
  let output = ''
  child.stdout.setEncoding('utf8').on('data', (text) => {
    output += text
  })
  child.stderr.setEncoding('utf8').on('data', (text) => {
    output += text
  })
  const exited = new Promise((resolve) => child.on('close', resolve))
  exited.then(() => running.delete(child))
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return
    child.kill('SIGTERM')
    const timer = setTimeout(() => child.kill('SIGKILL'), 3000)
    await exited
    clearTimeout(timer)
  }
  const started = Date.now()
  return new Promise((resolve, reject) => {
    let gone = false
    exited.then((code) => {
      gone = true
      reject(new Error(`${command} ${args.join(' ')} exited (${code}) before it was ready:\n${output}`))
    })
    const poll = async () => {
      if (gone) return
      const isReady = ready !== undefined ? ready.test(output) : await accepts(port)
      if (isReady) return resolve({ stop, output: () => output, pid: child.pid })
      if (Date.now() - started > timeoutMs) {
        await stop()
        return reject(
          new Error(`${command} ${args.join(' ')} was not ready within ${timeoutMs} ms:\n${output}`),
        )
      }
      setTimeout(poll, 100)
    }
    poll()
  })
}

/**
 * `start(port)` on a free port; on another one if the process exits first (the port was taken
 * between the choice and the bind, by one of the suites running beside this one): {port, ...started}.
 */
async function onFreePort(start, attempts = 3) {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort()
    try {
      return { port, ...(await start(port)) }
    } catch (error) {
      if (attempt >= attempts || !/exited \(/.test(error.message)) throw error
    }
  }
}

/** Starts every HTTP row's server on a port of its own; each row gets `url` and `stop`. */
export async function startHttpRows(rows) {
  await Promise.all(
    rows
      .filter((row) => row.transport === 'http' && row.broken === undefined)
      .map(async (row) => {
        const { command, args, env } = row.launch
        const started = await onFreePort((port) =>
          startProcess(command, args(port), { env: env?.(port), port }),
        )
        row.url = `http://127.0.0.1:${started.port}/mcp`
        row.stop = started.stop
      }),
  )
}

/** The client library's ServerSpec of a row. */
export function serverSpecOf(row) {
  if (row.transport === 'http') return { transport: 'http', url: row.url, headers: row.launch.headers }
  const { command, args, env } = row.launch
  return { transport: 'stdio', command, args, env }
}

/** `mcp-kit <command>` words that reach a row's server, and its flags (before `--`). */
export function cliTarget(row) {
  const headers = Object.entries(row.launch.headers ?? {}).flatMap(([name, value]) => [
    '--header',
    `${name}: ${value}`,
  ])
  if (row.transport === 'http')
    return { reference: [`mcp+${row.url}`, ...headers, ...row.cliFlags], program: [] }
  const { command, args, env } = row.launch
  const environment = Object.entries(env ?? {}).flatMap(([name, value]) => ['--env', `${name}=${value}`])
  return { reference: [...environment, ...row.cliFlags], program: ['--', command, ...args] }
}

/**
 * Starts `mcp-kit serve` as a gateway to every row (a `--config` file of mcpServers, each row's
 * id its upstream name), all upstreams started at once (`--eager`); resolves with {url, health(),
 * stop(), output()} once it serves.
 */
export async function startGateway(rows) {
  const directory = scratch()
  const mcpServers = Object.fromEntries(
    rows
      .filter((row) => row.broken === undefined)
      .map((row) => {
        const spec = serverSpecOf(row)
        const launch =
          spec.transport === 'http'
            ? { url: spec.url, ...(spec.headers ? { headers: spec.headers } : {}) }
            : { command: spec.command, args: spec.args, ...(spec.env ? { env: spec.env } : {}) }
        return [row.id, { ...launch, ...row.gatewayEntry }]
      }),
  )
  const config = join(directory, 'servers.json')
  writeFileSync(config, JSON.stringify({ mcpServers }, null, 2))
  const gateway = await onFreePort((port) =>
    startProcess(
      process.execPath,
      [binPath, 'serve', '--config', config, '--port', String(port), '--eager', '--verbose'],
      { env: { MCP_KIT_CACHE_DIR: scratch('mcp-kit-framework-peers-cache-') }, ready: /serving .* at http/ },
    ),
  )
  const { port } = gateway
  const url = `http://127.0.0.1:${port}/mcp`
  const health = async () => (await (await fetch(`http://127.0.0.1:${port}/healthz`)).json()).upstreams
  /** Resolves once no upstream is still starting (each one running, or failed and reported). */
  const settled = async (timeoutMs = 90_000) => {
    const started = Date.now()
    while (Object.values(await health()).some((upstream) => upstream.state === 'starting')) {
      if (Date.now() - started > timeoutMs) throw new Error(`upstreams still starting:\n${gateway.output()}`)
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
  }
  return { ...gateway, url, health, settled }
}

/**
 * Warns that rows are skipped because the framework itself is broken (README "Known breakage"):
 * the tests are counted as skipped, and this says why on the console.
 */
export function warnBroken(rows) {
  for (const row of rows.filter((candidate) => candidate.broken !== undefined))
    console.warn(
      `\n*** framework-peers: SKIPPING ${row.id} (${row.package} ${row.version}): ${row.broken} ***\n`,
    )
}

/** Kills whatever is still running and removes the scratch directories (afterAll). */
export function cleanUp() {
  for (const child of running) child.kill('SIGKILL')
  running.clear()
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true })
}

// A test run that is interrupted still leaves no servers behind.
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL')
})
