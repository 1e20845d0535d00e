// The server's questions answered by the person at the page: elicitation forms and URLs, sampling
// requests, roots. A question waits on the workspace's board until a page answers it or its call
// gives up; every open page sees it, the first answer wins.

import { randomUUID } from 'node:crypto'
import { basename, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { ElicitResult, InputHandler, Root } from '@mcp-kit/client'

type CreateMessageResult = Awaited<ReturnType<NonNullable<InputHandler['sample']>>>

import type { EventHub } from './events.js'

export type QuestionKind = 'elicit' | 'sample'

export interface Question {
  id: string
  serverId: string
  kind: QuestionKind
  /** The request that asked, e.g. `tools/call 'trigger-elicitation-request'`. */
  during: string | undefined
  params: Record<string, unknown>
  askedAt: number
}

interface Waiting {
  question: Question
  resolve: (answer: Record<string, unknown>) => void
  reject: (error: unknown) => void
}

export interface QuestionBoard {
  pending(): Question[]
  /** Answers a waiting question; false when there is none of that id (answered, or given up). */
  answer(id: string, answer: Record<string, unknown>): boolean
  /** Refuses a waiting question: the server gets an error with this message. */
  refuse(id: string, message: string): boolean
  /** The roots shared with servers that ask. */
  roots(): Root[]
  setRoots(paths: readonly string[]): Root[]
  /** The input handler of one server's session. */
  handlerFor(serverId: string): InputHandler
}

export function createQuestionBoard(
  hub: EventHub,
  cwd: string,
  initialRoots: readonly string[],
): QuestionBoard {
  const waiting = new Map<string, Waiting>()
  const toRoot = (path: string): Root => {
    const absolute = resolve(cwd, path)
    return { uri: pathToFileURL(absolute).href, name: basename(absolute) || absolute }
  }
  let roots = (initialRoots.length > 0 ? initialRoots : [cwd]).map(toRoot)

  function ask(
    serverId: string,
    kind: QuestionKind,
    params: Record<string, unknown>,
    during: string | undefined,
    signal: AbortSignal,
  ): Promise<Record<string, unknown>> {
    const question: Question = { id: randomUUID(), serverId, kind, during, params, askedAt: Date.now() }
    return new Promise((resolvePromise, reject) => {
      const done = () => {
        waiting.delete(question.id)
        signal.removeEventListener('abort', onAbort)
        hub.publish({ type: 'question-closed', id: question.id })
      }
      const onAbort = () => {
        done()
        reject(signal.reason)
      }
      if (signal.aborted) {
        reject(signal.reason)
        return
      }
      signal.addEventListener('abort', onAbort, { once: true })
      waiting.set(question.id, {
        question,
        resolve: (answer) => {
          done()
          resolvePromise(answer)
        },
        reject: (error) => {
          done()
          reject(error)
        },
      })
      hub.publish({ type: 'question', question })
    })
  }

  return {
    pending: () => [...waiting.values()].map((entry) => entry.question),
    answer(id, answer) {
      const entry = waiting.get(id)
      if (entry === undefined) return false
      entry.resolve(answer)
      return true
    },
    refuse(id, message) {
      const entry = waiting.get(id)
      if (entry === undefined) return false
      entry.reject(new Error(message))
      return true
    },
    roots: () => roots,
    setRoots(paths) {
      roots = paths.map(toRoot)
      hub.publish({ type: 'roots', roots })
      return roots
    },
    handlerFor(serverId) {
      return {
        elicit: async (request, context) =>
          (await ask(
            serverId,
            'elicit',
            request as unknown as Record<string, unknown>,
            context.during,
            context.signal,
          )) as ElicitResult,
        sample: async (request, context) =>
          (await ask(serverId, 'sample', request, context.during, context.signal)) as CreateMessageResult,
        roots: async () => roots,
      }
    },
  }
}
