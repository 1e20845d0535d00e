// Recorded calls as steps: what was sent (the arguments, the answers to the server's questions)
// becomes the step, what came back its expectations — the result as a snapshot, the error code,
// a task — with the volatile parts masked and the masks listed. A server whose tools the session
// listed gets a first step that fails on breaking drift of the tools the recording used.

import type { Tool } from '@mcp-kit/client'
import type {
  Answers,
  BaselineTool,
  Expectations,
  Mask,
  Observation,
  Operation,
  ServerEntry,
  StepEntry,
} from '../collection-types.js'
import { escapePlaceholders } from '../placeholders.js'
import { changedBetween, patternsFound, volatileKeys } from './volatile.js'

/** One operation as a session saw it. */
export interface RecordedCall {
  /** The server's name in the collection and how the collection reaches it. */
  server: { name: string; entry: ServerEntry }
  operation: Operation
  arguments?: Record<string, unknown>
  /** What the server's questions were answered with (the accepted form, or decline/cancel). */
  answers?: Answers
  /** The call asked for a task. */
  task?: boolean
  observation: Observation
  /** The server's tools as the session listed them (for the drift step). */
  tools?: readonly Tool[]
}

/** A tool as a drift baseline keeps it: what diffTools compares. */
export function baselineTool(tool: Tool): BaselineTool {
  return {
    name: tool.name,
    inputSchema: tool.inputSchema as Record<string, unknown>,
    ...(tool.outputSchema === undefined
      ? {}
      : { outputSchema: tool.outputSchema as Record<string, unknown> }),
  }
}

function requestKey(call: RecordedCall): string {
  return JSON.stringify([call.server.name, call.operation, call.arguments ?? {}])
}

function uniqueMasks(masks: readonly Mask[]): Mask[] {
  const seen = new Set<string>()
  return masks.filter((mask) => {
    const key = 'path' in mask ? `path:${mask.path}` : `pattern:${mask.pattern}`
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}

function expectationsOf(
  observation: Observation,
  operation: Operation,
  masks: Mask[],
  hashTools: (tools: readonly Tool[]) => string,
): Expectations {
  const expect: Expectations = {}
  if (observation.error !== undefined) expect.error = observation.error.code
  if (operation.kind === 'list' && operation.list === 'tools' && observation.result !== undefined)
    expect.schemaHash = hashTools((observation.result as { tools: Tool[] }).tools)
  else if (observation.result !== undefined) expect.result = observation.result
  if (observation.task) expect.task = true
  if (masks.length > 0 && expect.result !== undefined) expect.masks = masks
  return expect
}

export interface RecordedSteps {
  /** Servers the steps use, by name. */
  servers: Record<string, ServerEntry>
  /** Per server, the tools the calls used as the session listed them (a drift baseline). */
  tools: Record<string, BaselineTool[]>
  steps: StepEntry[]
  /** Pattern masks for the whole collection (timestamps, UUIDs, hex ids found in the answers). */
  masks: Mask[]
}

/** The steps of these calls, in order, with their masks found. */
export async function recordedSteps(calls: readonly RecordedCall[]): Promise<RecordedSteps> {
  const { hashTools } = await import('@mcp-kit/schema')
  const servers: Record<string, ServerEntry> = {}
  const answers = new Map<string, unknown[]>()
  for (const call of calls) {
    servers[call.server.name] ??= call.server.entry
    if (call.observation.result !== undefined)
      answers.set(requestKey(call), [...(answers.get(requestKey(call)) ?? []), call.observation.result])
  }
  const tools: Record<string, BaselineTool[]> = {}
  for (const name of Object.keys(servers)) {
    const listed = calls.find((call) => call.server.name === name && call.tools !== undefined)?.tools
    const called = new Set(
      calls.flatMap((call) =>
        call.server.name === name && call.operation.kind === 'call' ? [call.operation.name] : [],
      ),
    )
    const used = (listed ?? []).filter((tool) => called.has(tool.name))
    if (used.length > 0) tools[name] = used.map(baselineTool)
  }
  const steps: StepEntry[] = []
  const names = new Map<string, number>()
  for (const call of calls) {
    const seen = answers.get(requestKey(call)) ?? []
    const masks = uniqueMasks([
      ...volatileKeys(call.observation.result),
      ...(seen.length > 1 ? seen.slice(1).flatMap((other) => changedBetween(seen[0], other)) : []),
    ])
    const operation = call.operation
    const base =
      operation.kind === 'call'
        ? `call ${operation.name}`
        : operation.kind === 'read'
          ? `read ${operation.uri}`
          : operation.kind === 'prompt'
            ? `prompt ${operation.name}`
            : `list ${operation.list}`
    const count = (names.get(base) ?? 0) + 1
    names.set(base, count)
    const step: StepEntry = {
      ...(count > 1 ? { name: `${base} #${count}` } : {}),
      server: call.server.name,
      ...(operation.kind === 'call'
        ? { call: escapePlaceholders(operation.name) }
        : operation.kind === 'read'
          ? { read: escapePlaceholders(operation.uri) }
          : operation.kind === 'prompt'
            ? { prompt: escapePlaceholders(operation.name) }
            : { list: operation.list }),
      ...(call.arguments !== undefined && Object.keys(call.arguments).length > 0
        ? { arguments: escapePlaceholders(call.arguments) }
        : {}),
      ...(call.answers === undefined ? {} : { answers: escapePlaceholders(call.answers) }),
      ...(call.task ? { task: true } : {}),
    }
    const expect = expectationsOf(call.observation, operation, masks, hashTools)
    if (Object.keys(expect).length > 0) step.expect = expect
    steps.push(step)
  }
  return { servers, tools, steps, masks: patternsFound(calls.map((call) => call.observation.result)) }
}
