// Following a task to its end, in both eras: `tasks/get` at the server's interval (woken early by its
// notices), its questions answered, a 2025 task's result fetched, cancelled when the caller gives up.

import type { Era } from '@mcp-kit/core'
import { isRecord, rpcCodes } from '@mcp-kit/core'
import type { CallToolResult } from '@modelcontextprotocol/client'
import { ClientError } from '../errors.js'
import { answerInput, type InputHandler } from './input.js'
import { RpcError } from './rpc-error.js'

export const tasksExtension = 'io.modelcontextprotocol/tasks'

export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled'

/** A task as the server describes it (2025 names `ttl`/`pollInterval` mapped to the 2026 ones). */
export interface TaskState {
  taskId: string
  status: TaskStatus
  statusMessage?: string
  createdAt?: string
  lastUpdatedAt?: string
  /** How long the server keeps the task from its creation, in ms; null: no limit. */
  ttlMs?: number | null
  /** How often the server would like to be polled, in ms. */
  pollIntervalMs?: number
}

/** A task's full state (`tasks/get`): its questions, its result once completed, its error once failed. */
export interface TaskDetails extends TaskState {
  inputRequests?: Record<string, unknown>
  result?: CallToolResult
  error?: { code: number; message: string; data?: unknown }
}

const statuses = new Set<string>(['working', 'input_required', 'completed', 'failed', 'cancelled'])
const terminal = new Set<string>(['completed', 'failed', 'cancelled'])
const defaultPollMs = 1000
const minimumPollMs = 50
const maximumPollMs = 30_000

/**
 * The task a `tools/call` result hands over instead of the result, if it is one: 2026-07-28
 * servers do so on their own when the request declared the tasks extension (SEP-2663:
 * `resultType: "task"`), 2025-11-25 servers when the client asked (`task: {}`, required by tools
 * whose `execution.taskSupport` is `required`).
 */
export function createdTask(result: unknown, era: Era): TaskState | undefined {
  if (!isRecord(result)) return undefined
  if (era === 'modern') return result.resultType === 'task' ? taskState(result, 'tools/call') : undefined
  // 2025-11-25: CreateTaskResult is `{ task: Task }`.
  return isRecord(result.task) && !Array.isArray(result.content)
    ? taskState(result.task, 'tools/call')
    : undefined
}

/** Reads a Task (either era's field names) into a TaskDetails; protocol_error when it is not one. */
export function taskState(value: unknown, what: string): TaskDetails {
  if (!isRecord(value) || typeof value.taskId !== 'string' || !statuses.has(String(value.status))) {
    throw new ClientError('protocol_error', `${what}: the server's answer is not a task`)
  }
  const task: TaskDetails = { taskId: value.taskId, status: value.status as TaskStatus }
  if (typeof value.statusMessage === 'string') task.statusMessage = value.statusMessage
  if (typeof value.createdAt === 'string') task.createdAt = value.createdAt
  if (typeof value.lastUpdatedAt === 'string') task.lastUpdatedAt = value.lastUpdatedAt
  const ttl = value.ttlMs ?? value.ttl
  if (typeof ttl === 'number' || ttl === null) task.ttlMs = ttl
  const poll = value.pollIntervalMs ?? value.pollInterval
  if (typeof poll === 'number') task.pollIntervalMs = poll
  if (isRecord(value.inputRequests)) task.inputRequests = value.inputRequests
  if (isRecord(value.result)) {
    const { resultType: _resultType, ...result } = value.result
    task.result = result as CallToolResult
  }
  if (isRecord(value.error)) {
    task.error = {
      code: typeof value.error.code === 'number' ? value.error.code : rpcCodes.internalError,
      message: typeof value.error.message === 'string' ? value.error.message : 'the task failed',
    }
    if (value.error.data !== undefined) task.error.data = value.error.data
  }
  return task
}

/** What the follower needs from the session it runs in. */
export interface TaskLink {
  era: Era
  /** One request with the session's limits; errors already normalized. */
  request(what: string, method: string, params: Record<string, unknown>, timeoutMs?: number): Promise<unknown>
  input: InputHandler | undefined
  /** Asks the server to cancel the task, whatever stopped the caller (best effort). */
  cancel(taskId: string): Promise<void>
  /** Calls `wake` when the server says something about the task; returns a function to stop. */
  notices(taskId: string, wake: () => void): () => void
}

export interface FollowOptions {
  /** The call being followed, for messages (`tools/call 'report'`). */
  what: string
  /** Aborting stops following and cancels the task. */
  signal: AbortSignal
  onTask?: (task: TaskState) => void
}

/** Waits `ms`, or less when woken or aborted. */
function pause(ms: number, signal: AbortSignal, woken: { promise: Promise<void> }): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms)
    function done() {
      clearTimeout(timer)
      signal.removeEventListener('abort', done)
      resolve()
    }
    signal.addEventListener('abort', done, { once: true })
    void woken.promise.then(done)
  })
}

function changed(before: TaskState | undefined, after: TaskState): boolean {
  return (
    before === undefined || before.status !== after.status || before.statusMessage !== after.statusMessage
  )
}

/** Follows a task until it ends; resolves with its result, throws its failure (as an RpcError) or cancellation. */
export async function followTask(
  link: TaskLink,
  created: TaskState,
  options: FollowOptions,
): Promise<CallToolResult> {
  const { what, signal } = options
  const taskId = created.taskId
  let wake = () => {}
  const woken = { promise: Promise.resolve() }
  const rearm = () => {
    woken.promise = new Promise<void>((resolve) => {
      wake = resolve
    })
  }
  rearm()
  const stopNotices = link.notices(taskId, () => wake())
  let last: TaskState | undefined
  const report = (task: TaskState) => {
    if (changed(last, task)) options.onTask?.(task)
    last = task
  }
  const get = async () =>
    taskState(await link.request(`tasks/get '${taskId}'`, 'tasks/get', { taskId }), what)
  try {
    report(created)
    let task: TaskDetails = created
    let finalResult: Promise<unknown> | undefined
    const answered = new Set<string>()
    for (;;) {
      if (signal.aborted) throw signal.reason
      if (terminal.has(task.status) || (task.status === 'input_required' && link.era === 'legacy')) {
        if (link.era === 'modern' || task.status === 'cancelled') return ending(task, what)
        // 2025-11-25: tasks/result gives the result (or the error), and carries the task's
        // questions while it blocks; polling goes on beside it for the status display.
        finalResult ??= link.request(`tasks/result '${taskId}'`, 'tasks/result', { taskId }, 0)
        finalResult.catch(() => {})
        const settled = await Promise.race([finalResult.then(() => true), pause(pollOf(task), signal, woken)])
        if (settled === true) {
          const { _meta: _related, ...result } = (await finalResult) as Record<string, unknown>
          // The result says the task completed, whether or not a poll saw it.
          if (last !== undefined && !terminal.has(last.status)) report({ ...last, status: 'completed' })
          return result as CallToolResult
        }
      } else if (task.status === 'input_required' && task.inputRequests !== undefined) {
        // Entries, not assignments: a key like `__proto__` stays a key.
        const responses: Array<[string, unknown]> = []
        for (const [key, request] of Object.entries(task.inputRequests)) {
          if (answered.has(key)) continue
          if (!isRecord(request) || typeof request.method !== 'string') {
            throw new ClientError(
              'protocol_error',
              `${what}: input request '${key}' of task ${taskId} is malformed`,
            )
          }
          const answer = await answerInput(
            link.input,
            { method: request.method, params: isRecord(request.params) ? request.params : undefined },
            { during: what, signal },
          )
          responses.push([key, answer])
          answered.add(key)
        }
        if (responses.length > 0) {
          await link.request(`tasks/update '${taskId}'`, 'tasks/update', {
            taskId,
            inputResponses: Object.fromEntries(responses),
          })
        } else await pause(pollOf(task), signal, woken)
      } else {
        await pause(pollOf(task), signal, woken)
      }
      rearm()
      if (signal.aborted) throw signal.reason
      task = await get()
      report(task)
    }
  } catch (error) {
    if (last === undefined || !terminal.has(last.status)) {
      // Giving up (a signal, a limit, a question nobody could answer): the task goes too.
      await link.cancel(taskId).catch(() => {})
    }
    throw error
  } finally {
    stopNotices()
  }
}

function pollOf(task: TaskState): number {
  const asked = task.pollIntervalMs ?? defaultPollMs
  return Math.min(maximumPollMs, Math.max(minimumPollMs, asked))
}

/** The end of a 2026 task: its result, its JSON-RPC error, or its cancellation. */
function ending(task: TaskDetails, what: string): CallToolResult {
  if (task.status === 'completed') {
    if (task.result === undefined || !Array.isArray(task.result.content)) {
      throw new ClientError('protocol_error', `${what}: task ${task.taskId} completed without a tool result`)
    }
    return task.result
  }
  if (task.status === 'failed') {
    const error = task.error ?? {
      code: rpcCodes.internalError,
      message: task.statusMessage ?? 'the task failed',
    }
    throw new RpcError(error.code, error.message, error.data)
  }
  throw new ClientError(
    'cancelled',
    `${what}: task ${task.taskId} was cancelled${task.statusMessage ? ` (${task.statusMessage})` : ''}`,
    { details: { taskId: task.taskId } },
  )
}
