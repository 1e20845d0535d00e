// One MCP protocol server (the SDK's Server) for one session, answering from a runtime. Never
// shared between clients: each session gets its own, so client capabilities, log level and
// resource subscriptions cannot leak from one client to another.

import { formatProblems, validateArguments } from '@mcp-kit/schema'
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js'
import {
  CallToolRequestSchema,
  type CallToolResult,
  type ClientCapabilities,
  CompleteRequestSchema,
  CreateMessageResultSchema,
  CreateMessageResultWithToolsSchema,
  ElicitResultSchema,
  GetPromptRequestSchema,
  type Implementation,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  type LoggingLevel,
  ReadResourceRequestSchema,
  type ServerNotification,
  type ServerRequest,
  SetLevelRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js'
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js'
import type {
  AuthInfo,
  ElicitationRequest,
  HandlerContext,
  SamplingRequest,
  SamplingResult,
} from './context.js'
import { rpcCodeFor, rpcCodes, ServerError } from './errors.js'
import type { ToolRegistry } from './registry.js'
import { errorMessage, type Runtime, runtimeInternals } from './runtime.js'

export interface ProtocolServerOptions {
  /** serverInfo.name (default "mcp-kit"). */
  name?: string
  /** serverInfo.version (default this package's version). */
  version?: string
  /** Told to the client at initialize: how to use this server. */
  instructions?: string
  /** Called once when the session closes (the server's own `onclose` is taken; do not replace it). */
  onClose?: () => void
}

export const packageVersion = '0.1.0'

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>

/** An error the SDK sends as is: numeric JSON-RPC code, message without the "MCP error" prefix. */
class WireError extends Error {
  readonly code: number
  readonly data: unknown
  constructor(code: number, message: string, data?: unknown) {
    super(message)
    this.code = code
    this.data = data
  }
}

function toWireError(error: unknown): Error {
  if (ServerError.isInstance(error)) return new WireError(rpcCodeFor(error), error.message)
  if (error instanceof Error && typeof (error as { code?: unknown }).code === 'number') return error
  return new WireError(rpcCodes.internalError, errorMessage(error))
}

const severity: Record<LoggingLevel, number> = {
  debug: 0,
  info: 1,
  notice: 2,
  warning: 3,
  error: 4,
  critical: 5,
  alert: 6,
  emergency: 7,
}

// The SDK's Server builds a fresh ajv (with formats) per instance unless given a validator;
// with one server per session that is a measurable cost. This one shares @mcp-kit/schema's cache.
const sharedValidator: jsonSchemaValidator = {
  getValidator(schema) {
    return (input) => {
      const result = validateArguments(input, schema)
      return result.ok
        ? { valid: true, data: input as never, errorMessage: undefined }
        : { valid: false, data: undefined, errorMessage: formatProblems(result.errors) }
    }
  },
}

interface SessionState {
  server: Server
  level: LoggingLevel | undefined
}

function unsupported(what: string): ServerError {
  return new ServerError('unsupported', `the client does not support ${what}`, { details: { feature: what } })
}

// A class, not a closure bag: one allocation per request on the hot path.
class WireContext implements HandlerContext {
  readonly #extra: Extra
  readonly #state: SessionState

  constructor(extra: Extra, state: SessionState) {
    this.#extra = extra
    this.#state = state
  }

  get signal(): AbortSignal {
    return this.#extra.signal
  }
  get requestId(): string | number {
    return this.#extra.requestId
  }
  get sessionId(): string | undefined {
    return this.#extra.sessionId
  }
  get authInfo(): AuthInfo | undefined {
    return this.#extra.authInfo
  }
  get clientInfo(): Implementation | undefined {
    return this.#state.server.getClientVersion()
  }
  get clientCapabilities(): ClientCapabilities | undefined {
    return this.#state.server.getClientCapabilities()
  }

  async progress(progress: number, total?: number, message?: string): Promise<void> {
    const progressToken = this.#extra._meta?.progressToken
    if (progressToken === undefined) return
    await this.#extra.sendNotification({
      method: 'notifications/progress',
      params: { progressToken, progress, total, message },
    })
  }

  async log(level: LoggingLevel, data: unknown, logger?: string): Promise<void> {
    const threshold = this.#state.level
    if (threshold !== undefined && severity[level] < severity[threshold]) return
    await this.#extra.sendNotification({ method: 'notifications/message', params: { level, data, logger } })
  }

  async sample(request: SamplingRequest): Promise<SamplingResult> {
    if (!this.#state.server.getClientCapabilities()?.sampling) throw unsupported('sampling')
    const schema = request.tools ? CreateMessageResultWithToolsSchema : CreateMessageResultSchema
    return await this.#extra.sendRequest({ method: 'sampling/createMessage', params: request }, schema)
  }

  async elicit(request: ElicitationRequest) {
    const capability = this.#state.server.getClientCapabilities()?.elicitation
    if (!capability) throw unsupported('elicitation')
    if (request.mode === 'url' && !capability.url) throw unsupported('URL elicitation')
    return await this.#extra.sendRequest(
      { method: 'elicitation/create', params: request },
      ElicitResultSchema,
    )
  }

  closeStream(): void {
    this.#extra.closeSSEStream?.()
  }
}

/** An SDK Server for one session, answering tools, resources, prompts, completions and logging from `runtime`. */
export function createProtocolServer(runtime: Runtime, options: ProtocolServerOptions = {}): Server {
  const registry: ToolRegistry = runtime.registry
  const internals = runtimeInternals(runtime)
  const server = new Server(
    { name: options.name ?? 'mcp-kit', version: options.version ?? packageVersion },
    {
      capabilities: {
        tools: { listChanged: true },
        resources: { subscribe: true, listChanged: true },
        prompts: { listChanged: true },
        logging: {},
        completions: {},
      },
      instructions: options.instructions,
      jsonSchemaValidator: sharedValidator,
      debouncedNotificationMethods: [
        'notifications/tools/list_changed',
        'notifications/resources/list_changed',
        'notifications/prompts/list_changed',
      ],
    },
  )
  const state: SessionState = { server, level: undefined }
  const subscriptions = new Set<string>()

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: runtime.listTools() }))
  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    try {
      return await internals.callTool(
        request.params.name,
        request.params.arguments ?? {},
        new WireContext(extra, state),
      )
    } catch (error) {
      throw toWireError(error)
    }
  })
  server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: runtime.listResources() }))
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
    resourceTemplates: runtime.listResourceTemplates(),
  }))
  server.setRequestHandler(ReadResourceRequestSchema, async (request, extra) => {
    try {
      return await internals.readResource(request.params.uri, new WireContext(extra, state))
    } catch (error) {
      throw toWireError(error)
    }
  })
  server.setRequestHandler(SubscribeRequestSchema, (request) => {
    subscriptions.add(request.params.uri)
    return {}
  })
  server.setRequestHandler(UnsubscribeRequestSchema, (request) => {
    subscriptions.delete(request.params.uri)
    return {}
  })
  server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts: runtime.listPrompts() }))
  server.setRequestHandler(GetPromptRequestSchema, async (request, extra) => {
    try {
      return await internals.getPrompt(
        request.params.name,
        request.params.arguments ?? {},
        new WireContext(extra, state),
      )
    } catch (error) {
      throw toWireError(error)
    }
  })
  server.setRequestHandler(CompleteRequestSchema, async (request) => {
    try {
      const { ref, argument, context } = request.params
      const reference =
        ref.type === 'ref/prompt'
          ? { type: 'ref/prompt' as const, name: ref.name }
          : { type: 'ref/resource' as const, uri: ref.uri }
      return { completion: await runtime.complete(reference, argument, context?.arguments) }
    } catch (error) {
      throw toWireError(error)
    }
  })
  // Replaces the SDK's own handler so the level is kept per session object, not per session id.
  server.setRequestHandler(SetLevelRequestSchema, (request) => {
    state.level = request.params.level
    return {}
  })

  const unsubscribe = registry.onChange((event) => {
    if (server.transport === undefined) return
    let sent: Promise<void>
    if (event.type === 'resource_updated') {
      if (!subscriptions.has(event.uri)) return
      sent = server.sendResourceUpdated({ uri: event.uri })
    } else if (event.list === 'tools') sent = server.sendToolListChanged()
    else if (event.list === 'resources') sent = server.sendResourceListChanged()
    else sent = server.sendPromptListChanged()
    sent.catch(() => {
      // The session may be closing; a lost notification is not an error worth reporting.
    })
  })
  server.onclose = () => {
    unsubscribe()
    options.onClose?.()
  }
  return server
}
