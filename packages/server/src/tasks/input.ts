// A task's questions (SEP-2663 "input_required"): what a handler asks through its context while
// its call runs as a task is written into the task record as `inputRequests`, the task moves to
// `input_required`, and the handler waits until `tasks/update` (on any instance) delivered the
// answers. Each question gets a key never used before in the task, as the spec requires; the
// handler still sees the keys it chose.

import type { ClientCapabilities, InputRequest } from '../context.js'
import { ServerError } from '../errors.js'
import { capabilitiesFor, missingCapabilityError, validAnswer } from '../protocol/input-required.js'
import { type InputChannel, missingCapabilities } from '../protocol/request-context.js'
import { isTerminal, type TaskRecord, type TaskStore } from './store.js'

/** What the channel needs of the TaskManager running the task. */
export interface TaskHost {
  readonly store: TaskStore
  runsHere(taskId: string): boolean
}

/** The questions of one task (the channel its handler's context asks through once it is a task). */
export class TaskInputChannel implements InputChannel {
  readonly #manager: TaskHost
  readonly #taskId: string
  readonly #capabilities: ClientCapabilities | undefined
  readonly #signal: AbortSignal
  /** Keys used so far (each key is used once in a task's life). */
  readonly #keys = new Set<string>()

  constructor(
    manager: TaskHost,
    taskId: string,
    capabilities: ClientCapabilities | undefined,
    signal: AbortSignal,
  ) {
    this.#manager = manager
    this.#taskId = taskId
    this.#capabilities = capabilities
    this.#signal = signal
  }

  async ask(requests: Record<string, InputRequest>): Promise<Record<string, unknown>> {
    for (const request of Object.values(requests)) {
      const undeclared = missingCapabilities(capabilitiesFor(request), this.#capabilities)
      if (undeclared !== undefined) throw missingCapabilityError(undeclared)
    }
    const wireKeys = new Map<string, string>()
    for (const key of Object.keys(requests)) wireKeys.set(key, this.#allocateKey(key))
    const questions: Record<string, InputRequest> = Object.fromEntries(
      [...wireKeys].map(([key, wireKey]) => [wireKey, requests[key] as InputRequest]),
    )
    await this.#change((current) => ({
      ...current,
      status: 'input_required',
      inputRequests: { ...current.inputRequests, ...questions },
    }))
    const answers = await this.#waitForAnswers([...wireKeys.values()])
    return Object.fromEntries([...wireKeys].map(([key, wireKey]) => [key, answers[wireKey]]))
  }

  /** A key not used before in this task (`key`, else `key-2`, `key-3`, …). */
  #allocateKey(key: string): string {
    let candidate = key
    for (let count = 2; this.#keys.has(candidate); count++) candidate = `${key}-${count}`
    this.#keys.add(candidate)
    return candidate
  }

  /** Resolves with the answers to `keys` once `tasks/update` delivered them all, and takes them. */
  async #waitForAnswers(keys: string[]): Promise<Record<string, unknown>> {
    if (!this.#manager.runsHere(this.#taskId)) throw new ServerError('cancelled', 'the task is over')
    const { store } = this.#manager
    const signal = this.#signal
    const answers = await new Promise<Record<string, unknown>>((resolve, reject) => {
      const done = () => {
        unwatch()
        signal.removeEventListener('abort', aborted)
      }
      const check = (record: TaskRecord) => {
        const delivered = record.inputResponses ?? {}
        if (!keys.every((key) => key in delivered)) return
        done()
        resolve(Object.fromEntries(keys.map((key) => [key, delivered[key]])))
      }
      const aborted = () => {
        done()
        reject(signal.reason ?? new ServerError('cancelled', 'the task was cancelled'))
      }
      const unwatch = store.watch(check, (taskId) => taskId === this.#taskId)
      if (signal.aborted) return aborted()
      signal.addEventListener('abort', aborted, { once: true })
      // Answers may have arrived before the watch was in place.
      store.get(this.#taskId).then((record) => record && check(record), reject)
    })
    await this.#change((current) => {
      const rest = { ...current.inputResponses }
      for (const key of keys) delete rest[key]
      return { ...current, inputResponses: Object.keys(rest).length > 0 ? rest : undefined }
    })
    return answers
  }

  /** Writes a change of the running task (lastUpdatedAt follows); an ended task stays as it is. */
  #change(change: (current: TaskRecord) => TaskRecord): Promise<unknown> {
    return this.#manager.store.update(this.#taskId, (current) =>
      isTerminal(current.status) ? undefined : { ...change(current), lastUpdatedAt: Date.now() },
    )
  }
}

/**
 * A task record after `tasks/update` delivered `responses` (what `next` holds; undefined: no
 * change): answers to outstanding questions move from `inputRequests` to `inputResponses`, other
 * keys are ignored (spec: unknown or already answered), and the task is `working` again once no
 * question is left. An answer not shaped like one (`invalid`) changes nothing.
 */
export function takeAnswers(
  current: TaskRecord,
  responses: Record<string, unknown>,
  now: number,
): { next?: TaskRecord; invalid?: string } {
  if (isTerminal(current.status)) return {}
  const pending = { ...current.inputRequests }
  // Entries, not assignments: a key like `__proto__` stays a key.
  const accepted: Array<[string, unknown]> = []
  for (const [key, answer] of Object.entries(responses)) {
    // Own keys only: `constructor` or `__proto__` from a client are not questions.
    const request = Object.hasOwn(pending, key) ? pending[key] : undefined
    if (request === undefined) continue
    if (!validAnswer(request.method, answer)) {
      return { invalid: `inputResponses['${key}'] is not a valid answer to ${request.method}` }
    }
    accepted.push([key, answer])
    delete pending[key]
  }
  if (accepted.length === 0) return {}
  const waiting = Object.keys(pending).length > 0
  return {
    next: {
      ...current,
      status: waiting ? 'input_required' : 'working',
      inputRequests: waiting ? pending : undefined,
      inputResponses: { ...current.inputResponses, ...Object.fromEntries(accepted) },
      lastUpdatedAt: now,
    },
  }
}
