// Questions for the person at the terminal: asked on stderr and read from the terminal, even
// when stdin carries data (`put`, a piped config), through /dev/tty. A hidden question (a
// password, a token) echoes nothing of what is typed. Lines that come faster than the questions
// (a pasted answer of several lines) are kept for the next question, not lost. A warm command's
// questions are asked on the terminal of the CLI process that sent it (warm/remote-prompt.ts).

import { openSync } from 'node:fs'
import { createInterface } from 'node:readline/promises'
import { Writable } from 'node:stream'
import { ReadStream } from 'node:tty'
import type { Io, TerminalPrompt } from './io.js'

export type { TerminalPrompt } from './io.js'

/** A prompt on the controlling terminal, or undefined when there is none (stderr not a TTY, no /dev/tty). */
export function openTerminalPrompt(io: Io): TerminalPrompt | undefined {
  if (!io.stderrIsTTY) return undefined
  if (io.openPrompt !== undefined) return io.openPrompt(io.signal)
  let input: NodeJS.ReadableStream
  let owned: ReadStream | undefined
  if ((io.stdin as NodeJS.ReadStream).isTTY) input = io.stdin
  else {
    try {
      owned = new ReadStream(openSync('/dev/tty', 'r'))
      input = owned
    } catch {
      return undefined
    }
  }
  let muted = false
  // readline echoes what is typed through its output: muted, nothing of a hidden answer shows.
  const output = new Writable({
    write(chunk, _encoding, callback) {
      if (!muted) io.stderr.write(chunk)
      callback()
    },
  })
  Object.assign(output, { isTTY: true, columns: (io.stderr as { columns?: number }).columns ?? 80 })
  let choices: readonly string[] = []
  const lines = createInterface({
    input,
    output,
    terminal: true,
    completer: (line: string): [string[], string] => [
      choices.filter((choice) => choice.startsWith(line)),
      line,
    ],
  })
  // readline hands a line to a question only while one is asked; one that arrives in between
  // (the rest of a paste, read in the same chunk) would otherwise go nowhere.
  const early: string[] = []
  lines.on('line', (line) => early.push(line))
  return {
    async ask(question, options = {}) {
      // Typed ahead: visible already, and never taken for a hidden answer.
      if (options.hidden === true) early.length = 0
      else if (early.length > 0) return early.shift() as string
      muted = false
      choices = options.hidden === true ? [] : (options.choices ?? [])
      const answer = lines.question(question, { signal: io.signal })
      // The question is written by now; from here on the typing is hidden.
      muted = options.hidden === true
      try {
        return await answer
      } catch (error) {
        // Given up (Ctrl-C, --input-timeout): what comes next starts on a line of its own.
        if (!muted) io.stderr.write('\n')
        throw error
      } finally {
        if (muted) io.stderr.write('\n')
        muted = false
        choices = []
      }
    },
    close() {
      lines.close()
      owned?.destroy()
    },
  }
}
