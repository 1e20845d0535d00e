// `mcp-kit ui -- cmd …`: the server's own start-up is most of the time to the first tools list,
// so bin.js starts it before the CLI's modules have loaded, and the workspace's first connection
// adopts that process when it asks to spawn the same command line with the same environment and
// directory. Any other request (flags that change the environment, an npx prefix, a second start
// after a probe) spawns as usual and the early process is ended; one never adopted ends with us.

import { type ChildProcess, spawn as nodeSpawn } from 'node:child_process'
import { basename } from 'node:path'

type Spawn = typeof nodeSpawn

interface Early {
  command: string
  args: readonly string[]
  cwd: string
  env: Record<string, string>
  child: ChildProcess
  /** What the process did before it was adopted, replayed to the adopter's listeners. */
  happened: Array<[event: 'spawn' | 'error' | 'exit', ...unknown[]]>
}

let early: Early | undefined
/** Set once the workspace has spawned (or adopted): from then on nothing starts early. */
let settled = false

function endEarly(): void {
  const child = early?.child
  early = undefined
  if (child?.pid === undefined || child.exitCode !== null || child.signalCode !== null) return
  try {
    // Its own process group, as the client spawns servers: the whole tree goes.
    process.kill(process.platform === 'win32' ? child.pid : -child.pid, 'SIGKILL')
  } catch {
    // already gone
  }
}

/**
 * A command line plain enough to start before the CLI has read it (no profiles code is loaded
 * yet): a program of ordinary path characters, not an option, and arguments without control
 * characters. Everything this takes, the CLI's own check (@mcp-kit/profiles'
 * parseCommandReference) takes too; anything else waits for the CLI.
 */
export function plainCommandLine(
  command: readonly string[],
): { command: string; args: string[] } | undefined {
  const [program, ...args] = command
  if (program === undefined || !/^[A-Za-z0-9_@%+=:,./-]+$/.test(program) || program.startsWith('-'))
    return undefined
  if (command.length > 256 || command.join('').length > 16 * 1024) return undefined
  if (args.some((arg) => /[\u0000-\u001f\u007f]/.test(arg))) return undefined
  return { command: program, args }
}

/**
 * Starts a server's command line (the words after `--`) at once, with the environment and
 * directory the workspace would give it. A command line the CLI would refuse never runs. True
 * when it started.
 */
export async function launchEarly(command: readonly string[]): Promise<boolean> {
  const server = plainCommandLine(command)
  if (server === undefined || /^npx(\.cmd)?$/i.test(basename(server.command))) return false
  const { buildEnvironment } = await import('@mcp-kit/client/internal')
  if (settled) return false
  const { env } = buildEnvironment({ parent: process.env, passEnv: [], set: {} })
  const cwd = process.cwd()
  let child: ChildProcess
  try {
    child = nodeSpawn(server.command, server.args, {
      env,
      cwd,
      stdio: ['pipe', 'pipe', 'pipe'],
      shell: false,
      detached: process.platform !== 'win32',
      windowsHide: true,
    })
  } catch {
    return false // the workspace's own spawn fails the same way and explains it
  }
  const started: Early = { command: server.command, args: server.args, cwd, env, child, happened: [] }
  child.once('spawn', () => started.happened.push(['spawn']))
  child.once('error', (error) => started.happened.push(['error', error]))
  child.once('exit', (code, signal) => started.happened.push(['exit', code, signal]))
  early = started
  process.once('exit', endEarly)
  return true
}

function sameRecord(a: Record<string, string>, b: Record<string, string | undefined>): boolean {
  const keys = Object.keys(a)
  return (
    keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && a[key] === b[key])
  )
}

/**
 * The spawn the workspace's connections use: the first call adopts the early process when it asks
 * for exactly what was started; every other call spawns.
 */
export const adoptingSpawn = ((
  command: string,
  args: readonly string[],
  options: Record<string, unknown>,
) => {
  settled = true
  const candidate = early
  early = undefined
  if (candidate === undefined) return nodeSpawn(command, args, options)
  const env = (options.env ?? {}) as Record<string, string | undefined>
  const same =
    candidate.command === command &&
    candidate.args.length === args.length &&
    candidate.args.every((arg, index) => arg === args[index]) &&
    candidate.cwd === (options.cwd ?? process.cwd()) &&
    sameRecord(candidate.env, env) &&
    options.shell === false
  if (!same) {
    early = candidate
    endEarly()
    return nodeSpawn(command, args, options)
  }
  process.off('exit', endEarly)
  // Events the adopter's listeners missed, in their order, once it has attached them.
  const missed = [...candidate.happened]
  process.nextTick(() => {
    for (const [event, ...values] of missed) candidate.child.emit(event, ...values)
  })
  return candidate.child
}) as unknown as Spawn
