// The runtime executes a registry: argument validation (SEP-1303: bad arguments are a tool
// result with isError, naming each parameter), output validation against outputSchema, the
// resource cache, prompt argument checks, completions and trace entries. The transports call
// it for every request, and applications can call it in-process (the "embedded runtime"), so
// both paths give the same results, errors and traces.

import { formatProblems, validateArguments } from '@mcp-kit/schema'
import type {
  CallToolResult,
  GetPromptResult,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplateType as ResourceTemplate,
  Tool,
} from '@modelcontextprotocol/server'
import type {
  AuthInfo,
  ElicitationRequest,
  ElicitResult,
  HandlerContext,
  InputRequest,
  ListRootsResult,
  LoggingLevel,
  SamplingRequest,
  SamplingResult,
} from './context.js'
import { ServerError } from './errors.js'
import { isInputRequired } from './protocol/input-required.js'
import { RequestContext } from './protocol/request-context.js'
import { printable, RpcFailure } from './protocol/rpc.js'
import type { ResourceTemplateDefinition, ToolDefinition, ToolRegistry } from './registry.js'
import { createResourceCache, type ResourceCache } from './resource-cache.js'
import { toCallToolResult, toGetPromptResult, toolErrorResult, toReadResourceResult } from './tool-output.js'
import { redactArguments, type TraceEntry, type TraceKind } from './trace.js'

export interface RuntimeOptions {
  /** Receives one entry per tool call, resource read and prompt get. */
  onTrace?: (entry: TraceEntry) => void
  /** The `server` field of trace entries (default "mcp-kit"). */
  serverName?: string
  /** Write "[redacted]" instead of argument values in traces. */
  redactTraceArguments?: boolean
  /** Clock for the resource cache, in ms (default Date.now). */
  now?: () => number
}

/** How an in-process call reaches back to its caller (the wire equivalents are notifications and requests). */
export interface RuntimeCallOptions {
  signal?: AbortSignal
  onProgress?: (progress: { progress: number; total?: number; message?: string }) => void
  onLog?: (message: { level: LoggingLevel; data: unknown; logger?: string }) => void
  /** Answers the handler's sampling requests; without it `context.sample` throws `unsupported`. */
  sample?: (request: SamplingRequest) => Promise<SamplingResult>
  /** Answers the handler's elicitation requests; without it `context.elicit` throws `unsupported`. */
  elicit?: (request: ElicitationRequest) => Promise<ElicitResult>
  /** Answers the handler's roots requests; without it `context.listRoots` throws `unsupported`. */
  listRoots?: () => Promise<ListRootsResult>
  sessionId?: string
  authInfo?: AuthInfo
}

export type CompletionReference = { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string }

export interface Completion {
  values: string[]
  total: number
  hasMore: boolean
}

export interface Runtime {
  readonly registry: ToolRegistry
  /**
   * Calls a tool. Invalid arguments, a handler that throws and output that does not match the
   * outputSchema give an `isError` result; an unknown tool throws ServerError `tool_not_found`.
   */
  callTool(
    name: string,
    args?: Record<string, unknown>,
    options?: RuntimeCallOptions,
  ): Promise<CallToolResult>
  /** Reads a resource (static or templated); throws ServerError `resource_not_found`. */
  readResource(uri: string, options?: RuntimeCallOptions): Promise<ReadResourceResult>
  /** Gets a prompt; throws ServerError `prompt_not_found` or `invalid_arguments` (a required argument is missing). */
  getPrompt(
    name: string,
    args?: Record<string, string>,
    options?: RuntimeCallOptions,
  ): Promise<GetPromptResult>
  complete(
    reference: CompletionReference,
    argument: { name: string; value: string },
    contextArguments?: Record<string, string>,
  ): Promise<Completion>
  listTools(): Tool[]
  listResources(): Resource[]
  listResourceTemplates(): ResourceTemplate[]
  listPrompts(): Prompt[]
}

/** The context-taking entry points the transports use (not public API). */
export interface RuntimeInternals {
  callTool(name: string, args: Record<string, unknown>, context: HandlerContext): Promise<CallToolResult>
  readResource(uri: string, context: HandlerContext): Promise<ReadResourceResult>
  getPrompt(name: string, args: Record<string, string>, context: HandlerContext): Promise<GetPromptResult>
}

const internalsKey = Symbol('mcp-kit.runtime-internals')
const maximumCompletionValues = 100
const neverAborted = new AbortController().signal
const passed = { ok: true } as const

export function runtimeInternals(runtime: Runtime): RuntimeInternals {
  const internals = (runtime as unknown as Record<symbol, RuntimeInternals | undefined>)[internalsKey]
  if (internals === undefined) throw new ServerError('internal', 'not a runtime from createRuntime()')
  return internals
}

export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message
  if (typeof error === 'string') return error
  try {
    return JSON.stringify(error) ?? String(error)
  } catch {
    return String(error)
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

function unsupported(what: string): ServerError {
  return new ServerError('unsupported', `the client does not support ${what}`, { details: { feature: what } })
}

/** A context for an in-process call: questions go to the caller's callbacks. */
export function embeddedContext(options: RuntimeCallOptions = {}): HandlerContext {
  const answer = (request: InputRequest): Promise<unknown> => {
    switch (request.method) {
      case 'elicitation/create':
        return options.elicit ? options.elicit(request.params) : Promise.reject(unsupported('elicitation'))
      case 'sampling/createMessage':
        return options.sample ? options.sample(request.params) : Promise.reject(unsupported('sampling'))
      case 'roots/list':
        return options.listRoots ? options.listRoots() : Promise.reject(unsupported('roots'))
    }
  }
  return new RequestContext({
    signal: options.signal ?? neverAborted,
    requestId: undefined,
    sessionId: options.sessionId,
    authInfo: options.authInfo,
    logAll: true,
    notify: async (method, params) => {
      if (method === 'notifications/progress') {
        const { progress, total, message } = params as { progress: number; total?: number; message?: string }
        options.onProgress?.({ progress, total, message })
      } else if (method === 'notifications/message') {
        const { level, data, logger } = params as { level: LoggingLevel; data: unknown; logger?: string }
        options.onLog?.({ level, data, logger })
      }
    },
    progressToken: 0,
    input: {
      async ask(requests) {
        const keys = Object.keys(requests)
        const answers = await Promise.all(keys.map((key) => answer(requests[key] as InputRequest)))
        return Object.fromEntries(keys.map((key, index) => [key, answers[index]]))
      },
    },
  })
}

function listedTool(tool: ToolDefinition): Tool {
  const listed: Tool = {
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema as Tool['inputSchema'],
  }
  if (tool.title !== undefined) listed.title = tool.title
  if (tool.outputSchema !== undefined) listed.outputSchema = tool.outputSchema as Tool['outputSchema']
  if (tool.annotations !== undefined) listed.annotations = tool.annotations
  if (tool.icons !== undefined) listed.icons = tool.icons
  if (tool._meta !== undefined) listed._meta = tool._meta
  return listed
}

function withoutUndefined<T extends object>(value: T): T {
  for (const key of Object.keys(value) as Array<keyof T>) if (value[key] === undefined) delete value[key]
  return value
}

function isTemplate(resource: object): resource is ResourceTemplateDefinition {
  return typeof (resource as ResourceTemplateDefinition).uriTemplate === 'string'
}

export function createRuntime(registry: ToolRegistry, options: RuntimeOptions = {}): Runtime {
  const onTrace = options.onTrace
  const serverName = options.serverName ?? 'mcp-kit'
  const cache: ResourceCache = createResourceCache(options.now ?? Date.now)
  let tools: Tool[] | undefined
  let resources: Resource[] | undefined
  let templates: ResourceTemplate[] | undefined
  let prompts: Prompt[] | undefined
  registry.onChange((event) => {
    if (event.type === 'resource_updated') cache.invalidate(event.uri)
    else if (event.list === 'tools') tools = undefined
    else if (event.list === 'resources') {
      resources = undefined
      templates = undefined
    } else prompts = undefined
  })

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
    const tool = registry.tools.get(name)
    if (tool === undefined) {
      const error = new ServerError('tool_not_found', `Unknown tool: ${printable(name)}`, {
        details: { tool: name },
      })
      if (tracing) trace('tool_call', name, args, startedAt, startedClock, error.code, error.message)
      throw error
    }
    let errorCode: string | undefined
    let result: CallToolResult
    const check = tool.passthrough === true ? passed : validateArguments(args, tool.inputSchema)
    if (!check.ok) {
      errorCode = 'invalid_arguments'
      result = toolErrorResult(`Invalid arguments for tool '${name}':\n${formatProblems(check.errors)}`)
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
          const output = validateArguments(result.structuredContent, tool.outputSchema)
          if (!output.ok) {
            errorCode = 'tool_error'
            result = toolErrorResult(
              `Tool '${name}' returned structuredContent that does not match its outputSchema:\n${formatProblems(output.errors)}`,
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
      const result =
        resource.ttlMs !== undefined && resource.ttlMs > 0
          ? await cache.read(uri, resource.ttlMs, load)
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

  const internals: RuntimeInternals = { callTool, readResource, getPrompt }

  const runtime: Runtime = {
    registry,
    callTool: (name, args = {}, callOptions = {}) => callTool(name, args, embeddedContext(callOptions)),
    readResource: (uri, callOptions = {}) => readResource(uri, embeddedContext(callOptions)),
    getPrompt: (name, args = {}, callOptions = {}) => getPrompt(name, args, embeddedContext(callOptions)),
    async complete(reference, argument, contextArguments = {}) {
      let completer: ((value: string, context: { arguments: Record<string, string> }) => unknown) | undefined
      if (reference.type === 'ref/prompt') {
        const prompt = registry.prompts.get(reference.name)
        if (prompt === undefined) {
          throw new ServerError('prompt_not_found', `Unknown prompt: ${reference.name}`, {
            details: { prompt: reference.name },
          })
        }
        completer = prompt.arguments?.find((candidate) => candidate.name === argument.name)?.complete
      } else {
        const template = registry.resourceTemplates.get(reference.uri)
        if (template === undefined && !registry.resources.has(reference.uri)) {
          throw new ServerError('resource_not_found', `Resource template not found: ${reference.uri}`, {
            details: { uri: reference.uri },
          })
        }
        completer = template?.complete?.[argument.name]
      }
      if (completer === undefined) return { values: [], total: 0, hasMore: false }
      const values = await completer(argument.value, { arguments: contextArguments })
      if (!Array.isArray(values)) return { values: [], total: 0, hasMore: false }
      const strings = values.filter((value): value is string => typeof value === 'string')
      return {
        values: strings.slice(0, maximumCompletionValues),
        total: strings.length,
        hasMore: strings.length > maximumCompletionValues,
      }
    },
    listTools() {
      tools ??= [...registry.tools.values()].map(listedTool)
      return tools
    },
    listResources() {
      resources ??= [...registry.resources.values()].map(
        ({ uri, name, title, description, mimeType, size, annotations, icons, _meta }) =>
          withoutUndefined({ uri, name, title, description, mimeType, size, annotations, icons, _meta }),
      )
      return resources
    },
    listResourceTemplates() {
      templates ??= [...registry.resourceTemplates.values()].map(
        ({ uriTemplate, name, title, description, mimeType, annotations, icons, _meta }) =>
          withoutUndefined({ uriTemplate, name, title, description, mimeType, annotations, icons, _meta }),
      )
      return templates
    },
    listPrompts() {
      prompts ??= [...registry.prompts.values()].map(
        ({ name, title, description, arguments: promptArguments, icons, _meta }) =>
          withoutUndefined({
            name,
            title,
            description,
            arguments: promptArguments?.map(
              ({ name: argumentName, title: argumentTitle, description: text, required }) =>
                withoutUndefined({ name: argumentName, title: argumentTitle, description: text, required }),
            ),
            icons,
            _meta,
          }),
      )
      return prompts
    },
  }
  Object.defineProperty(runtime, internalsKey, { value: internals })
  return runtime
}

function firstText(result: CallToolResult): string | undefined {
  for (const item of result.content ?? []) if (item.type === 'text') return item.text
  return undefined
}
