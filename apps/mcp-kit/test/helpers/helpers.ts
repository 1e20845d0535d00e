// Running the built CLI as a user would: a real process, real stdio, exit codes, and checks that
// the servers it started are gone afterwards.

import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs'
import { homedir, tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { processRunning } from '@mcp-kit/client/internal'

export const binPath = fileURLToPath(new URL('../../dist/bin.js', import.meta.url))

/**
 * Each test file's own cache directory (era verdicts, discovery caches): test files run in
 * parallel, and one file's remembered verdicts must not change what another file sees.
 */
export const cacheHome = mkdtempSync(join(tmpdir(), 'mcp-kit-test-cache-'))

export interface CliResult {
  code: number | null
  signal: NodeJS.Signals | null
  stdout: string
  stderr: string
  milliseconds: number
}

export interface CliOptions {
  input?: string
  env?: Record<string, string | undefined>
  cwd?: string
  /** Kill the CLI if it has not finished by then (a hang is a failure, not a stuck test run). */
  timeoutMs?: number
  /** Called once the process runs, e.g. to send it a signal. */
  onSpawn?: (child: ReturnType<typeof spawn>) => void
}

export function runCli(args: readonly string[], options: CliOptions = {}): Promise<CliResult> {
  const started = Date.now()
  if (options.env?.HOME !== undefined) shareNpmCache(options.env.HOME)
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [binPath, ...args], {
      cwd: options.cwd,
      env: { ...process.env, NO_COLOR: '1', XDG_CACHE_HOME: cacheHome, ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text))
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text))
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000)
    child.on('error', reject)
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      resolve({ code, signal, stdout, stderr, milliseconds: Date.now() - started })
    })
    child.stdin.on('error', () => {})
    child.stdin.end(options.input ?? '')
    options.onSpawn?.(child)
  })
}

/**
 * Runs the CLI with `home` as HOME and config directory (no MCP_KIT_HOME), in `cwd`: profiles a
 * test saves land there and nowhere else.
 */
export function runCliAtHome(home: string, cwd: string, args: string[], options: CliOptions = {}) {
  return runCli(args, {
    cwd,
    ...options,
    env: {
      HOME: home,
      XDG_CONFIG_HOME: join(home, '.config'),
      MCP_KIT_HOME: undefined,
      APPDATA: undefined,
      ...options.env,
    },
  })
}

/**
 * The user's npm cache seen from a test's home (`home/.npm`, a link): npx, which the servers of
 * the registry and npx tests are launched with, reads its cache from $HOME; an empty one would
 * mean downloading each package and its dependencies again, slower on a loaded machine than
 * the CLI's 30 s --connect-timeout.
 */
function shareNpmCache(home: string): void {
  if (home === '') return
  const link = join(home, '.npm')
  const cache = process.env.npm_config_cache ?? join(homedir(), '.npm')
  if (existsSync(link) || !existsSync(cache)) return
  try {
    symlinkSync(cache, link, 'dir')
  } catch {
    // Made by a test running beside this one, or not possible here: npx then fetches again.
  }
}

/** NDJSON stdout as values. */
export function records(stdout: string): unknown[] {
  return stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line))
}

/** A temp file the fixtures append their pids to (pass it with --env FIXTURE_PID_FILE=…). */
export function pidFile(): {
  path: string
  flag: string
  pids: () => number[]
  running: () => number[]
  remove: () => void
} {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-kit-pids-'))
  const path = join(dir, 'pids')
  const pids = () => {
    try {
      return readFileSync(path, 'utf8').split('\n').filter(Boolean).map(Number)
    } catch {
      return []
    }
  }
  return {
    path,
    flag: `FIXTURE_PID_FILE=${path}`,
    pids,
    running: () => pids().filter(processRunning),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  }
}

const started = new Set<ChildProcess>()

/** Kills what startServe started and is still running (for afterEach); checks each is gone. */
export async function stopStarted(): Promise<void> {
  for (const child of started) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL')
      await new Promise((resolve) => child.once('exit', resolve))
    }
    if (child.exitCode === null && child.signalCode === null)
      throw new Error(`serve ${child.pid} is still running`)
  }
  started.clear()
}

export interface Serving {
  child: ChildProcess
  url: string
  stderr: () => string
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
}

/** Starts `mcp-kit serve …` and resolves once it prints its URL. */
export function startServe(args: string[], env: Record<string, string> = {}): Promise<Serving> {
  if (env.HOME !== undefined) shareNpmCache(env.HOME)
  const child = spawn(process.execPath, [binPath, 'serve', ...args], {
    env: { ...process.env, NO_COLOR: '1', MCP_KIT_TOKEN: '', XDG_CACHE_HOME: cacheHome, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  started.add(child)
  let stderr = ''
  let stdout = ''
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  )
  return new Promise((resolve, reject) => {
    child.stdout?.setEncoding('utf8').on('data', (text: string) => (stdout += text))
    child.stderr?.setEncoding('utf8').on('data', (text: string) => {
      stderr += text
      // The line naming where it serves: an upstream's URL may come first (a failed start).
      const match = /serving .* at (http:\/\/\S+\/mcp)/.exec(stderr)
      if (match) resolve({ child, url: match[1] as string, stderr: () => stderr, exited })
    })
    void exited.then(({ code }) => reject(new Error(`serve exited with ${code}: ${stderr}${stdout}`)))
  })
}
