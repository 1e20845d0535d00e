// `mcp-kit task get|cancel`: one session to the server, then `tasks/get` (the state as one NDJSON
// record), following the task to its end like `cat` does (`--wait`: result records, exit code as
// for a call), or `tasks/cancel` followed by a look at the state.

import type { Session } from '@mcp-kit/client'
import { CliError } from '../../base/errors.js'
import { exitCodes } from '../../base/exit-codes.js'
import type { Io } from '../../base/io.js'
import { diagnostics, writeDiagnostic } from '../../output/diagnostics.js'
import { errorRecord, toolErrorMessage, toolResultRecords } from '../../output/records.js'
import { firstLine } from '../../output/sanitize.js'
import { createStatus, describeTask } from '../../output/status.js'
import { writeJson, writeRecords } from '../../output/write-records.js'
import type { ConnectionArguments } from '../../session/connection-flags.js'
import { openSession } from '../../session/open-session.js'
import { resolveForCli } from '../../session/reference.js'

interface TaskArguments extends ConnectionArguments {
  reference: string
  taskId: string
  wait?: boolean
  raw?: boolean
}

async function withSession<T>(
  args: TaskArguments,
  io: Io,
  use: (session: Session) => Promise<T>,
): Promise<T> {
  if (args.taskId.trim() === '') throw new CliError('usage', 'the task id is empty')
  const resolved = await resolveForCli(args.reference, io)
  if (resolved.operation.kind !== 'inspect' && resolved.operation.kind !== 'callTool') {
    throw new CliError('usage', `task takes a server, not a ${resolved.operation.kind} operation`)
  }
  if (resolved.server.transport === 'stdio') {
    diagnostics(io, args).warn(
      'this starts a new stdio server process: it knows only tasks it keeps outside itself (most keep them in memory)',
    )
  }
  const session = await openSession(resolved, args, io)
  try {
    return await use(session)
  } finally {
    await session.close()
  }
}

export async function runTaskGet(args: TaskArguments, io: Io): Promise<number> {
  return withSession(args, io, async (session) => {
    if (!args.wait) {
      await writeRecords(io, [{ ...(await session.getTask(args.taskId)) }])
      return exitCodes.ok
    }
    const status = createStatus(io, args.quiet)
    let result: Awaited<ReturnType<Session['followTask']>>
    try {
      result = await session.followTask(args.taskId, {
        onTask: (task) => status.update(`task ${args.taskId.slice(0, 8)}…: ${describeTask(task)}`),
      })
    } finally {
      status.clear()
    }
    if (args.raw) await writeJson(io, result)
    else if (result.isError)
      await writeRecords(io, [errorRecord({ code: 'tool_error', message: toolErrorMessage(result) })])
    else await writeRecords(io, toolResultRecords(result))
    if (!result.isError) return exitCodes.ok
    if (!args.quiet) writeDiagnostic(io, `the tool reported an error: ${firstLine(toolErrorMessage(result))}`)
    return exitCodes.failed
  })
}

export async function runTaskCancel(args: TaskArguments, io: Io): Promise<number> {
  return withSession(args, io, async (session) => {
    await session.cancelTask(args.taskId)
    await writeRecords(io, [{ ...(await session.getTask(args.taskId)) }])
    return exitCodes.ok
  })
}
