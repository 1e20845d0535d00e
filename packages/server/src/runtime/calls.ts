// How the runtime executes a call: argument validation (SEP-1303: bad arguments are a tool
// result with isError, naming each parameter), output validation against outputSchema, resource
// reads through the cache, prompt argument checks, the mapping of a handler's errors, and one
// trace entry per call. These are the context-taking entry points (RuntimeInternals) that the
// transports use and that runtime.ts wraps for in-process calls.

import { redactArguments } from '@mcp-kit/core'
import { formatProblems, SchemaError, type ValidationResult, validateArguments } from '@mcp-kit/schema'
import type { CallToolResult, GetPromptResult, ReadResourceResult } from '@modelcontextprotocol/server'
import { principalOf } from '../auth/principal.js'
import type { HandlerContext } from '../context.js'
import { errorMessage, ServerError } from '../errors.js'
import { isInputRequired } from '../protocol/input-required.js'
import type { RequestContext } from '../protocol/request-context.js'
import { printable, RpcFailure } from '../protocol/rpc.js'
import type { ResourceTemplateDefinition, ToolRegistry } from '../registry/registry.js'
import type { TraceEntry, TraceKind } from '../trace.js'
import type { ResourceCache } from './resource-cache.js'
import { toCallToolResult, toGetPromptResult, toolErrorResult, toReadResourceResult } from './tool-output.js'
import type { RuntimeInternals, RuntimeOptions } from './types.js'

const passed = { ok: true } as const

type Checked = ValidationResult | { ok: false; broken: string }

/**
 * A value checked against one of a tool's schemas. The validator is compiled here, at the tool's
 * first call, and cached by the frozen schema's identity, so a registry of many tools starts
 * without compiling any. A schema that cannot be compiled is `broken`: the call fails, naming it.
 */
function check(name: string, field: string, value: unknown, schema: unknown): Checked {
  try {
    return validateArguments(value, schema)
  } catch (error) {
    if (!SchemaError.isInstance(error)) throw error
    const reason = error.message.replace(/^invalid input schema: /, '')
    return { ok: false, broken: `Tool '${name}' has an invalid ${field}: ${reason}` }
  }
}

/**
 * Errors a handler's call must let through to the edge instead of turning them into a tool error
 * result: a 2026-07-28 round that needs input, a missing client capability (-32021), and a
 * protocol error about the request itself (invalid `inputResponses`: -32602).
 */
export function mustPropagate(error: unknown): boolean {
  return (
    isInputRequired(error) ||
    error instanceof RpcFailure ||
    (ServerError.isInstance(error) && error.code === 'missing_capability')
  )
}

function isTemplate(resource: object): resource is ResourceTemplateDefinition {
  return typeof (resource as ResourceTemplateDefinition).uriTemplate === 'string'
}

/** The entry points that execute calls on `registry`; resource reads go through `cache`. */
export function createCalls(
  registry: ToolRegistry,
  options: RuntimeOptions,
  cache: ResourceCache,
): RuntimeInternals {
  const onTrace = options.onTrace
  const serverName = options.serverName ?? registry.serverInfo.name ?? 'mcp-kit'

  function trace(
    kind: TraceKind,
    name: string,
    args: Record<string, unknown>,
    startedAt: number,
    startedClock: number,
    errorCode?: string,
    message?: string,
    context?: HandlerContext,
  ): void {
    if (onTrace === undefined) return
    const entry: TraceEntry = {
      ts_ms: startedAt,
      kind,
      name,
      ok: errorCode === undefined,
      latency_ms: Math.round((performance.now() - startedClock) * 1000) / 1000,
      args: options.redactTraceArguments ? redactArguments(args) : args,
      server: serverName,
    }
    if (errorCode !== undefined) {
      entry.error_code = errorCode
      entry.error_message = message
    }
    const annotations = (context as RequestContext | undefined)?.traceAnnotations
    if (annotations !== undefined) {
      if (annotations.upstream !== undefined) entry.upstream = annotations.upstream
      if (annotations.upstream_ms !== undefined) {
        entry.upstream_ms = Math.round(annotations.upstream_ms * 1000) / 1000
        entry.gateway_ms = Math.max(0, Math.round((entry.latency_ms - annotations.upstream_ms) * 1000) / 1000)
      }
    }
    try {
      onTrace(entry)
    } catch {
      // A failing trace sink must not fail the call it describes.
    }
  }

  function cancelledError(what: string): ServerError {
    return new ServerError('cancelled', `${what} was cancelled`)
  }

  async function callTool(
    name: string,
    args: Record<string, unknown>,
    context: HandlerContext,
  ): Promise<CallToolResult> {
    const tracing = onTrace !== undefined
    const startedAt = tracing ? Date.now() : 0
    const startedClock = tracing ? performance.now() : 0
    const tool = registry.tools.get(name) ?? (await registry.resolveTool(name, context.signal))
    if (tool === undefined) {
      const error = new ServerError('tool_not_found', `Unknown tool: ${printable(name)}`, {
        details: { tool: name },
      })
      if (tracing) trace('tool_call', name, args, startedAt, startedClock, error.code, error.message)
      throw error
    }
    let errorCode: string | undefined
    let result: CallToolResult
    const checked = tool.passthrough === true ? passed : check(name, 'inputSchema', args, tool.inputSchema)
    if (!checked.ok) {
      const broken = 'broken' in checked
      errorCode = broken ? 'invalid_definition' : 'invalid_arguments'
      result = toolErrorResult(
        broken ? checked.broken : `Invalid arguments for tool '${name}':\n${formatProblems(checked.errors)}`,
      )
    } else {
      try {
        result = toCallToolResult(await tool.handler(args, context))
      } catch (error) {
        if (mustPropagate(error)) throw error
        if (context.signal.aborted) {
          const cancelled = cancelledError(`tool '${name}'`)
          if (tracing)
            trace(
              'tool_call',
              name,
              args,
              startedAt,
              startedClock,
              cancelled.code,
              cancelled.message,
              context,
            )
          throw cancelled
        }
        errorCode = ServerError.isInstance(error) ? error.code : 'tool_error'
        result = toolErrorResult(errorMessage(error))
      }
      if (
        errorCode === undefined &&
        result.isError !== true &&
        tool.outputSchema !== undefined &&
        tool.passthrough !== true
      ) {
        if (result.structuredContent === undefined) {
          errorCode = 'tool_error'
          result = toolErrorResult(
            `Tool '${name}' declares an outputSchema but returned no structuredContent`,
          )
        } else {
          const output = check(name, 'outputSchema', result.structuredContent, tool.outputSchema)
          if (!output.ok) {
            const broken = 'broken' in output
            errorCode = broken ? 'invalid_definition' : 'tool_error'
            result = toolErrorResult(
              broken
                ? output.broken
                : `Tool '${name}' returned structuredContent that does not match its outputSchema:\n${formatProblems(output.errors)}`,
            )
          }
        }
      }
      if (errorCode === undefined && result.isError === true) errorCode = 'tool_error'
    }
    if (tracing) {
      const message = errorCode === undefined ? undefined : firstText(result)
      trace('tool_call', name, args, startedAt, startedClock, errorCode, message, context)
    }
    return result
  }

  async function readResource(uri: string, context: HandlerContext): Promise<ReadResourceResult> {
    const tracing = onTrace !== undefined
    const startedAt = tracing ? Date.now() : 0
    const startedClock = tracing ? performance.now() : 0
    try {
      const match = registry.findResource(uri)
      if (match === undefined) {
        throw new ServerError('resource_not_found', `Resource not found: ${printable(uri)}`, {
          details: { uri },
        })
      }
      const resource = match.resource
      const load = async (): Promise<ReadResourceResult> => {
        try {
          const output = isTemplate(resource)
            ? await resource.read(uri, match.variables, context)
            : await resource.read(uri, context)
          return toReadResourceResult(output, uri, resource.mimeType)
        } catch (error) {
          if (ServerError.isInstance(error) || mustPropagate(error)) throw error
          throw new ServerError('server_error', `reading ${printable(uri)} failed: ${errorMessage(error)}`, {
            cause: error,
          })
        }
      }
      // A private resource (the default scope) is cached per principal: one user's content never
      // answers another user's read.
      const owner = resource.cacheScope === 'public' ? undefined : principalOf(context.authInfo)
      const result =
        resource.ttlMs !== undefined && resource.ttlMs > 0
          ? await cache.read(uri, resource.ttlMs, load, owner)
          : await load()
      if (tracing)
        trace('resource_read', uri, { uri }, startedAt, startedClock, undefined, undefined, context)
      return result
    } catch (error) {
      if (mustPropagate(error)) throw error
      const failure = ServerError.isInstance(error)
        ? error
        : new ServerError('internal', errorMessage(error), { cause: error })
      if (tracing)
        trace('resource_read', uri, { uri }, startedAt, startedClock, failure.code, failure.message, context)
      throw failure
    }
  }

  async function getPrompt(
    name: string,
    args: Record<string, string>,
    context: HandlerContext,
  ): Promise<GetPromptResult> {
    const tracing = onTrace !== undefined
    const startedAt = tracing ? Date.now() : 0
    const startedClock = tracing ? performance.now() : 0
    try {
      const prompt = registry.prompts.get(name)
      if (prompt === undefined) {
        throw new ServerError('prompt_not_found', `Unknown prompt: ${printable(name)}`, {
          details: { prompt: name },
        })
      }
      const problems: string[] = []
      for (const argument of prompt.arguments ?? []) {
        const value = args[argument.name]
        if (value === undefined) {
          if (argument.required) problems.push(`missing required argument '${argument.name}'`)
        } else if (typeof value !== 'string') problems.push(`${argument.name}: must be a string`)
      }
      if (problems.length > 0) {
        throw new ServerError(
          'invalid_arguments',
          `Invalid arguments for prompt '${name}':\n${problems.join('\n')}`,
          { details: { problems } },
        )
      }
      let output: Awaited<ReturnType<typeof prompt.get>>
      try {
        output = await prompt.get(args, context)
      } catch (error) {
        if (ServerError.isInstance(error) || mustPropagate(error)) throw error
        throw new ServerError('server_error', `prompt '${name}' failed: ${errorMessage(error)}`, {
          cause: error,
        })
      }
      const result = toGetPromptResult(output, prompt.description)
      if (tracing) trace('prompt_get', name, args, startedAt, startedClock, undefined, undefined, context)
      return result
    } catch (error) {
      if (mustPropagate(error)) throw error
      const failure = ServerError.isInstance(error)
        ? error
        : new ServerError('internal', errorMessage(error), { cause: error })
      if (tracing)
        trace('prompt_get', name, args, startedAt, startedClock, failure.code, failure.message, context)
      throw failure
    }
  }

  return { callTool, readResource, getPrompt }
}

function firstText(result: CallToolResult): string | undefined {
  for (const item of result.content ?? []) if (item.type === 'text') return item.text
  return undefined
}
