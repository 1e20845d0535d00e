// A task's questions (SEP-2663 "input_required"): what a handler asks through its context while
// its call runs as a task is written into the task record as `inputRequests`, the task moves to
// `input_required`, and the handler waits until `tasks/update` (on any instance) delivered the
// answers. Each question gets a key never used before in the task, as the spec requires; the
// handler still sees the keys it chose.

import type { ClientCapabilities, InputRequest } from '../context.js'
import { capabilitiesFor, missingCapabilityError, validAnswer } from '../protocol/input-required.js'
import { type InputChannel, missingCapabilities } from '../protocol/request-context.js'
import type { TaskManager } from './task-manager.js'
import { isTerminal, type TaskRecord } from './task-store.js'

export class TaskInputChannel implements InputChannel {
  readonly #manager: TaskManager
  readonly #taskId: string
  readonly #capabilities: ClientCapabilities | undefined
  readonly #signal: AbortSignal

  constructor(
    manager: TaskManager,
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
    for (const key of Object.keys(requests)) wireKeys.set(key, this.#manager.allocateKey(this.#taskId, key))
    const questions: Record<string, InputRequest> = Object.fromEntries(
      [...wireKeys].map(([key, wireKey]) => [wireKey, requests[key] as InputRequest]),
    )
    await this.#manager.store.update(this.#taskId, (current) =>
      isTerminal(current.status)
        ? undefined
        : {
            ...current,
            status: 'input_required',
            inputRequests: { ...current.inputRequests, ...questions },
            lastUpdatedAt: Date.now(),
          },
    )
    const answers = await this.#manager.waitForAnswers(this.#taskId, [...wireKeys.values()], this.#signal)
    return Object.fromEntries([...wireKeys].map(([key, wireKey]) => [key, answers[wireKey]]))
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
