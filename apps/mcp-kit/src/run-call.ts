// `mcp-kit cat|head|tail <ref> [key=value…]`: runs the reference's operation (tool call,
// resource read, prompt get, or a list) and prints NDJSON records, or the raw MCP result.

import type { CallToolResult, Session } from '@mcp-kit/client'
import type { Operation, ResolvedReference } from '@mcp-kit/profiles'
import { parseJsonArguments, parseKeyValues, prepareArguments } from './call-arguments.js'
import { type ConnectionArguments, diagnostics, openSession } from './connection.js'
import { CliError, isKitError } from './errors.js'
import { exitCodeFor, exitCodes } from './exit-codes.js'
import { type Io, write } from './io.js'
import { writeRecords } from './output.js'
import {
  errorRecord,
  promptRecords,
  type Record_,
  resourceRecords,
  toolErrorMessage,
  toolResultRecords,
} from './records.js'
import { resolveForCli } from './reference.js'
import { checkProfileSchema } from './schema-check.js'
import { createStatus, describeProgress, type Status } from './status.js'

export interface CallArguments extends ConnectionArguments {
  reference: string
  arguments?: string[]
  args?: string
  raw?: boolean
  'raw-strings'?: boolean
  validate?: boolean
  n?: number
  save?: string
}

export type CallMode = 'cat' | 'head' | 'tail'

/** Closest names by edit distance, for "did you mean". */
export function suggest(name: string, candidates: readonly string[]): string[] {
  const distance = (a: string, b: string) => {
    const row = Array.from({ length: b.length + 1 }, (_, index) => index)
    for (let i = 1; i <= a.length; i++) {
      let previous = row[0] as number
      row[0] = i
      for (let j = 1; j <= b.length; j++) {
        const current = row[j] as number
        row[j] = Math.min(
          (row[j] as number) + 1,
          (row[j - 1] as number) + 1,
          previous + (a[i - 1] === b[j - 1] ? 0 : 1),
        )
        previous = current
      }
    }
    return row[b.length] as number
  }
  return candidates
    .map((candidate) => ({ candidate, score: distance(name.toLowerCase(), candidate.toLowerCase()) }))
    .filter(({ score, candidate }) => score <= Math.max(2, Math.floor(candidate.length / 3)))
    .sort((a, b) => a.score - b.score)
    .slice(0, 3)
    .map(({ candidate }) => candidate)
}

/**
 * The schema of the tool to call, or tool_not_found with suggestions. The tools list it needs
 * is also what a profile's schema check compares, so that check costs no extra round trip.
 */
export async function toolSchema(
  session: Session,
  name: string,
  resolved: ResolvedReference,
  io: Io,
  args: ConnectionArguments,
): Promise<unknown> {
  const tools = await session.listTools()
  await checkProfileSchema(resolved, tools, diagnostics(io, args))
  const tool = tools.find((candidate) => candidate.name === name)
  if (!tool) {
    const close = suggest(
      name,
      tools.map((candidate) => candidate.name),
    )
    const hint =
      close.length > 0
        ? `; did you mean ${close.map((candidate) => `'${candidate}'`).join(' or ')}?`
        : `; it has ${tools.length} tools (mcp-kit inspect lists them)`
    throw new CliError('tool_not_found', `the server has no tool '${name}'${hint}`, {
      details: { tool: name },
    })
  }
  return tool.inputSchema
}

/**
 * The schema (when needed) and the arguments of a tool call, merged from every source on the
 * command line. Skipping both coercion and validation saves the tools/list round trip.
 * `validation: 'later'` leaves validating to the caller (put validates each record).
 */
export async function toolCallArguments(
  session: Session,
  operation: Extract<Operation, { kind: 'callTool' }>,
  resolved: ResolvedReference,
  io: Io,
  args: CallArguments,
  validation: 'now' | 'later',
): Promise<{ schema: unknown; callArguments: Record<string, unknown>; validate: boolean }> {
  const validate = args.validate !== false
  const rawStrings = args['raw-strings'] === true
  const schema =
    validate || !rawStrings ? await toolSchema(session, operation.name, resolved, io, args) : undefined
  const sources = {
    defaults: operation.defaults,
    query: operation.args,
    json: parseJsonArguments(args.args),
    keyValues: parseKeyValues(args.arguments ?? []),
  }
  const warn = diagnostics(io, args).warn
  const callArguments = await prepareArguments(operation.name, sources, schema, {
    rawStrings,
    validate: validate && validation === 'now',
    warn,
  })
  return { schema, callArguments, validate }
}

function requireArgumentsAllowed(operation: Operation, args: CallArguments): void {
  const given = (args.arguments?.length ?? 0) > 0 || args.args !== undefined
  if (given && operation.kind !== 'callTool' && operation.kind !== 'getPrompt') {
    throw new CliError(
      'usage',
      'arguments (key=value or --args) need a tool or prompt in the reference (tool=… or @profile/tool)',
    )
  }
}

function stringifyPromptArguments(values: Record<string, unknown>): Record<string, string> {
  const result: Record<string, string> = {}
  for (const [key, value] of Object.entries(values)) {
    result[key] =
      typeof value === 'string' ? value : Array.isArray(value) ? value.join(',') : JSON.stringify(value)
  }
  return result
}

interface Outcome {
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
      status.update(`calling ${operation.name}…`)
      const result: CallToolResult = await session.callTool(operation.name, callArguments, {
        onProgress: (progress) => status.update(`${operation.name}: ${describeProgress(progress)}`),
      })
      status.clear()
      if (result.isError) {
        return {
          records: [errorRecord({ code: 'tool_error', message: toolErrorMessage(result) })],
          raw: result,
          failed: true,
        }
      }
      return { records: toolResultRecords(result), raw: result, failed: false }
    }
  }
}

export async function runCall(args: CallArguments, io: Io, mode: CallMode): Promise<number> {
  const count = args.n ?? 10
  if (mode !== 'cat' && (!Number.isInteger(count) || count < 0))
    throw new CliError('usage', `-n must be a whole number (got ${args.n})`)
  const resolved = await resolveForCli(args.reference, io)
  requireArgumentsAllowed(resolved.operation, args)
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
      if (
        !isKitError(error) ||
        ['invalid_arguments', 'tool_not_found', 'usage', 'cancelled', 'schema_changed'].includes(error.code)
      )
        throw error
      await writeRecords(io.stdout, [errorRecord(error)])
      if (!args.quiet) io.stderr.write(`mcp-kit: ${error.message}\n`)
      return exitCodeFor(error.code)
    }
    if (args.raw) {
      await write(io.stdout, `${JSON.stringify(outcome.raw)}\n`)
    } else {
      const records =
        mode === 'head'
          ? outcome.records.slice(0, count)
          : mode === 'tail'
            ? outcome.records.slice(Math.max(0, outcome.records.length - count))
            : outcome.records
      await writeRecords(io.stdout, count === 0 && mode !== 'cat' ? [] : records)
    }
    if (args.save !== undefined && !outcome.failed) {
      const { saveUsedReference } = await import('./run-profile.js')
      await saveUsedReference(args.save, resolved, await session.listTools(), args, io, args.reference)
    }
    if (outcome.failed && !args.quiet) {
      const message = (outcome.records[0]?.error as { message?: string } | undefined)?.message
      io.stderr.write(`mcp-kit: the tool reported an error${message ? `: ${message.split('\n')[0]}` : ''}\n`)
    }
    return outcome.failed ? exitCodes.failed : exitCodes.ok
  } finally {
    status.clear()
    await session.close()
  }
}
