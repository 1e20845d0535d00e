// A task's questions (SEP-2663 "input_required"): what a handler asks through its context while
// its call runs as a task is written into the task record as `inputRequests`, the task moves to
// `input_required`, and the handler waits until `tasks/update` (on any instance) delivered the
// answers. Each question gets a key never used before in the task, as the spec requires; the
// handler still sees the keys it chose.

import type { ClientCapabilities, InputRequest } from '../context.js'
import { capabilitiesFor, missingCapabilityError } from '../protocol/input-required.js'
import { type InputChannel, missingCapabilities } from '../protocol/request-context.js'
import type { TaskManager } from './task-manager.js'
import { isTerminal } from './task-store.js'

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
    const questions: Record<string, InputRequest> = {}
    for (const [key, request] of Object.entries(requests)) {
      const wireKey = this.#manager.allocateKey(this.#taskId, key)
      wireKeys.set(key, wireKey)
      questions[wireKey] = request
    }
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
