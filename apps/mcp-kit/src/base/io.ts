// What a command talks to: streams, environment, working directory. Commands take an Io
// instead of touching `process` so tests can run them in-process.

import type { Readable, Writable } from 'node:stream'
import type { ConnectOptions, Session } from '@mcp-kit/client'
import type { ResolvedReference } from '@mcp-kit/profiles'

/** What a command asks of the warm-session daemon: the server it would connect to, and for how long to keep it. */
export interface WarmRequest {
  resolved: ResolvedReference
  /** The command's connect options, as it would connect on its own. */
  options: ConnectOptions
  keepAliveMs: number
  /** Tool calls the command lets the server have at once (put's --concurrency, a profile's `concurrency`, else 1). */
  concurrency: number
}

/** The daemon's warm sessions, as one command sees them. */
export interface WarmSessions {
  /** A session on the warm server for this launch (started if there is none), for this command only. */
  open(request: WarmRequest): Promise<Session>
}

/** Questions for the person at the terminal (cli/terminal-prompt.ts opens one). */
export interface TerminalPrompt {
  /** `choices`: what Tab offers for the answer (a form field's allowed values). */
  ask(question: string, options?: { hidden?: boolean; choices?: readonly string[] }): Promise<string>
  close(): void
}

export interface Io {
  stdin: Readable
  stdout: Writable
  stderr: Writable
  env: Readonly<Record<string, string | undefined>>
  cwd: string
  /** stderr is an interactive terminal (status lines, prompts). */
  stderrIsTTY: boolean
  /** stdout is an interactive terminal (colour, human layout). */
  stdoutIsTTY: boolean
  /** Aborted on Ctrl-C / SIGTERM. */
  signal: AbortSignal
  /** In the warm-session daemon only: where `--keep-alive` sessions come from. */
  warm?: WarmSessions
  /** In the warm-session daemon only: a prompt on the terminal of the CLI process that sent the command. */
  openPrompt?: (signal: AbortSignal) => TerminalPrompt
}

export function processIo(signal: AbortSignal): Io {
  return {
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    cwd: process.cwd(),
    stderrIsTTY: process.stderr.isTTY === true,
    stdoutIsTTY: process.stdout.isTTY === true,
    signal,
  }
}

/** Colour only on a TTY, and never with NO_COLOR set (https://no-color.org). */
export function useColor(io: Io, stream: 'stdout' | 'stderr'): boolean {
  const tty = stream === 'stdout' ? io.stdoutIsTTY : io.stderrIsTTY
  return tty && (io.env.NO_COLOR === undefined || io.env.NO_COLOR === '') && io.env.TERM !== 'dumb'
}

/** Writes and resolves once the data is handed off (respecting backpressure). */
export function write(stream: Writable, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    if (stream.write(text)) resolve()
    else {
      stream.once('drain', resolve)
      stream.once('error', reject)
    }
  })
}

/** Writes `text` as one line (adding the newline it lacks). */
export function writeLine(stream: Writable, text: string): Promise<void> {
  return write(stream, text.endsWith('\n') ? text : `${text}\n`)
}

/**
 * A writer for many small writes (put's output lines): writes of one tick leave together in one
 * system call, and the caller waits only when the stream is full.
 */
export function createBatchWriter(stream: Writable): (text: string) => Promise<void> | undefined {
  let corked = false
  return (text) => {
    if (!corked) {
      corked = true
      stream.cork()
      process.nextTick(() => {
        corked = false
        stream.uncork()
      })
    }
    if (stream.write(text)) return undefined
    return new Promise((resolve) => stream.once('drain', resolve))
  }
}
