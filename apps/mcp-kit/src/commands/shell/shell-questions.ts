// A server's questions asked through `mcp-kit shell`'s own line editor (it already reads the
// terminal): one question at a time, Tab offers the choices of the field being asked (a form's
// enum values, true/false), and what a question listens to goes once it is answered.

import type { Interface } from 'node:readline'

export interface ShellQuestions {
  ask(question: string, signal: AbortSignal, choices?: readonly string[]): Promise<string>
  /** Tab while a question is asked: its choices that start with `line`; undefined otherwise. */
  complete(line: string): [string[], string] | undefined
}

export function shellQuestions(lines: () => Interface | undefined): ShellQuestions {
  let asking: readonly string[] | undefined
  return {
    ask(question, signal, choices = []) {
      return new Promise<string>((resolve, reject) => {
        if (signal.aborted) return reject(signal.reason)
        // Removed with the answer: a form asks a question per field, and listeners left on a
        // call's signal past ten made Node warn (MaxListenersExceededWarning).
        const onAbort = () => {
          asking = undefined
          reject(signal.reason)
        }
        signal.addEventListener('abort', onAbort, { once: true })
        asking = choices
        lines()?.question(question, { signal }, (answer) => {
          asking = undefined
          signal.removeEventListener('abort', onAbort)
          resolve(answer)
        })
      })
    },
    complete(line) {
      if (asking === undefined) return undefined
      return [asking.filter((choice) => choice.startsWith(line)), line]
    },
  }
}
