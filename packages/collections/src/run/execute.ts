// Doing what a step says on a session — call a tool, read a resource, get a prompt, list — and
// keeping what came back as an Observation: the result as plain JSON without `_meta` and the
// 2026 `resultType`, or the error's code and message, the time it took, whether it became a task.

import type { Session } from '@mcp-kit/client'
import { plainJson } from '../assert/json-values.js'
import type { ListKind, Observation, Operation } from '../collection-types.js'

export interface Request {
  operation: Operation
  arguments: Record<string, unknown>
  /** Ask for a task (2025-11-25 tools that offer one). */
  task: boolean
}

export interface ExecuteOptions {
  signal: AbortSignal
  timeoutMs: number
}

/** Prompt arguments are strings on the wire: lists join with commas, other values go as JSON. */
export function promptArguments(values: Record<string, unknown>): Record<string, string> {
  const result: Record<string, string> = {}
  for (const [key, value] of Object.entries(values))
    result[key] =
      typeof value === 'string' ? value : Array.isArray(value) ? value.join(',') : JSON.stringify(value)
  return result
}

async function list(session: Session, kind: ListKind): Promise<unknown> {
  switch (kind) {
    case 'tools':
      // Fresh: a tools list cached earlier in the session would hide a change.
      session.invalidateTools()
      return { tools: await session.listTools() }
    case 'resources':
      return { resources: await session.listResources() }
    case 'templates':
      return { resourceTemplates: await session.listResourceTemplates() }
    case 'prompts':
      return { prompts: await session.listPrompts() }
  }
}

/** The result without what belongs to the protocol rather than the answer (the same in both eras). */
function withoutEnvelope(result: unknown): unknown {
  if (result === null || typeof result !== 'object' || Array.isArray(result)) return result
  const { _meta, resultType: _resultType, ...rest } = result as Record<string, unknown>
  return rest
}

function toolErrorText(result: { content?: Array<{ type: string; text?: string }> }): string {
  const text = (result.content ?? [])
    .filter((item) => item.type === 'text' && typeof item.text === 'string')
    .map((item) => item.text)
    .join('\n')
  return text === '' ? 'the tool reported an error' : text
}

/**
 * What a call's outcome is as a step observes it: the result without its envelope (a tool's
 * `isError` result is also the error `tool_error`), or a thrown error's code and message.
 */
export function observationOf(
  outcome: { result: unknown } | { error: unknown },
  latencyMs: number,
  task = false,
): Observation {
  if ('result' in outcome) {
    const plain = plainJson(withoutEnvelope(outcome.result))
    const observation: Observation = { result: plain, latencyMs, task }
    if ((plain as { isError?: unknown } | undefined)?.isError === true)
      observation.error = { code: 'tool_error', message: toolErrorText(plain as never) }
    return observation
  }
  const error = outcome.error
  const code =
    typeof (error as { code?: unknown })?.code === 'string' ? (error as { code: string }).code : 'internal'
  const rpcCode = (error as { details?: { rpcCode?: unknown } } | undefined)?.details?.rpcCode
  return {
    error: {
      code,
      message: (error as Error)?.message ?? String(error),
      ...(typeof rpcCode === 'number' ? { rpcCode } : {}),
    },
    latencyMs,
    task,
  }
}

export async function execute(
  session: Session,
  request: Request,
  options: ExecuteOptions,
): Promise<Observation> {
  const started = performance.now()
  let task = false
  const call = { signal: options.signal, timeoutMs: options.timeoutMs }
  try {
    const operation = request.operation
    let result: unknown
    switch (operation.kind) {
      case 'call':
        result = await session.callTool(operation.name, request.arguments, {
          ...call,
          preferTask: request.task || undefined,
          onTask: () => {
            task = true
          },
        })
        break
      case 'read':
        result = await session.readResource(operation.uri, call)
        break
      case 'prompt':
        result = await session.getPrompt(operation.name, promptArguments(request.arguments), call)
        break
      case 'list':
        result = await list(session, operation.list)
        break
    }
    return observationOf({ result }, performance.now() - started, task)
  } catch (error) {
    return observationOf({ error }, performance.now() - started, task)
  }
}
