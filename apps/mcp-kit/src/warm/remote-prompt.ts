// Questions for the person at a warm command's terminal. The daemon has none of its own, so a
// question (a server's form field, a URL to visit) goes to the CLI process over the command's
// socket (`q`); the CLI asks it on its terminal and sends back what was typed (`a`). `c` ends the
// prompt there, and cancels a question still being asked (--input-timeout, Ctrl-C).

import type { Socket } from 'node:net'
import type { Writable } from 'node:stream'
import type { Io } from '../base/io.js'
import type { TerminalPrompt } from '../base/terminal-prompt.js'
import { encodeFrame, frameTypes } from './frames.js'

/** A question as the daemon sends it (`q`), and what the CLI sends back (`a`). */
export interface RemoteQuestion {
  id: number
  question: string
  hidden: boolean
}
export type RemoteAnswer = { id: number; answer: string } | { id: number; error: string }

/** The daemon's side: prompts for one command, and the handler of its `a` frames. */
export function remotePrompts(
  socket: Socket,
  stderr: Writable,
): { open: (signal: AbortSignal) => TerminalPrompt; typed: (payload: Buffer) => void } {
  const waiting = new Map<number, { resolve: (answer: string) => void; reject: (error: Error) => void }>()
  let nextId = 0
  socket.once('close', () => {
    for (const { reject } of waiting.values()) reject(new Error('the mcp-kit process went away'))
    waiting.clear()
  })
  const send = (type: string, payload: string) => {
    if (!socket.destroyed) socket.write(encodeFrame(type, payload))
  }
  return {
    open: (signal) => ({
      async ask(question, options = {}) {
        if (signal.aborted) throw signal.reason
        // What the command wrote before the question (the form's title) is shown before it.
        await new Promise<void>((resolve) => stderr.write(Buffer.alloc(0), () => resolve()))
        const id = nextId++
        return new Promise<string>((resolve, reject) => {
          const onAbort = () => {
            waiting.delete(id)
            send(frameTypes.questionsOver, '')
            reject(signal.reason)
          }
          signal.addEventListener('abort', onAbort, { once: true })
          const done = () => {
            waiting.delete(id)
            signal.removeEventListener('abort', onAbort)
          }
          waiting.set(id, {
            resolve: (answer) => {
              done()
              resolve(answer)
            },
            reject: (error) => {
              done()
              reject(error)
            },
          })
          const asked: RemoteQuestion = { id, question, hidden: options.hidden === true }
          send(frameTypes.question, JSON.stringify(asked))
        })
      },
      close: () => send(frameTypes.questionsOver, ''),
    }),
    typed: (payload) => {
      let answer: RemoteAnswer
      try {
        answer = JSON.parse(payload.toString('utf8')) as RemoteAnswer
      } catch {
        return
      }
      const pending = waiting.get(answer.id)
      if (pending === undefined) return
      if ('answer' in answer && typeof answer.answer === 'string') pending.resolve(answer.answer)
      else pending.reject(new Error('error' in answer ? String(answer.error) : 'no answer'))
    },
  }
}

/**
 * The CLI's side: asks the daemon's questions one at a time on this process's terminal, each
 * answer sent back with its question's id. `questionsOver` closes the prompt (and gives up a
 * question still open). The prompt's code loads only when a question comes.
 */
export function terminalAnswers(
  io: Io,
  send: (type: string, payload: string) => void,
): { question: (payload: Buffer) => void; questionsOver: () => void; close: () => void } {
  let prompt: TerminalPrompt | undefined
  let over = new AbortController()
  let queue: Promise<void> = Promise.resolve()
  const close = () => {
    over.abort(new Error('the question was withdrawn'))
    over = new AbortController()
    prompt?.close()
    prompt = undefined
  }
  return {
    question: (payload) => {
      const asked = JSON.parse(payload.toString('utf8')) as RemoteQuestion
      const withdrawn = over.signal
      queue = queue.then(async () => {
        const reply = (answer: { answer: string } | { error: string }) =>
          send(frameTypes.typed, JSON.stringify({ id: asked.id, ...answer }))
        if (withdrawn.aborted) return reply({ error: 'the question was withdrawn' })
        if (prompt === undefined) {
          const { openTerminalPrompt } = await import('../base/terminal-prompt.js')
          prompt = openTerminalPrompt({ ...io, signal: AbortSignal.any([io.signal, withdrawn]) })
        }
        if (prompt === undefined) return reply({ error: 'the command has no terminal to ask on' })
        try {
          reply({ answer: await prompt.ask(asked.question, { hidden: asked.hidden }) })
        } catch (error) {
          reply({ error: (error as Error)?.message ?? String(error) })
        }
      })
    },
    questionsOver: close,
    close,
  }
}
