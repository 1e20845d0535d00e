// The tasks extension (SEP-2663) on the wire: its identifier, whether a request declared it, the
// error for a client that did not, and how a stored record is shown — the `CreateTaskResult` of a
// `tools/call` (the flat `Result & Task`), and the `DetailedTask` of `tasks/get` and
// `notifications/tasks`, which inlines the questions, the result or the error.

import { isRecord } from '@mcp-kit/core'
import type { ClientCapabilities } from '../context.js'
import { rpcCodes, ServerError } from '../errors.js'
import { printable, RpcFailure } from '../protocol/rpc.js'
import type { TaskRecord } from './store.js'

export const tasksExtension = 'io.modelcontextprotocol/tasks'

/** The methods of the extension (`tasks/result` and `tasks/list` of 2025-11-25 are gone). */
export const taskMethods: ReadonlySet<string> = new Set(['tasks/get', 'tasks/update', 'tasks/cancel'])

/** True when the request's client capabilities declare the tasks extension. */
export function declaresTasks(capabilities: ClientCapabilities | undefined): boolean {
  const extensions = (capabilities as Record<string, unknown> | undefined)?.extensions
  return isRecord(extensions) && isRecord(extensions[tasksExtension])
}

/** -32021 naming the extension (spec: "indicating the required extension in the error response"). */
export function tasksNotDeclared(what: string): ServerError {
  return new ServerError('missing_capability', `${what} needs the ${tasksExtension} extension`, {
    details: {
      requiredCapabilities: { extensions: { [tasksExtension]: {} } },
      rpcCode: rpcCodes.missingClientCapability,
    },
  })
}

/** -32000 for a call that must run as a task when no more tasks can start (the running-task bound). */
export function tooManyTasks(reason: string): ServerError {
  return new ServerError('server_error', reason, { details: { rpcCode: rpcCodes.transportError } })
}

/** -32602 for a task that does not exist, expired, or belongs to someone else (indistinguishable). */
export function taskNotFound(taskId: string): RpcFailure {
  return new RpcFailure(rpcCodes.invalidParams, `Task not found: ${printable(taskId)}`)
}

/** The `Task` fields of a record: what every shape of it carries. */
export function taskFields(record: TaskRecord, now: number): Record<string, unknown> {
  // ttlMs counts from creation (spec) and may change: a task is kept `keepMs` after it ends, so
  // while it runs the promise grows with it.
  const lived = (record.endedAt ?? Math.max(now, record.createdAt)) - record.createdAt
  const fields: Record<string, unknown> = {
    taskId: record.taskId,
    status: record.status,
    createdAt: new Date(record.createdAt).toISOString(),
    lastUpdatedAt: new Date(record.lastUpdatedAt).toISOString(),
    ttlMs: Math.round(lived + record.keepMs),
    pollIntervalMs: record.pollIntervalMs,
  }
  if (record.statusMessage !== undefined) fields.statusMessage = record.statusMessage
  return fields
}

/** The answer to the `tools/call` that created the task. */
export function createTaskResult(record: TaskRecord, now: number): Record<string, unknown> {
  return { resultType: 'task', ...taskFields(record, now) }
}

/** The full state of a task, as `tasks/get` answers and `notifications/tasks` carries it. */
export function detailedTask(record: TaskRecord, now: number): Record<string, unknown> {
  const detailed = taskFields(record, now)
  if (record.status === 'input_required') {
    detailed.inputRequests = Object.fromEntries(
      Object.entries(record.inputRequests ?? {}).map(([key, request]) => [
        key,
        request.params === undefined ? { method: request.method } : request,
      ]),
    )
  }
  if (record.status === 'completed' && record.result !== undefined) detailed.result = record.result
  if (record.status === 'failed' && record.error !== undefined) detailed.error = record.error
  return detailed
}
