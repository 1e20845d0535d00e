// The arguments of one tool call, assembled from every source on the command line and checked
// against the tool's schema (fetched with tools/list, which also feeds a profile's schema check).

import type { Session, Tool } from '@mcp-kit/client'
import type { Operation, ResolvedReference } from '@mcp-kit/profiles'
import { CliError } from '../base/errors.js'
import type { Io } from '../base/io.js'
import { diagnostics } from '../output/diagnostics.js'
import { parseJsonArguments, parseKeyValues, prepareArguments } from './call-arguments.js'
import type { ConnectionArguments } from './connection-flags.js'
import { checkProfileSchema } from './schema-check.js'

/** The argument flags of the commands that call tools (cat, head, tail, put). */
export interface ArgumentFlags extends ConnectionArguments {
  /** Trailing key=value words. */
  arguments?: string[]
  /** --args '{json}'. */
  args?: string
  'raw-strings'?: boolean
  validate?: boolean
  /** Reserved query keys taken as arguments (reference.ts): they stand only if the tool has such parameters. */
  reservedArguments?: string[] | undefined
}

/** `?tool=generate&prompt=hi` is the tool's `prompt` argument only if the tool has one. */
function checkReservedArguments(tool: Tool, reserved: readonly string[] | undefined): void {
  if (reserved === undefined) return
  const properties = (tool.inputSchema as { properties?: unknown } | undefined)?.properties
  const has = (name: string) =>
    typeof properties === 'object' && properties !== null && Object.hasOwn(properties, name)
  const absent = reserved.filter((name) => !has(name))
  if (absent.length === 0) return
  const quoted = absent.map((name) => `'${name}'`).join(' or ')
  throw new CliError(
    'usage',
    `malformed query: choose one of tool, ${absent.join(', ')}; a reference does one thing, and tool '${tool.name}' has no parameter ${quoted} (a parameter named like a reserved key is written arg:${absent[0]}=…)`,
  )
}

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
 * The tool of that name (and the whole list), or tool_not_found with suggestions. The tools list
 * it needs is also what a profile's schema check compares, so that check costs no extra round trip.
 */
export async function findTool(
  session: Session,
  name: string,
  resolved: ResolvedReference,
  io: Io,
  args: ConnectionArguments,
): Promise<{ tool: Tool; tools: Tool[] }> {
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
  return { tool, tools }
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
  args: ArgumentFlags,
  validation: 'now' | 'later',
): Promise<{ schema: unknown; callArguments: Record<string, unknown>; validate: boolean }> {
  const validate = args.validate !== false
  const rawStrings = args['raw-strings'] === true
  const tool =
    validate || !rawStrings || args.reservedArguments !== undefined
      ? (await findTool(session, operation.name, resolved, io, args)).tool
      : undefined
  if (tool !== undefined) checkReservedArguments(tool, args.reservedArguments)
  const schema = tool?.inputSchema
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
