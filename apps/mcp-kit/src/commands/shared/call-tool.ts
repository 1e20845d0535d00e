// What a command that calls a tool shares with the others that do (cat, head, tail, put, shell,
// ui): the call's flags as arguments, the --detach check, and the call itself with its progress
// on the status line.

import type { CallToolResult, Progress, Session } from '@mcp-kit/client'
import type { ResolvedReference } from '@mcp-kit/profiles'
import { CliError } from '../../base/errors.js'
import { errorRecord, type Record_, toolErrorMessage, toolResultRecords } from '../../output/records.js'
import { describeProgress, describeTask, type Status } from '../../output/status.js'
import type { TargetArguments } from '../../session/reference.js'
import type { ArgumentFlags } from '../../session/tool-arguments.js'

export interface CallArguments extends ArgumentFlags, TargetArguments {
  raw?: boolean
  n?: number
  save?: string
  detach?: boolean
}

/** --detach leaves a task behind on the server: a stdio server ends with this command, and its tasks. */
export function requireDetachable(resolved: ResolvedReference, detach: boolean | undefined): void {
  if (!detach) return
  if (resolved.server.transport === 'stdio') {
    throw new CliError(
      'usage',
      '--detach needs an HTTP server: a stdio server ends with this command, and its tasks with it',
    )
  }
  if (resolved.operation.kind !== 'callTool')
    throw new CliError('usage', '--detach needs a tool call (tool=…)')
}

export interface Outcome {
  records: Record_[]
  /** Printed as is with --raw. */
  raw?: unknown
  failed: boolean
}

/**
 * Calls a tool, with its progress (or, when the server runs it as a task, the task's state) on the
 * status line; a tool's own error is a record too. `detach`: a task is the outcome, not followed.
 */
export async function callToolOutcome(
  session: Session,
  name: string,
  callArguments: Record<string, unknown>,
  status: Status,
  signal?: AbortSignal,
  options: { detach?: boolean; say?: (message: string) => void } = {},
): Promise<Outcome> {
  status.update(`calling ${name}…`)
  const onProgress = (progress: Progress) => status.update(`${name}: ${describeProgress(progress)}`)
  const became = (taskId: string) => options.say?.(`${name}: the server runs the call as task ${taskId}`)
  let result: CallToolResult
  try {
    if (options.detach) {
      const started = await session.startTool(name, callArguments, { onProgress, preferTask: true, signal })
      if (started.kind === 'task') {
        became(started.task.taskId)
        return { records: [{ ...started.task }], raw: started.task, failed: false }
      }
      result = started.result
    } else {
      let taskId: string | undefined
      result = await session.callTool(name, callArguments, {
        onProgress,
        signal,
        onTask: (task) => {
          if (taskId === undefined) became(task.taskId)
          taskId = task.taskId
          status.update(`${name}: ${describeTask(task)}`)
        },
      })
    }
  } finally {
    status.clear()
  }
  if (result.isError) {
    return {
      records: [errorRecord({ code: 'tool_error', message: toolErrorMessage(result) })],
      raw: result,
      failed: true,
    }
  }
  return { records: toolResultRecords(result), raw: result, failed: false }
}

/** Failures that print a message and no error record: the call never ran (or was interrupted). */
export const messageOnlyErrors = [
  'invalid_arguments',
  'tool_not_found',
  'usage',
  'cancelled',
  'schema_changed',
]
