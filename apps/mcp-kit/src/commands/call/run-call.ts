// `mcp-kit cat|head|tail <ref> [key=value…]`: runs the reference's operation (tool call,
// resource read, prompt get, or a list) and prints NDJSON records, or the raw MCP result.

import type { CallToolResult, Progress, Session } from '@mcp-kit/client'
import type { Operation, ResolvedReference } from '@mcp-kit/profiles'
import { CliError, isKitError } from '../../base/errors.js'
import { exitCodeFor, exitCodes } from '../../base/exit-codes.js'
import type { Io } from '../../base/io.js'
import { diagnostics, writeDiagnostic } from '../../output/diagnostics.js'
import {
  errorRecord,
  promptRecords,
  type Record_,
  resourceRecords,
  toolErrorMessage,
  toolResultRecords,
} from '../../output/records.js'
import { firstLine } from '../../output/sanitize.js'
import { createStatus, describeProgress, describeTask, type Status } from '../../output/status.js'
import { writeJson, writeRecords } from '../../output/write-records.js'
import { parseJsonArguments, parseKeyValues } from '../../session/call-arguments.js'
import { openSession } from '../../session/open-session.js'
import { resolveTarget, type TargetArguments } from '../../session/reference.js'
import { checkProfileSchema } from '../../session/schema-check.js'
import { type ArgumentFlags, toolCallArguments } from '../../session/tool-arguments.js'

export interface CallArguments extends ArgumentFlags, TargetArguments {
  raw?: boolean
  n?: number
  save?: string
  detach?: boolean
}

export type CallMode = 'cat' | 'head' | 'tail'

function requireArgumentsAllowed(operation: Operation, args: CallArguments): void {
  const given = (args.arguments?.length ?? 0) > 0 || args.args !== undefined
  if (given && operation.kind !== 'callTool' && operation.kind !== 'getPrompt') {
    throw new CliError(
      'usage',
      'arguments (key=value or --args) need a tool or prompt in the reference (tool=… or @profile/tool)',
    )
  }
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

/** Prompt arguments are strings on the wire: lists join with commas, other values go as JSON. */
export function stringifyPromptArguments(values: Record<string, unknown>): Record<string, string> {
  const result: Record<string, string> = {}
  for (const [key, value] of Object.entries(values)) {
    result[key] =
      typeof value === 'string' ? value : Array.isArray(value) ? value.join(',') : JSON.stringify(value)
  }
  return result
}

export interface Outcome {
  records: Record_[]
  /** Printed as is with --raw. */
  raw?: unknown
  failed: boolean
}

async function runOperation(
  resolved: ResolvedReference,
  session: Session,
  args: CallArguments,
  io: Io,
  status: Status,
  limit: number | undefined,
): Promise<Outcome> {
  const operation = resolved.operation
  const say = diagnostics(io, args)
  switch (operation.kind) {
    case 'inspect':
    case 'listTools': {
      const tools = await session.listTools()
      await checkProfileSchema(resolved, tools, say)
      return { records: tools as unknown as Record_[], raw: { tools }, failed: false }
    }
    case 'listResources': {
      const resources = await session.listResources({ limit })
      return { records: resources as unknown as Record_[], raw: { resources }, failed: false }
    }
    case 'listResourceTemplates': {
      const resourceTemplates = await session.listResourceTemplates({ limit })
      return { records: resourceTemplates as unknown as Record_[], raw: { resourceTemplates }, failed: false }
    }
    case 'listPrompts': {
      const prompts = await session.listPrompts({ limit })
      return { records: prompts as unknown as Record_[], raw: { prompts }, failed: false }
    }
    case 'readResource': {
      const result = await session.readResource(operation.uri)
      return { records: resourceRecords(result), raw: result, failed: false }
    }
    case 'getPrompt': {
      const values = {
        ...operation.args,
        ...parseJsonArguments(args.args),
        ...parseKeyValues(args.arguments ?? []),
      }
      const result = await session.getPrompt(operation.name, stringifyPromptArguments(values))
      return { records: promptRecords(result), raw: result, failed: false }
    }
    case 'callTool': {
      const { callArguments } = await toolCallArguments(session, operation, resolved, io, args, 'now')
      return callToolOutcome(session, operation.name, callArguments, status, undefined, {
        detach: args.detach,
        say: say.verbose,
      })
    }
  }
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

export async function runCall(args: CallArguments, io: Io, mode: CallMode): Promise<number> {
  const count = args.n ?? 10
  if (mode !== 'cat' && (!Number.isInteger(count) || count < 0))
    throw new CliError('usage', `-n must be a whole number (got ${args.n})`)
  const { resolved, text, reservedArguments } = await resolveTarget(args, io, { reservedAsArguments: true })
  args = { ...args, reservedArguments }
  requireArgumentsAllowed(resolved.operation, args)
  requireDetachable(resolved, args.detach)
  const status = createStatus(io, args.quiet)
  const { describeServer } = await import('@mcp-kit/profiles')
  status.update(`connecting to ${describeServer(resolved.server)}…`)
  let session: Session
  try {
    session = await openSession(resolved, args, io)
  } finally {
    status.clear()
  }
  try {
    let outcome: Outcome
    try {
      outcome = await runOperation(resolved, session, args, io, status, mode === 'head' ? count : undefined)
    } catch (error) {
      status.clear()
      // Before the call (bad arguments, unknown tool): a message only. A failed call: a record too.
      if (!isKitError(error) || messageOnlyErrors.includes(error.code)) throw error
      await writeRecords(io, [errorRecord(error)])
      if (!args.quiet) writeDiagnostic(io, error.message)
      return exitCodeFor(error.code)
    }
    if (args.raw) {
      await writeJson(io, outcome.raw)
    } else {
      const records =
        mode === 'head'
          ? outcome.records.slice(0, count)
          : mode === 'tail'
            ? outcome.records.slice(Math.max(0, outcome.records.length - count))
            : outcome.records
      await writeRecords(io, count === 0 && mode !== 'cat' ? [] : records)
    }
    if (args.save !== undefined && !outcome.failed) {
      const { saveUsedReference } = await import('../profile/create.js')
      await saveUsedReference(args.save, resolved, await session.listTools(), args, io, text)
    }
    if (outcome.failed && !args.quiet) {
      const message = (outcome.records[0]?.error as { message?: string } | undefined)?.message
      writeDiagnostic(io, `the tool reported an error${message ? `: ${firstLine(message)}` : ''}`)
    }
    return outcome.failed ? exitCodes.failed : exitCodes.ok
  } finally {
    status.clear()
    await session.close()
  }
}
