// A `tools/call` that may become a task (SEP-2663: the server decides, per request). A tool
// declares `taskSupport` (or the server lends it to every tool: `tasks.afterMs`); when the
// request declared the extension, the call becomes a task at once (`taskStart: 'call'`), when its
// handler calls `context.startTask()` (`taskStart: 'handler'`), or when it is still running after
// some milliseconds (`taskStart: <ms>`, the spec's immediate-result shortcut for faster calls).
// Questions asked before then are input_required rounds of the request (the composition the spec
// describes). From then on the handler runs detached from the request, with the same context:
// its signal now follows `tasks/cancel`, its questions become the task's `inputRequests`, its
// progress the task's status message.

import type { ClientCapabilities } from '../context.js'
import { RequestContext, type RequestContextInit } from '../protocol/request-context.js'
import type { ToolDefinition } from '../registry/tool-types.js'
import { TaskInputChannel } from './input.js'
import type { TaskManager } from './manager.js'
import type { TaskRecord } from './store.js'
import { createTaskResult, declaresTasks, tasksNotDeclared, tooManyTasks } from './wire.js'

/** How a call runs: in the request, or as a task starting at the call, when the handler says, or after a while. */
export type TaskPlan = 'request' | { start: 'call' | 'handler' | number; required?: boolean }

/**
 * The plan for a `tools/call` of `tool`; -32021 when only a task would do and the client cannot
 * follow one. `afterMs`: the server makes tools that do not declare `taskSupport` tasks when
 * their calls run longer than that.
 */
export function planToolCall(
  tool: ToolDefinition | undefined,
  capabilities: ClientCapabilities,
  afterMs?: number,
  refusal?: () => string | undefined,
): TaskPlan {
  const lent = tool !== undefined && tool.taskSupport === undefined && afterMs !== undefined
  const support = lent ? 'optional' : (tool?.taskSupport ?? 'forbidden')
  if (support === 'forbidden') return 'request'
  if (!declaresTasks(capabilities)) {
    if (support === 'required') throw tasksNotDeclared(`the tool '${tool?.name}'`)
    return 'request'
  }
  // At the bound of running tasks: answered in the request when the tool allows it.
  const refused = refusal?.()
  if (refused !== undefined) {
    if (support === 'required') throw tooManyTasks(refused)
    return 'request'
  }
  return { start: lent ? (afterMs as number) : (tool?.taskStart ?? 'call'), required: support === 'required' }
}

export interface TaskCallOptions {
  manager: TaskManager
  plan: Exclude<TaskPlan, 'request'>
  /** The request's context, as it would be without tasks. */
  init: RequestContextInit
  method: string
  name: string
  principal: string | undefined
  /**
   * Why no task can start now (the bound of running tasks), checked again when a task would
   * start later than the call (`taskStart: 'handler'` or after some milliseconds).
   */
  refusal?: () => string | undefined
  /** Runs the handler (through the runtime) with the context it is given. */
  run(context: RequestContext): Promise<Record<string, unknown>>
}

export type TaskCallOutcome = { result: Record<string, unknown> } | { created: Record<string, unknown> }

function progressText(params: Record<string, unknown>): string {
  if (typeof params.message === 'string') return params.message
  return params.total === undefined ? `${params.progress}` : `${params.progress}/${params.total}`
}

/**
 * Runs a call that may become a task. Resolves with the request's own result when it finished
 * before becoming one, or with the `CreateTaskResult` once the task exists (the work goes on).
 * Errors before the task exists (an input_required round, a protocol error) are the request's.
 */
export async function callAsTask(options: TaskCallOptions): Promise<TaskCallOutcome> {
  const { manager, init } = options
  const requestSignal = init.signal
  // The handler's signal: the request's until the call becomes a task, then the task's.
  const controller = new AbortController()
  let task: TaskRecord | undefined
  let starting: Promise<TaskRecord> | undefined
  let announce = () => {}
  const announced = new Promise<undefined>((resolve) => {
    announce = () => resolve(undefined)
  })
  const followRequest = () => {
    if (task === undefined) controller.abort(requestSignal.reason)
  }
  if (requestSignal.aborted) followRequest()
  else requestSignal.addEventListener('abort', followRequest, { once: true })

  const context: RequestContext = new RequestContext({
    ...init,
    signal: controller.signal,
    startTask: async () => {
      // At the bound: a tool that requires tasks fails; any other goes on in the request.
      const refused = options.refusal?.()
      if (refused === undefined) await start()
      else if (options.plan.required === true) throw tooManyTasks(refused)
    },
  })
  const start = (): Promise<TaskRecord> => {
    starting ??= manager
      .create({ method: options.method, name: options.name, principal: options.principal }, controller)
      .then((record) => {
        task = record
        requestSignal.removeEventListener('abort', followRequest)
        context.bindTask({
          taskId: record.taskId,
          input: new TaskInputChannel(manager, record.taskId, init.clientCapabilities, controller.signal),
          progressToken: record.taskId,
          notify: async (method, params) => {
            if (method === 'notifications/progress')
              await manager.statusMessage(record.taskId, progressText(params))
          },
          closeStream: undefined,
        })
        announce()
        return record
      })
    return starting
  }

  const complete = (result: Record<string, unknown>) => ({ ...result, resultType: 'complete' })
  if (options.plan.start === 'call') {
    const record = await start()
    manager.settle(record.taskId, options.run(context).then(complete))
    return { created: createTaskResult(record, Date.now()) }
  }
  const work = options.run(context)
  const settled = work.then(
    (result) => ({ result }),
    (error: unknown) => ({ error }),
  )
  // After a while the server starts the task itself (unless the call ended first).
  const delay = options.plan.start
  const timer =
    typeof delay === 'number'
      ? setTimeout(() => {
          // At the bound the call goes on in the request.
          if (options.refusal?.() === undefined) void start().catch(() => {})
        }, delay)
      : undefined
  const first = await Promise.race([settled, announced])
  clearTimeout(timer)
  // A task being created when the call ended is still the answer: its record must not dangle.
  if (starting !== undefined && task === undefined) await starting
  if (task === undefined) {
    requestSignal.removeEventListener('abort', followRequest)
    const outcome = first ?? (await settled)
    if ('error' in outcome) throw outcome.error
    return { result: outcome.result }
  }
  manager.settle(task.taskId, work.then(complete))
  return { created: createTaskResult(task, Date.now()) }
}
