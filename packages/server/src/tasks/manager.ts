// Runs tasks for one server instance: records in the TaskStore, and beside them what only this
// process can hold (the work's AbortController, the record as last seen, an end the store has not
// taken yet); settles a task when its work ends, and answers the task methods for tasks run
// anywhere. A task whose owner stopped renewing its lease is failed by whoever reads it next, so
// clients never poll forever; an end the store could not take is tried again until it does.

import { randomUUID } from 'node:crypto'
import { rpcCodes } from '@mcp-kit/core'
import { ServerError } from '../errors.js'
import { failureOf } from '../protocol/failure.js'
import { invalidParams } from '../protocol/rpc.js'
import { endTask, storeEnd } from './ending.js'
import { takeAnswers } from './input.js'
import type { TaskOptions } from './options.js'
import { isTerminal, memoryTaskStore, type TaskError, type TaskRecord, type TaskStore } from './store.js'
import { restoreRecords, startUpkeep } from './upkeep.js'
import { taskNotFound } from './wire.js'

interface LocalTask {
  controller: AbortController
  /** The record as last seen (written back if the store loses it). */
  record: TaskRecord
  /** The end of the work, once it ended, until the store took it. */
  ending?: Partial<TaskRecord>
  message?: string
  writing?: Promise<void>
}

const shutDown: TaskError = {
  code: rpcCodes.internalError,
  message: 'the server stopped before the task finished',
}
const ownerGone: TaskError = {
  code: rpcCodes.internalError,
  message: 'the server instance running the task went away',
}

export class TaskManager {
  readonly store: TaskStore
  readonly instanceId: string
  /** Tasks lent to tools that do not declare them (TaskOptions.afterMs). */
  readonly afterMs: number | undefined
  readonly #keepMs: number
  readonly #pollIntervalMs: number
  readonly #leaseMs: number
  readonly #maxRunning: number
  readonly #maxRunningPerPrincipal: number
  readonly #report: ((error: Error) => void) | undefined
  readonly #local = new Map<string, LocalTask>()
  /** Called when the last task running here ended (shutdown waits for it). */
  readonly #idle = new Set<() => void>()
  readonly #unwatch: () => void
  readonly #stopRestoring: () => void
  #stopUpkeep: (() => void) | undefined
  /** When the store last came back after being away (epoch ms). */
  #reconnectedAt = Number.NEGATIVE_INFINITY
  #closed = false

  constructor(options: TaskOptions = {}, report?: (error: Error) => void) {
    this.store = options.store ?? memoryTaskStore()
    this.instanceId = options.instanceId ?? randomUUID()
    this.afterMs = options.afterMs
    this.#keepMs = options.keepMs ?? 3_600_000
    this.#pollIntervalMs = options.pollIntervalMs ?? 1000
    this.#leaseMs = options.leaseMs ?? 30_000
    this.#maxRunning = options.maxRunning ?? 1000
    this.#maxRunningPerPrincipal =
      options.maxRunningPerPrincipal ?? Math.max(1, Math.floor(this.#maxRunning / 4))
    this.#report = report
    this.#unwatch = this.store.watch(
      (record) => {
        const local = this.#local.get(record.taskId)
        if (local === undefined) return
        if (record.lastUpdatedAt >= local.record.lastUpdatedAt) local.record = record
        if (record.status === 'cancelled')
          local.controller.abort(new ServerError('cancelled', 'the task was cancelled'))
      },
      (taskId) => this.#local.has(taskId),
    )
    this.#stopRestoring =
      this.store.onReconnect?.(() => {
        this.#reconnectedAt = Date.now()
        const running = [...this.#local.values()].map((local) => local.record)
        void restoreRecords(this.store, this.#leaseMs, running, this.#report)
      }) ?? (() => {})
  }

  /**
   * Creates a task run by this instance; resolves once any instance can read it (spec: durable
   * create). `controller` is aborted when the task is cancelled; `settle` hands over its work.
   */
  async create(
    request: { method: string; name: string; principal: string | undefined },
    controller: AbortController,
  ): Promise<TaskRecord> {
    const now = Date.now()
    const record: TaskRecord = {
      taskId: randomUUID(),
      status: 'working',
      createdAt: now,
      lastUpdatedAt: now,
      expiresAt: null,
      keepMs: this.#keepMs,
      pollIntervalMs: this.#pollIntervalMs,
      owner: this.instanceId,
      leaseExpiresAt: now + this.#leaseMs,
      method: request.method,
      name: request.name,
    }
    if (request.principal !== undefined) record.principal = request.principal
    this.#local.set(record.taskId, { controller, record })
    try {
      await this.store.create(record)
    } catch (error) {
      this.#local.delete(record.taskId)
      throw error
    }
    this.#stopUpkeep ??= startUpkeep(this.store, this.#leaseMs, () => this.#local.keys(), this.#report)
    return record
  }

  /** Records the end of the task's work: its result, its failure, or its cancellation. */
  settle(taskId: string, work: Promise<Record<string, unknown>>): void {
    const controller = this.#local.get(taskId)?.controller
    work.then(
      (result) => this.#finish(taskId, { status: 'completed', result }),
      (error: unknown) => {
        if (controller?.signal.aborted !== false) return this.#finish(taskId, { status: 'cancelled' })
        const failure = failureOf(error, 'modern', this.#report)
        const taskError: TaskError = { code: failure.code, message: failure.message }
        if (failure.data !== undefined) taskError.data = failure.data
        return this.#finish(taskId, { status: 'failed', error: taskError, statusMessage: failure.message })
      },
    )
  }

  /** Sets the task's status message (progress); writes are coalesced, the latest wins. */
  statusMessage(taskId: string, message: string): Promise<void> {
    const local = this.#local.get(taskId)
    if (local === undefined) return Promise.resolve()
    local.message = message
    local.writing ??= (async () => {
      try {
        while (local.message !== undefined) {
          const text = local.message
          local.message = undefined
          await this.#change(taskId, (current) => ({ ...current, statusMessage: text }))
        }
      } catch (error) {
        // Progress is best effort: a store that is away must not fail the work.
        this.#report?.(new Error(`cannot store the status of task ${taskId}: ${(error as Error).message}`))
      } finally {
        local.writing = undefined
      }
    })()
    return local.writing
  }

  /** Why this instance cannot start another task for `principal` now, or undefined when it can. */
  refusal(principal: string | undefined): string | undefined {
    if (this.#local.size >= this.#maxRunning)
      return `too many tasks running on this server (limit ${this.#maxRunning}); retry later`
    if (principal === undefined || this.#local.size < this.#maxRunningPerPrincipal) return undefined
    let mine = 0
    for (const local of this.#local.values()) if (local.record.principal === principal) mine += 1
    return mine >= this.#maxRunningPerPrincipal
      ? `too many tasks running for this caller (limit ${this.#maxRunningPerPrincipal}); retry later`
      : undefined
  }

  /** Whether the task's work runs in this process and has not ended. */
  runsHere(taskId: string): boolean {
    return this.#local.has(taskId)
  }

  /** The task for `tasks/get` (-32602 when unknown or someone else's); fails it if its owner went away. */
  async find(taskId: string, principal: string | undefined): Promise<TaskRecord> {
    const record = await this.store.get(taskId)
    if (record === undefined || (record.principal !== undefined && record.principal !== principal)) {
      throw taskNotFound(taskId)
    }
    // Right after the store came back, a lease may have run out only because its owner could not
    // renew it either: leases are judged again once the owners had a full lease to renew them.
    const now = Date.now()
    const orphaned =
      !isTerminal(record.status) &&
      record.leaseExpiresAt < now &&
      now - this.#reconnectedAt >= this.#leaseMs &&
      !this.#local.has(taskId)
    if (!orphaned) return record
    return (
      (await this.#end(taskId, { status: 'failed', error: ownerGone, statusMessage: ownerGone.message })) ??
      record
    )
  }

  /** `tasks/update`: takes answers to outstanding questions; other keys are ignored (spec). */
  async deliver(
    taskId: string,
    responses: Record<string, unknown>,
    principal: string | undefined,
  ): Promise<void> {
    await this.find(taskId, principal)
    let invalid: string | undefined
    await this.store.update(taskId, (current) => {
      const taken = takeAnswers(current, responses, Date.now())
      invalid = taken.invalid
      return taken.next
    })
    if (invalid !== undefined) throw invalidParams(invalid)
  }

  /** `tasks/cancel`: the task is cancelled at once and its work aborted (here, or by its owner). */
  async cancel(taskId: string, principal: string | undefined): Promise<void> {
    await this.find(taskId, principal)
    await this.#end(taskId, { status: 'cancelled', statusMessage: 'cancelled by the client' })
    this.#local.get(taskId)?.controller.abort(new ServerError('cancelled', 'the task was cancelled'))
  }

  /**
   * Shutdown: tasks running here get up to `graceMs` to finish; those still running then fail
   * (nobody else can finish them) and their work is aborted. The timers stop.
   */
  async close(graceMs = 0): Promise<void> {
    if (graceMs > 0 && this.#local.size > 0) {
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer)
          this.#idle.delete(done)
          resolve()
        }
        const timer = setTimeout(done, graceMs)
        this.#idle.add(done)
      })
    }
    this.#closed = true
    this.#stopUpkeep?.()
    this.#stopUpkeep = undefined
    const running = [...this.#local.keys()]
    await Promise.allSettled(
      [...this.#local.values()].map(({ record, ending }) =>
        // Work that ended but whose end the store has not taken yet gets one last try.
        ending === undefined
          ? this.#end(record.taskId, { status: 'failed', error: shutDown, statusMessage: shutDown.message })
          : storeEnd(this.store, record, ending),
      ),
    )
    for (const taskId of running)
      this.#local.get(taskId)?.controller.abort(new ServerError('cancelled', 'shutdown'))
    this.#local.clear()
    this.#unwatch()
    this.#stopRestoring()
  }

  /** Writes a non-terminal record's change (lastUpdatedAt follows); terminal records stay as they are. */
  #change(taskId: string, change: (current: TaskRecord) => TaskRecord): Promise<TaskRecord | undefined> {
    return this.store.update(taskId, (current) =>
      isTerminal(current.status) ? undefined : { ...change(current), lastUpdatedAt: Date.now() },
    )
  }

  /** Ends a task unless it already ended; resolves to the stored record. */
  #end(taskId: string, fields: Partial<TaskRecord>): Promise<TaskRecord | undefined> {
    return endTask(this.store, taskId, fields)
  }

  /**
   * Stores the end of the task's work. Until the store takes it (it may be away), the task stays
   * this instance's: its lease renewed, its record written back, the write tried again.
   */
  async #finish(taskId: string, fields: Partial<TaskRecord>): Promise<void> {
    const local = this.#local.get(taskId)
    if (local === undefined) return
    local.ending = fields
    for (let attempt = 1; !this.#closed; attempt++) {
      try {
        await storeEnd(this.store, local.record, fields)
        break
      } catch (error) {
        if (attempt === 1)
          this.#report?.(
            new Error(
              `cannot store the end of task ${taskId} yet, trying again: ${(error as Error).message}`,
            ),
          )
        await new Promise((resolve) => setTimeout(resolve, Math.min(250 * 2 ** attempt, 2000)).unref())
      }
    }
    if (this.#local.get(taskId) === local) this.#local.delete(taskId)
    if (this.#local.size === 0) for (const idle of [...this.#idle]) idle()
  }
}
