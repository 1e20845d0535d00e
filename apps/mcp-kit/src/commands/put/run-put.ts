// `mcp-kit put <ref-with-tool>`: one tool call per NDJSON input record over one session, printing
// exactly one output record per input record in input order. Bad lines and failed calls become
// error records carrying their input line number; nothing is dropped or duplicated, also when the
// server dies midway. One call at a time unless --concurrency or the profile's `concurrency` says
// the server takes more: servers that rewrite their state per call (server-memory rewrites its
// JSON file) lose writes to concurrent calls while answering each with success.

import { createInterface } from 'node:readline'
import type { CallToolResult, Session } from '@mcp-kit/client'
import { CliError, isKitError } from '../../base/errors.js'
import { exitCodeFor, exitCodes } from '../../base/exit-codes.js'
import { createBatchWriter, type Io } from '../../base/io.js'
import { diagnostics } from '../../output/diagnostics.js'
import {
  type ErrorLike,
  errorRecord,
  type Record_,
  toolErrorMessage,
  toolResultRecords,
} from '../../output/records.js'
import { createStatus, describeTask } from '../../output/status.js'
import { jsonForStdout } from '../../output/write-records.js'
import { openSession } from '../../session/open-session.js'
import { resolveTarget } from '../../session/reference.js'
import { toolCallArguments } from '../../session/tool-arguments.js'
import { type CallArguments, requireDetachable } from '../shared/call-tool.js'

export interface PutArguments extends CallArguments {
  /** Absent: the profile's `concurrency`, else 1. */
  concurrency?: number
  'fail-fast'?: boolean
}

interface Outcome {
  record: Record_
  failure?: ErrorLike
}

/** One output record for one call: the single record, or {records: […]} when a result has several. */
function oneRecord(records: Record_[]): Record_ {
  if (records.length === 1) return records[0] as Record_
  return { records }
}

function failure(error: ErrorLike, line: number): Outcome {
  return { record: errorRecord(error, line), failure: error }
}

export async function runPut(args: PutArguments, io: Io): Promise<number> {
  const flag = args.concurrency
  if (flag !== undefined && (!Number.isInteger(flag) || flag < 1 || flag > 1024)) {
    throw new CliError('usage', `--concurrency must be a whole number from 1 to 1024 (got ${flag})`)
  }
  const { resolved, reservedArguments } = await resolveTarget(args, io, { reservedAsArguments: true })
  args = { ...args, reservedArguments }
  requireDetachable(resolved, args.detach)
  const concurrency = flag ?? resolved.profile?.concurrency ?? 1
  const operation = resolved.operation
  if (operation.kind !== 'callTool')
    throw new CliError('usage', 'put needs a tool: @profile/tool, a reference with tool=, or --tool')
  const say = diagnostics(io, args)
  const source =
    flag !== undefined
      ? '--concurrency'
      : resolved.profile?.concurrency !== undefined
        ? `the profile's concurrency`
        : 'the default; --concurrency N for servers that take parallel calls'
  say.verbose(`put: ${concurrency} call${concurrency === 1 ? '' : 's'} at a time (${source})`)
  const session: Session = await openSession(resolved, args, io)
  const status = createStatus(io, args.quiet)
  try {
    // Arguments shared by every record (profile defaults, query, --args, key=value); records override them.
    const {
      schema,
      callArguments: base,
      validate,
    } = await toolCallArguments(session, operation, resolved, io, args, 'later')
    const { formatProblems, validateArguments } = await import('@mcp-kit/schema')
    let schemaUsable = validate && schema !== undefined
    const call = async (text: string, line: number): Promise<Outcome> => {
      let record: unknown
      try {
        record = JSON.parse(text)
      } catch (error) {
        return failure(
          { code: 'invalid_arguments', message: `line ${line}: not valid JSON: ${(error as Error).message}` },
          line,
        )
      }
      if (typeof record !== 'object' || record === null || Array.isArray(record)) {
        return failure(
          { code: 'invalid_arguments', message: `line ${line}: expected a JSON object of tool arguments` },
          line,
        )
      }
      const callArguments = { ...base, ...(record as Record<string, unknown>) }
      if (schemaUsable) {
        try {
          const result = validateArguments(callArguments, schema)
          if (!result.ok) {
            return failure(
              {
                code: 'invalid_arguments',
                message: `line ${line}: ${formatProblems(result.errors).split('\n').join('; ')}`,
                details: { problems: result.errors },
              },
              line,
            )
          }
        } catch (error) {
          schemaUsable = false
          say.warn(
            `cannot validate the arguments of '${operation.name}': ${(error as Error).message}; sending them unchecked`,
          )
        }
      }
      try {
        let result: CallToolResult
        if (args.detach) {
          const started = await session.startTool(operation.name, callArguments, { preferTask: true })
          if (started.kind === 'task') return { record: { ...started.task } }
          result = started.result
        } else {
          result = await session.callTool(operation.name, callArguments, {
            onTask: (task) => status.update(`put: line ${line}: ${describeTask(task)}`),
          })
        }
        if (result.isError) return failure({ code: 'tool_error', message: toolErrorMessage(result) }, line)
        return { record: oneRecord(toolResultRecords(result)) }
      } catch (error) {
        if (!isKitError(error)) throw error
        return failure({ code: error.code, message: error.message, details: error.details }, line)
      }
    }

    let firstFailure: ErrorLike | undefined
    let done = 0
    let failed = 0
    const pending: Array<Promise<Outcome>> = []
    const writeLine = createBatchWriter(io.stdout)
    const emit = async (outcome: Outcome) => {
      done++
      if (outcome.failure) {
        failed++
        firstFailure ??= outcome.failure
      }
      if (done % 100 === 0) status.update(`put: ${done} done, ${failed} failed`)
      const full = writeLine(`${jsonForStdout(io, JSON.stringify(outcome.record))}\n`)
      if (full) await full
    }
    const lines = createInterface({ input: io.stdin, crlfDelay: Number.POSITIVE_INFINITY })
    let lineNumber = 0
    try {
      for await (const text of lines) {
        lineNumber++
        if (text.trim() === '') continue
        if (io.signal.aborted || (args['fail-fast'] && firstFailure)) break
        while (pending.length >= concurrency) {
          await emit(await (pending.shift() as Promise<Outcome>))
          if (args['fail-fast'] && firstFailure) break
        }
        if (args['fail-fast'] && firstFailure) break
        const outcome = call(text, lineNumber)
        outcome.catch(() => {}) // abandoned by --fail-fast or Ctrl-C: its failure is not news
        pending.push(outcome)
      }
      while (pending.length > 0 && !(args['fail-fast'] && firstFailure))
        await emit(await (pending.shift() as Promise<Outcome>))
    } finally {
      lines.close()
      status.clear()
    }
    if (io.signal.aborted) return exitCodes.interrupted
    if (failed > 0 && !args.quiet) {
      io.stderr.write(
        `mcp-kit: ${failed} of ${done} calls failed${args['fail-fast'] ? ' (stopped at the first: --fail-fast)' : ''}\n`,
      )
    }
    return firstFailure ? exitCodeFor(firstFailure.code) : exitCodes.ok
  } finally {
    status.clear()
    await session.close()
  }
}
