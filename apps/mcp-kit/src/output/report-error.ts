// The top-level catch's words: one message per failure, and with --verbose its causes, one line
// each. Never a stack trace: a failure we expect (a server that crashed, a port nobody listens
// on) is described by its messages, and the frames of an SDK or undici say nothing to a user.

import { isKitError } from '../base/errors.js'
import { exitCodeFor, exitCodes } from '../base/exit-codes.js'
import type { Io } from '../base/io.js'
import { diagnostics, writeDiagnostic } from './diagnostics.js'

/** The message of an error-like value; an AggregateError's messages when it has none itself. */
function messageOf(value: unknown): string {
  if (value instanceof AggregateError && value.message === '')
    return value.errors.map(messageOf).filter(Boolean).join('; ')
  if (value instanceof Error) return value.message || value.name
  return String(value)
}

/** The messages of `error`'s causes, outermost first, without repeats (wrappers often restate). */
export function causeMessages(error: unknown): string[] {
  const seen = new Set<unknown>([error])
  const messages: string[] = []
  let cause = (error as { cause?: unknown } | null)?.cause
  while (cause !== undefined && cause !== null && !seen.has(cause) && messages.length < 8) {
    seen.add(cause)
    const message = messageOf(cause)
      .replace(/\s*\n\s*/g, ' ')
      .trim()
    if (message !== '' && !messages.includes(message) && message !== messageOf(error)) messages.push(message)
    cause = (cause as { cause?: unknown }).cause
  }
  return messages
}

/** Writes what went wrong to stderr and returns the exit code for it. */
export function reportError(error: unknown, io: Io, verbose: boolean): number {
  if (isKitError(error)) writeDiagnostic(io, error.message)
  else writeDiagnostic(io, `internal error: ${messageOf(error)}`)
  const say = diagnostics(io, { verbose })
  for (const message of causeMessages(error)) say.verbose(`cause: ${message}`)
  return isKitError(error) ? exitCodeFor(error.code) : exitCodes.failed
}
