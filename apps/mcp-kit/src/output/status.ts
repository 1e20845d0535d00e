// A one-line status on stderr while connecting and while long calls run — only on a TTY,
// never with --quiet, and always cleared before anything else is written. Its text carries
// server progress messages, so it is sanitized and clipped to the terminal's width.

import type { Io } from '../base/io.js'
import { clip } from './sanitize.js'

export interface Status {
  update(text: string): void
  clear(): void
}

const silent: Status = { update() {}, clear() {} }

/** The streams a status line is shown on now: whoever writes there next clears it first. */
const shownOn = new WeakSet<object>()

/**
 * Clears the status line on stderr, if one is shown: for what is written to stderr outside the
 * command's own flow (a login's "opening a browser", a server's question).
 */
export function clearStatus(io: Io): void {
  if (!shownOn.has(io.stderr)) return
  io.stderr.write('\r\u001b[2K')
  shownOn.delete(io.stderr)
}

export function createStatus(io: Io, quiet: boolean | undefined): Status {
  if (!io.stderrIsTTY || quiet) return silent
  const columns = () => Math.max(20, ((io.stderr as { columns?: number }).columns ?? 80) - 1)
  return {
    update(text) {
      io.stderr.write(`\r\u001b[2K${clip(text, columns())}`)
      shownOn.add(io.stderr)
    },
    clear() {
      clearStatus(io)
    },
  }
}

/** "task working: Gathering sources…" from the state of a task a call became. */
export function describeTask(task: { status: string; statusMessage?: string }): string {
  const status = `task ${task.status.replace('_', ' ')}`
  return task.statusMessage ? `${status}: ${task.statusMessage}` : status
}

/** "3/10 step 3 of 10" from a progress notification. */
export function describeProgress(progress: { progress: number; total?: number; message?: string }): string {
  const amount =
    progress.total === undefined ? String(progress.progress) : `${progress.progress}/${progress.total}`
  return progress.message ? `${amount} ${progress.message}` : amount
}
