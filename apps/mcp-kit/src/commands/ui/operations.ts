// What the page asks of a connected server, done with the CLI's own layers: arguments merged,
// coerced and validated by prepareArguments (@mcp-kit/schema, as `cat` does), tools found with
// findTool, prompts' arguments stringified as `cat` does; progress and tasks reported as events.

import type { CallToolResult, Tool } from '@mcp-kit/client'
import type { QueryArguments } from '@mcp-kit/profiles'
import { isKitError } from '../../base/errors.js'
import { prepareArguments, stringifyPromptArguments } from '../../session/call-arguments.js'
import type { ConnectionArguments } from '../../session/connection-flags.js'
import { findTool } from '../../session/tool-arguments.js'
import type { EventHub } from './events.js'
import type { ServerEntry } from './server-entry.js'

/** What a form sends: strings to coerce by the schema (as `key=value` words are), typed JSON values. */
export interface FormArguments {
  strings?: QueryArguments
  json?: Record<string, unknown>
}

export async function toolArguments(
  entry: ServerEntry,
  tool: string,
  form: FormArguments,
  args: ConnectionArguments,
): Promise<{ tool: Tool; arguments: Record<string, unknown> }> {
  const session = entry.requireSession()
  const found = await findTool(session, tool, entry.resolved as never, entry.io(), args)
  const warnings: string[] = []
  const prepared = await prepareArguments(
    tool,
    { query: form.strings ?? {}, json: form.json ?? {}, keyValues: {} },
    found.tool.inputSchema,
    { rawStrings: false, validate: true, warn: (message) => warnings.push(message) },
  )
  return { tool: found.tool, arguments: prepared }
}

/** Checks a form without calling: the arguments as they would be sent, or every problem. */
export async function validateForm(
  entry: ServerEntry,
  tool: string,
  form: FormArguments,
  args: ConnectionArguments,
): Promise<Record<string, unknown>> {
  try {
    return { ok: true, arguments: (await toolArguments(entry, tool, form, args)).arguments }
  } catch (error) {
    if (isKitError(error) && error.code === 'invalid_arguments')
      return { ok: false, message: error.message, problems: error.details?.problems ?? [] }
    throw error
  }
}

export interface CallContext {
  hub: EventHub
  args: ConnectionArguments
  /** Running calls by the page's call id, for cancel. */
  running: Map<string, AbortController>
}

export async function callTool(
  entry: ServerEntry,
  request: { tool: string; callId: string } & FormArguments,
  context: CallContext,
): Promise<Record<string, unknown>> {
  const { tool, arguments: callArguments } = await toolArguments(entry, request.tool, request, context.args)
  const session = entry.requireSession()
  const controller = new AbortController()
  context.running.set(request.callId, controller)
  const started = Date.now()
  const { hub } = context
  try {
    const result: CallToolResult = await session.callTool(request.tool, callArguments, {
      signal: controller.signal,
      onProgress: (progress) => hub.publish({ type: 'progress', callId: request.callId, progress }),
      onTask: (task) => hub.publish({ type: 'task', callId: request.callId, serverId: entry.id, task }),
    })
    return { ok: true, result, arguments: callArguments, latencyMs: Date.now() - started }
  } catch (error) {
    // The client checks structuredContent against the outputSchema: show what came back, too.
    const mismatch =
      isKitError(error) && error.code === 'protocol_error' && Array.isArray(error.details?.problems)
        ? { structuredContent: entry.lastResults.get('latest'), outputSchema: tool.outputSchema }
        : undefined
    return {
      ok: false,
      error: errorView(error),
      arguments: callArguments,
      latencyMs: Date.now() - started,
      mismatch,
    }
  } finally {
    context.running.delete(request.callId)
  }
}

export async function readResource(entry: ServerEntry, uri: string): Promise<Record<string, unknown>> {
  try {
    return { ok: true, result: await entry.requireSession().readResource(uri) }
  } catch (error) {
    return { ok: false, error: errorView(error) }
  }
}

export async function getPrompt(
  entry: ServerEntry,
  name: string,
  values: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const args = stringifyPromptArguments(values)
  try {
    return { ok: true, result: await entry.requireSession().getPrompt(name, args), arguments: args }
  } catch (error) {
    return { ok: false, error: errorView(error), arguments: args }
  }
}

/** An error as the page shows it: mcp-kit's code, the message, its details. */
export function errorView(error: unknown): Record<string, unknown> {
  if (isKitError(error)) return { code: error.code, message: error.message, details: error.details }
  if ((error as { name?: string })?.name === 'AbortError') return { code: 'cancelled', message: 'cancelled' }
  return { code: 'internal', message: (error as Error)?.message ?? String(error) }
}
