// `mcp-kit cat|head|tail <ref> [key=value…]`: runs the reference's operation (tool call,
// resource read, prompt get, or a list) and prints NDJSON records, or the raw MCP result.

import type { Session } from '@mcp-kit/client'
import type { Operation, ResolvedReference } from '@mcp-kit/profiles'
import { CliError, isKitError } from '../../base/errors.js'
import { exitCodeFor, exitCodes } from '../../base/exit-codes.js'
import type { Io } from '../../base/io.js'
import { diagnostics, writeDiagnostic } from '../../output/diagnostics.js'
import { errorRecord, promptRecords, type Record_, resourceRecords } from '../../output/records.js'
import { firstLine } from '../../output/sanitize.js'
import { createStatus, type Status } from '../../output/status.js'
import { writeJson, writeRecords } from '../../output/write-records.js'
import { parseJsonArguments, parseKeyValues, stringifyPromptArguments } from '../../session/call-arguments.js'
import { openSession } from '../../session/open-session.js'
import { resolveTarget } from '../../session/reference.js'
import { checkProfileSchema } from '../../session/schema-check.js'
import { toolCallArguments } from '../../session/tool-arguments.js'
import {
  type CallArguments,
  callToolOutcome,
  messageOnlyErrors,
  type Outcome,
  requireDetachable,
} from '../shared/call-tool.js'

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
      const { saveUsedReference } = await import('../shared/profile/save-profile.js')
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
