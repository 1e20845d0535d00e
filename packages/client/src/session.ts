// A connected MCP session: lists (all pages, tools cached per session and filtered), calls with
// per-call and total timeouts that cancel on the wire, normalized errors and trace entries.
// The protocol is our lean Connection over our stdio transport or the SDK's HTTP transports.

import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import type {
  CallToolResult,
  GetPromptResult,
  Implementation,
  InitializeResult,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
  ServerCapabilities,
  Tool,
} from '@modelcontextprotocol/sdk/types.js'
import { type Connection, RpcError } from './connection.js'
import { ClientError, type ClientErrorCode } from './errors.js'
import type { ProcessTransport } from './process-transport.js'
import type { ServerSpec } from './server-spec.js'
import { redactArguments, type TraceEntry, type TraceKind, traceServerName } from './trace.js'

export type TransportKind = 'stdio' | 'streamable-http' | 'sse'

/** null = every tool, [] = none, names = only those. */
export type ToolFilter = readonly string[] | null

export interface Progress {
  progress: number
  total?: number
  message?: string
}

export interface ListOptions {
  /** Stop fetching pages once at least this many items are in. */
  limit?: number
}

export interface CallOptions {
  /** Per-call timeout in ms, reset whenever the server reports progress (default: the session's). */
  timeoutMs?: number
  signal?: AbortSignal
  onProgress?: (progress: Progress) => void
}

export interface SessionOptions {
  callTimeoutMs: number
  /** A deadline for everything the session does (`--max-time`), as an absolute time in ms. */
  deadline: number | undefined
  signal: AbortSignal | undefined
  toolFilter: ToolFilter
  onTrace: ((entry: TraceEntry) => void) | undefined
  redactTraceArguments: boolean
}

const maxPages = 1000

function seconds(milliseconds: number): string {
  return `${Math.round(milliseconds / 100) / 10} s`
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** Applies a tools filter: null = all, [] = none, names = only those. */
export function filterTools<T extends { name: string }>(tools: readonly T[], filter: ToolFilter): T[] {
  if (filter === null) return [...tools]
  const allowed = new Set(filter)
  return tools.filter((tool) => allowed.has(tool.name))
}

/** Checks the one field a result must have to be usable, instead of a full schema pass per message. */
function requireArray(result: unknown, field: string, what: string): Record<string, unknown> {
  if (!isObject(result) || !Array.isArray(result[field])) {
    throw new ClientError('protocol_error', `${what}: the server's result has no '${field}' list`)
  }
  return result
}

export class Session {
  readonly server: ServerSpec
  readonly transportKind: TransportKind
  readonly serverInfo: Implementation
  readonly capabilities: ServerCapabilities
  readonly protocolVersion: string
  readonly instructions: string | undefined
  /** Resolves once the connection is gone (closed by us, or the server went away). */
  readonly closed: Promise<void>

  readonly #connection: Connection
  readonly #transport: Transport
  readonly #options: SessionOptions
  readonly #stopWatching: () => void
  #stopReason: ClientError | undefined
  #tools: Promise<Tool[]> | undefined
  #outputSchemas = new Map<string, unknown>()
  #closing: Promise<void> | undefined

  constructor(
    connection: Connection,
    transport: Transport,
    details: {
      server: ServerSpec
      transportKind: TransportKind
      initialize: InitializeResult
      closed: Promise<void>
    },
    options: SessionOptions,
  ) {
    this.#connection = connection
    this.#transport = transport
    this.#options = options
    this.server = details.server
    this.transportKind = details.transportKind
    this.protocolVersion = details.initialize.protocolVersion
    this.serverInfo = details.initialize.serverInfo
    this.capabilities = details.initialize.capabilities ?? {}
    this.instructions = details.initialize.instructions
    this.closed = details.closed
    connection.closeReason = () => this.#lostConnection()
    this.#stopWatching = this.#watchLimits()
  }

  /** The server's process, for stdio sessions (pid, exit status, stderr tail). */
  get process(): ProcessTransport | undefined {
    return this.transportKind === 'stdio' ? (this.#transport as ProcessTransport) : undefined
  }

  /** Forgets the cached tools list (also done on notifications/tools/list_changed). */
  invalidateTools(): void {
    this.#tools = undefined
  }

  /** All tools (every page), fetched once per session and filtered by the session's tools filter. */
  listTools(): Promise<Tool[]> {
    if (this.#options.toolFilter !== null && this.#options.toolFilter.length === 0) return Promise.resolve([])
    if (!this.#tools) {
      const pending = this.#listAll<Tool>('tools/list', 'tools').then((tools) => {
        for (const tool of tools) {
          if (typeof tool?.name !== 'string')
            throw new ClientError('protocol_error', 'tools/list: a tool has no name')
        }
        this.#outputSchemas = new Map(
          tools.filter((tool) => tool.outputSchema).map((tool) => [tool.name, tool.outputSchema]),
        )
        return filterTools(tools, this.#options.toolFilter)
      })
      pending.catch(() => {
        if (this.#tools === pending) this.#tools = undefined
      })
      this.#tools = pending
    }
    return this.#tools
  }

  /** One tool by name from the cached list, or undefined. */
  async getTool(name: string): Promise<Tool | undefined> {
    return (await this.listTools()).find((tool) => tool.name === name)
  }

  /** All resources (every page; with `limit`, pages stop once that many are in). */
  listResources(options: ListOptions = {}): Promise<Resource[]> {
    return this.#listAll('resources/list', 'resources', options.limit)
  }

  listResourceTemplates(options: ListOptions = {}): Promise<ResourceTemplate[]> {
    return this.#listAll('resources/templates/list', 'resourceTemplates', options.limit)
  }

  listPrompts(options: ListOptions = {}): Promise<Prompt[]> {
    return this.#listAll('prompts/list', 'prompts', options.limit)
  }

  /**
   * Calls a tool. A result with `isError: true` is returned, not thrown (it is the tool's answer);
   * protocol, transport and timeout failures throw ClientError. When the tools were listed and
   * the tool declares an outputSchema, its structuredContent is checked against it.
   */
  async callTool(
    name: string,
    args: Record<string, unknown> = {},
    options: CallOptions = {},
  ): Promise<CallToolResult> {
    const filter = this.#options.toolFilter
    if (filter !== null && !filter.includes(name)) {
      throw new ClientError('tool_not_found', `tool '${name}' is not in this session's tools filter`, {
        details: { tool: name },
      })
    }
    return this.#traced(
      'tool_call',
      name,
      args,
      async () => {
        const what = `tools/call '${name}'`
        const result = requireArray(
          await this.#request(what, 'tools/call', { name, arguments: args }, options),
          'content',
          what,
        )
        await this.#checkOutput(name, result as CallToolResult, what)
        return result as CallToolResult
      },
      (result) => (result.isError ? { code: 'tool_error', message: toolErrorText(result) } : undefined),
    )
  }

  readResource(uri: string, options: CallOptions = {}): Promise<ReadResourceResult> {
    const what = `resources/read '${uri}'`
    return this.#traced(
      'resource_read',
      uri,
      { uri },
      async () =>
        requireArray(
          await this.#request(what, 'resources/read', { uri }, options),
          'contents',
          what,
        ) as ReadResourceResult,
    )
  }

  getPrompt(
    name: string,
    args: Record<string, string> = {},
    options: CallOptions = {},
  ): Promise<GetPromptResult> {
    const what = `prompts/get '${name}'`
    return this.#traced(
      'prompt_get',
      name,
      args,
      async () =>
        requireArray(
          await this.#request(what, 'prompts/get', { name, arguments: args }, options),
          'messages',
          what,
        ) as GetPromptResult,
    )
  }

  /** Closes the session; for stdio, shuts the server down (stdin EOF, SIGTERM, SIGKILL to its group). */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      this.#stopWatching()
      // An HTTP session is ended on the server too (DELETE), so it does not linger until it expires.
      const terminate = (this.#transport as { terminateSession?: () => Promise<void> }).terminateSession
      if (this.transportKind === 'streamable-http' && terminate && !this.#connection.closed) {
        await terminate.call(this.#transport).catch(() => {})
      }
      await this.#connection.close().catch(() => {})
    })()
    return this.#closing
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close()
  }

  /** One listener on the caller's signal and one timer for the deadline, for all requests. */
  #watchLimits(): () => void {
    const stop = (reason: ClientError) => {
      this.#stopReason ??= reason
      this.#connection.cancelAll(reason)
    }
    const signal = this.#options.signal
    const onAbort = () => stop(new ClientError('cancelled', 'cancelled'))
    signal?.addEventListener('abort', onAbort, { once: true })
    const deadline = this.#options.deadline
    const timer =
      deadline === undefined
        ? undefined
        : setTimeout(
            () =>
              stop(
                new ClientError('timeout', 'the total time limit (--max-time) was reached', {
                  details: { limit: 'total' },
                }),
              ),
            Math.max(0, deadline - Date.now()),
          )
    timer?.unref()
    return () => {
      signal?.removeEventListener('abort', onAbort)
      clearTimeout(timer)
    }
  }

  async #listAll<T>(method: string, key: string, limit = Number.POSITIVE_INFINITY): Promise<T[]> {
    const items: T[] = []
    const seen = new Set<string>()
    let cursor: string | undefined
    for (let count = 0; count < maxPages; count++) {
      const result = requireArray(
        await this.#request(method, method, cursor === undefined ? undefined : { cursor }, {}),
        key,
        method,
      )
      items.push(...(result[key] as T[]))
      const next = result.nextCursor
      if (typeof next !== 'string' || next === '' || items.length >= limit) return items
      if (seen.has(next))
        throw new ClientError(
          'protocol_error',
          `${method}: the server repeated page cursor ${JSON.stringify(next)}`,
        )
      seen.add(next)
      cursor = next
    }
    throw new ClientError('protocol_error', `${method}: more than ${maxPages} pages`)
  }

  /** Runs one request with the per-call timeout (reset by progress), the session limits and cancellation. */
  async #request(
    what: string,
    method: string,
    params: Record<string, unknown> | undefined,
    options: CallOptions,
  ): Promise<unknown> {
    const timeoutMs = options.timeoutMs ?? this.#options.callTimeoutMs
    if (this.#stopReason) throw this.#describe(this.#stopReason, what, timeoutMs)
    try {
      return await this.#connection.request(method, params, {
        timeoutMs,
        onProgress: options.onProgress,
        signal: options.signal,
      })
    } catch (error) {
      throw this.#normalize(error, what, timeoutMs, options.signal)
    }
  }

  async #checkOutput(name: string, result: CallToolResult, what: string): Promise<void> {
    const schema = this.#outputSchemas.get(name)
    if (schema === undefined || result.isError) return
    if (!isObject(result.structuredContent)) {
      throw new ClientError(
        'protocol_error',
        `${what}: the tool declares an outputSchema but returned no structuredContent`,
      )
    }
    const { formatProblems, validateArguments } = await import('@mcp-kit/schema')
    let check: ReturnType<typeof validateArguments>
    try {
      check = validateArguments(result.structuredContent, schema)
    } catch {
      return // the server's outputSchema does not compile: nothing to check against
    }
    if (!check.ok) {
      throw new ClientError(
        'protocol_error',
        `${what}: structuredContent does not match the tool's outputSchema: ${formatProblems(check.errors).split('\n').join('; ')}`,
        {
          details: { problems: check.errors },
        },
      )
    }
  }

  async #traced<T>(
    kind: TraceKind,
    name: string,
    args: Record<string, unknown>,
    run: () => Promise<T>,
    failureOf: (result: T) => { code: string; message: string } | undefined = () => undefined,
  ): Promise<T> {
    const onTrace = this.#options.onTrace
    if (!onTrace) return run()
    const started = Date.now()
    const startedPrecise = performance.now()
    const entry = (ok: boolean, failure?: { code: string; message: string }): TraceEntry => {
      const result: TraceEntry = {
        ts_ms: started,
        kind,
        name,
        ok,
        latency_ms: Math.round((performance.now() - startedPrecise) * 1000) / 1000,
        args: this.#options.redactTraceArguments && kind !== 'resource_read' ? redactArguments(args) : args,
        server: traceServerName(this.server),
      }
      if (failure) {
        result.error_code = failure.code
        result.error_message = failure.message
      }
      return result
    }
    try {
      const result = await run()
      const failure = failureOf(result)
      onTrace(entry(failure === undefined, failure))
      return result
    } catch (error) {
      const failure = ClientError.isInstance(error) ? error : new ClientError('internal', String(error))
      onTrace(entry(false, { code: failure.code, message: failure.message }))
      throw error
    }
  }

  /** Puts the request's name in front of a limit's message. */
  #describe(reason: ClientError, what: string, timeoutMs: number): ClientError {
    if (reason.code === 'timeout' && reason.details?.limit === 'call') {
      return new ClientError('timeout', `${what}: no response within ${seconds(timeoutMs)} (--timeout)`, {
        details: reason.details,
        cause: reason,
      })
    }
    return new ClientError(reason.code, `${what}: ${reason.message}`, {
      details: reason.details,
      cause: reason,
    })
  }

  /** Turns whatever the connection, the transport or the network threw into a ClientError. */
  #normalize(error: unknown, what: string, timeoutMs: number, signal: AbortSignal | undefined): ClientError {
    const process = this.process
    if (process?.failure) return process.failure
    if (signal?.aborted && error === signal.reason)
      return new ClientError('cancelled', `${what}: cancelled`, { cause: error })
    if (ClientError.isInstance(error)) {
      if (error.code === 'timeout' || error.code === 'cancelled')
        return this.#describe(error, what, timeoutMs)
      if (error.code === 'connect_failed' && !error.message.startsWith(what)) {
        return new ClientError(error.code, `${what}: ${error.message}`, {
          details: error.details,
          cause: error,
        })
      }
      return error
    }
    if (error instanceof RpcError) {
      const code = error.code
      const byCode: Record<number, ClientErrorCode> = {
        [-32602]: 'invalid_arguments',
        [-32601]: 'server_error',
      }
      // Servers answer an unknown tool with -32602 "Tool x not found" or "Unknown tool: x".
      if (code === -32602 && /unknown tool|tool\b.*\bnot found/i.test(error.message))
        byCode[-32602] = 'tool_not_found'
      const explanation =
        code === -32601 ? `the server does not support this request (${error.message})` : error.message
      return new ClientError(byCode[code] ?? 'server_error', `${what}: ${explanation}`, {
        details: { rpcCode: code, data: error.data },
        cause: error,
      })
    }
    const message = (error as Error)?.message ?? String(error)
    const status = (error as { code?: unknown }).code
    if (typeof status === 'number' && /Streamable HTTP error|SSE error/.test(message)) {
      return new ClientError(
        'http_error',
        `${what}: HTTP ${status}: ${message.replace(/^Streamable HTTP error: /, '')}`,
        { details: { status }, cause: error },
      )
    }
    if (this.#connection.closed || process?.exit) {
      const lost = this.#lostConnection()
      return new ClientError(lost.code, `${what}: ${lost.message}`, { details: lost.details, cause: error })
    }
    return new ClientError('internal', `${what}: ${message}`, { cause: error })
  }

  /** Why the connection went away: we closed it, or the server exited (with its last words). */
  #lostConnection(): ClientError {
    if (this.#closing) return new ClientError('cancelled', 'the session was closed')
    const exit = this.process?.exit
    if (!exit) return new ClientError('connect_failed', 'the connection to the server was lost')
    return new ClientError('connect_failed', describeExit(exit, 'during the request'), {
      details: { exitCode: exit.code, signal: exit.signal, stderr: exit.stderrTail },
    })
  }
}

/** "the server exited with code 1 <when>; its last stderr lines: …" */
export function describeExit(
  exit: { code: number | null; signal: NodeJS.Signals | null; stderrTail: string[] },
  when = '',
): string {
  const how = `${exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`}${when ? ` ${when}` : ''}`
  const tail = exit.stderrTail.filter((line) => line.trim() !== '').slice(-5)
  return tail.length === 0
    ? `the server ${how}`
    : `the server ${how}; its last stderr lines:\n  ${tail.join('\n  ')}`
}

function toolErrorText(result: CallToolResult): string {
  const text = result.content
    ?.filter((item): item is { type: 'text'; text: string } => item.type === 'text')
    .map((item) => item.text)
    .join('\n')
  return text && text !== '' ? text : 'the tool reported an error'
}
