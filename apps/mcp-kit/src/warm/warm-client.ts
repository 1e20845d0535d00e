// The CLI side of warm sessions: a command route.ts sends warm is run by the user's daemon (started
// here when there is none), so this process only relays — its arguments, environment, working
// directory and terminal flags go over the socket; stdout and stderr come back; stdin goes over
// only when the command reads it; the server's questions are asked on this terminal
// (remote-prompt.ts); Ctrl-C is passed on (a second one exits at once). It loads
// nothing of the CLI proper: this path is what a warm call costs.

import { statSync } from 'node:fs'
import { connect as netConnect, type Socket } from 'node:net'
import { fileURLToPath } from 'node:url'
import { isKitError } from '../base/errors.js'
import { exitCodeFor, exitCodes } from '../base/exit-codes.js'
import type { Io } from '../base/io.js'
import { createFrameReader, encodeFrame, frameTypes } from './frames.js'
import { terminalAnswers } from './remote-prompt.js'
import { checkSocket, type RuntimePaths, runtimePaths } from './runtime-directory.js'

const binPath = fileURLToPath(new URL('../bin.js', import.meta.url))
/** How long a starting daemon may take to listen. */
const daemonStartMs = 15_000

/** What a connection asks the daemon for. */
export type DaemonHello =
  | {
      kind: 'run'
      build: string
      argv: string[]
      cwd: string
      env: Record<string, string | undefined>
      stdoutIsTTY: boolean
      stderrIsTTY: boolean
      columns: number | undefined
      /** Run it only if this profile reference keeps its server alive (else the daemon answers `n`). */
      ifKeepAlive?: string
    }
  | { kind: 'list' }
  | { kind: 'stop'; target?: string; all?: boolean }

/** Which build this is: a daemon runs commands only for CLIs of its own build. */
export function buildIdentity(): string {
  return `${binPath}@${statSync(binPath).mtimeMs}`
}

function connectTo(path: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = netConnect(path)
    socket.once('connect', () => {
      socket.off('error', reject)
      resolve(socket)
    })
    socket.once('error', reject)
  })
}

function noDaemon(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code
  return code === 'ENOENT' || code === 'ECONNREFUSED'
}

/** Starts the daemon and waits until it listens (it says so on file descriptor 3). */
async function startDaemon(env: Readonly<Record<string, string | undefined>>): Promise<void> {
  const { spawn } = await import('node:child_process')
  const child = spawn(process.execPath, [binPath, '__daemon'], {
    // Its own session: the terminal's Ctrl-C and hang-up are not for it.
    detached: true,
    stdio: ['ignore', 'ignore', 'ignore', 'pipe'],
    cwd: '/',
    env: env as NodeJS.ProcessEnv,
  })
  const said = await new Promise<string>((resolve) => {
    let text = ''
    const pipe = child.stdio[3] as NodeJS.ReadableStream
    const timer = setTimeout(() => resolve('error: it did not start listening in time'), daemonStartMs)
    pipe.setEncoding('utf8')
    pipe.on('data', (chunk: string) => {
      text += chunk
    })
    pipe.on('end', () => {
      clearTimeout(timer)
      resolve(text.trim() || `error: it exited (${child.exitCode ?? child.signalCode ?? 'no word'})`)
    })
    child.once('error', (error) => {
      clearTimeout(timer)
      resolve(`error: ${error.message}`)
    })
  })
  ;(child.stdio[3] as Socket | null)?.destroy()
  child.unref()
  if (said !== 'ready') {
    const { CliError } = await import('../base/errors.js')
    throw new CliError(
      'connect_failed',
      `the warm-session daemon did not start: ${said.replace(/^error: /, '')}`,
    )
  }
}

/** A connection to the daemon; with `start`, the daemon is started when none answers. */
async function openDaemon(paths: RuntimePaths, env: Io['env'], start: boolean): Promise<Socket | undefined> {
  checkSocket(paths.socket)
  try {
    return await connectTo(paths.socket)
  } catch (error) {
    if (!noDaemon(error)) throw error
    if (!start) return undefined
  }
  await startDaemon(env)
  checkSocket(paths.socket)
  return connectTo(paths.socket)
}

function say(io: Io, message: string): void {
  io.stderr.write(`mcp-kit: ${message}\n`)
}

type Outcome = number | 'other-build' | 'not-warm'

/** One command through the daemon: the exit code, 'other-build' (a daemon of another build) or 'not-warm'. */
function converse(socket: Socket, hello: DaemonHello, io: Io): Promise<Outcome> {
  return new Promise((resolve) => {
    let finished = false
    let readingStdin = false
    const answers = terminalAnswers(io, (type, payload) => {
      if (!socket.destroyed) socket.write(encodeFrame(type, payload))
    })
    const onAbort = () => {
      const reason = String((io.signal.reason as Error)?.message ?? '')
      if (!socket.destroyed)
        socket.write(encodeFrame(frameTypes.signal, reason.includes('SIGTERM') ? 'SIGTERM' : 'SIGINT'))
    }
    const finish = (result: Outcome) => {
      if (finished) return
      finished = true
      io.signal.removeEventListener('abort', onAbort)
      answers.close()
      if (readingStdin) {
        io.stdin.pause()
        ;(io.stdin as { destroy?: () => void }).destroy?.()
      }
      socket.destroy()
      resolve(result)
    }
    const forwardStdin = () => {
      if (readingStdin) return
      readingStdin = true
      io.stdin.on('data', (chunk: Buffer | string) => {
        const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk
        if (!socket.write(encodeFrame(frameTypes.stdin, bytes))) {
          io.stdin.pause()
          socket.once('drain', () => io.stdin.resume())
        }
      })
      const end = () => {
        if (!socket.destroyed) socket.write(encodeFrame(frameTypes.stdinEnd))
      }
      io.stdin.once('end', end)
      io.stdin.once('error', end)
    }
    const read = createFrameReader((type, payload) => {
      switch (type) {
        case frameTypes.stdout:
          if (!io.stdout.write(payload)) {
            socket.pause()
            io.stdout.once('drain', () => socket.resume())
          }
          return
        case frameTypes.stderr:
          io.stderr.write(payload)
          return
        case frameTypes.readStdin:
          forwardStdin()
          return
        case frameTypes.question:
          answers.question(payload)
          return
        case frameTypes.questionsOver:
          answers.questionsOver()
          return
        case frameTypes.exit:
          finish(Number((JSON.parse(payload.toString('utf8')) as { code: number }).code))
          return
        case frameTypes.otherBuild:
          finish('other-build')
          return
        case frameTypes.notWarm:
          finish('not-warm')
          return
      }
    })
    socket.on('data', (chunk: Buffer) => {
      try {
        read(chunk)
      } catch (error) {
        say(io, `the warm-session daemon sent garbage: ${(error as Error).message}`)
        finish(exitCodes.connect)
      }
    })
    socket.on('error', () => {})
    socket.on('close', () => {
      if (finished) return
      if (io.signal.aborted) return finish(exitCodes.interrupted)
      say(io, 'the warm-session daemon went away before the command finished')
      finish(exitCodes.connect)
    })
    io.signal.addEventListener('abort', onAbort, { once: true })
    socket.write(encodeFrame(frameTypes.hello, JSON.stringify(hello)))
  })
}

/**
 * Offers a command on a profile reference to a running daemon, which runs it if the profile keeps
 * its server alive (the rule of session/warm-choice.ts). 'not-warm' when it does not; 'no-daemon'
 * when no daemon of this build answers (the caller applies the rule itself, warm/route.ts).
 */
export async function offerWarm(
  argv: readonly string[],
  io: Io,
  reference: string,
): Promise<number | 'not-warm' | 'no-daemon'> {
  let socket: Socket | undefined
  try {
    const paths = runtimePaths(io.env, { create: false })
    socket = paths === undefined ? undefined : await openDaemon(paths, io.env, false)
  } catch {
    // An unusable runtime directory: runWarm reports it, should the command need the daemon.
    return 'no-daemon'
  }
  if (socket === undefined) return 'no-daemon'
  const outcome = await converse(socket, { ...runRequest(argv, io), ifKeepAlive: reference }, io)
  return outcome === 'other-build' ? 'no-daemon' : outcome
}

function runRequest(argv: readonly string[], io: Io): DaemonHello & { kind: 'run' } {
  return {
    kind: 'run',
    build: buildIdentity(),
    argv: [...argv],
    cwd: io.cwd,
    env: { ...io.env },
    stdoutIsTTY: io.stdoutIsTTY,
    stderrIsTTY: io.stderrIsTTY,
    columns: (io.stderr as { columns?: number }).columns,
  }
}

/** Runs a command in the daemon and returns its exit code. */
export async function runWarm(argv: readonly string[], io: Io): Promise<number> {
  try {
    const paths = runtimePaths(io.env)
    const hello = runRequest(argv, io)
    // A daemon of another build retires when asked; the second try reaches a new one.
    for (let attempt = 1; ; attempt++) {
      const socket = (await openDaemon(paths, io.env, true)) as Socket
      const outcome = await converse(socket, hello, io)
      if (typeof outcome === 'number') return outcome
      if (attempt === 2) {
        say(io, 'the warm-session daemon belongs to another mcp-kit build and would not make room')
        return exitCodes.connect
      }
    }
  } catch (error) {
    if (isKitError(error)) {
      say(io, error.message)
      return exitCodeFor(error.code)
    }
    say(io, `cannot reach the warm-session daemon: ${(error as Error).message}`)
    return exitCodes.connect
  }
}

/** Asks the daemon for its sessions or to stop some; undefined when no daemon runs. */
export async function askDaemon(hello: DaemonHello, env: Io['env']): Promise<unknown | undefined> {
  const paths = runtimePaths(env, { create: false })
  const socket = paths === undefined ? undefined : await openDaemon(paths, env, false)
  if (socket === undefined) return undefined
  return new Promise((resolve, reject) => {
    let answer: unknown
    const read = createFrameReader((type, payload) => {
      if (type === frameTypes.answer) answer = JSON.parse(payload.toString('utf8'))
    })
    socket.on('data', (chunk: Buffer) => read(chunk))
    socket.on('error', reject)
    // The daemon answers, then closes; after `stop --all` it is on its way out.
    socket.on('close', () =>
      answer === undefined ? reject(new Error('the daemon closed without answering')) : resolve(answer),
    )
    socket.write(encodeFrame(frameTypes.hello, JSON.stringify(hello)))
  })
}
