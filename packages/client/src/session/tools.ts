// A session's tool calls: the tools filter, the trace entry, a task where a 2025 tool needs one, the call
// slot, Mcp-Param headers (retried once on a mismatch), a task followed, and the result checked.

import { rpcCodes } from '@mcp-kit/core'
import type { CallToolResult, ServerCapabilities } from '@modelcontextprotocol/client'
import { ClientError } from '../errors.js'
import { createdTask } from '../protocol/tasks.js'
import type { ServerSpec } from '../server-spec.js'
import { neverAborted, type SessionChannel } from './channel.js'
import { cachedTools, findTool, forgetTools } from './lists.js'
import { checkOutput, requireArray, toolErrorText } from './results.js'
import { followWithinLimits } from './tasks.js'
import { traced } from './trace.js'
import type { CallOptions, SharedState, ToolStart } from './types.js'

/** Session.callTool: a tools/call, its task followed; a result with `isError: true` is returned. */
export async function callTool(
  channel: SessionChannel,
  shared: SharedState,
  server: ServerSpec,
  capabilities: ServerCapabilities,
  name: string,
  args: Record<string, unknown>,
  options: CallOptions,
): Promise<CallToolResult> {
  const filter = channel.options.toolFilter
  if (filter !== null && !filter.includes(name)) {
    throw new ClientError('tool_not_found', `tool '${name}' is not in this session's tools filter`, {
      details: { tool: name },
    })
  }
  return traced(
    channel.options,
    server,
    'tool_call',
    name,
    args,
    async () => {
      const what = `tools/call '${name}'`
      const started = await startTool(channel, shared, capabilities, what, name, args, options)
      // A task runs on the server: following it holds no call slot (`schedule`).
      const result =
        started.kind === 'result'
          ? started.result
          : await followWithinLimits(channel, shared.taskNotices, what, started.task, options)
      requireArray(result, 'content', what)
      await checkOutput(shared.outputSchemas, name, result, what)
      return result
    },
    (result) => (result.isError ? { code: 'tool_error', message: toolErrorText(result) } : undefined),
  )
}

/** A tools/call up to its result or its task (2025: asking for a task when the tool wants one). */
export async function startTool(
  channel: SessionChannel,
  shared: SharedState,
  capabilities: ServerCapabilities,
  what: string,
  name: string,
  args: Record<string, unknown>,
  options: CallOptions,
): Promise<ToolStart> {
  let params: Record<string, unknown> = { name, arguments: args }
  const serverTasks = (capabilities as { tasks?: { requests?: { tools?: { call?: unknown } } } }).tasks
  if (channel.era === 'legacy' && serverTasks?.requests?.tools?.call !== undefined) {
    const support = (await findTool(channel, shared, name).catch(() => undefined))?.execution?.taskSupport
    if (support === 'required' || (support === 'optional' && options.preferTask === true))
      params = { ...params, task: {} }
  }
  const schedule = channel.options.schedule
  const call = () => callWithHeaders(channel, shared, what, params, options)
  const result = schedule
    ? await schedule(call, channel.withOwn(options.signal) ?? neverAborted)
    : await call()
  const task = createdTask(result, channel.era)
  if (task !== undefined) return { kind: 'task', task }
  return { kind: 'result', result: result as CallToolResult }
}

/** tools/call with its Mcp-Param headers (2026 over HTTP), retried once after a header mismatch. */
async function callWithHeaders(
  channel: SessionChannel,
  shared: SharedState,
  what: string,
  params: Record<string, unknown>,
  options: CallOptions,
): Promise<unknown> {
  const name = params.name as string
  // Only a tool of the list the session fetched can be vouched for; one it does not know is not.
  const repeatable = () => shared.repeatableTools.has(name)
  if (!channel.mirrorsHeaders)
    return channel.rounds(what, 'tools/call', params, options, { repeatable: repeatable() })
  const args = params.arguments as Record<string, unknown>
  for (let attempt = 1; ; attempt++) {
    await cachedTools(channel, shared).catch(() => {})
    const headers = shared.paramHeaders?.headersFor(name, args)
    try {
      return await channel.rounds(what, 'tools/call', params, options, { headers, repeatable: repeatable() })
    } catch (error) {
      // Spec: on HeaderMismatch re-read the tool's schema and retry with the right headers.
      const mismatch = ClientError.isInstance(error) && error.details?.rpcCode === rpcCodes.headerMismatch
      if (!mismatch || attempt > 1) throw error
      forgetTools(shared)
    }
  }
}
