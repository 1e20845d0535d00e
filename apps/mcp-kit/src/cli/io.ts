// What a command talks to: streams, environment, working directory. Commands take an Io
// instead of touching `process` so tests can run them in-process.

import type { Readable, Writable } from 'node:stream'

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
