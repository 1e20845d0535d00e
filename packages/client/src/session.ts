// A connected MCP session: lists (all pages, tools cached per session and filtered), calls with
// per-call and total timeouts that cancel on the wire, normalized errors and trace entries.
// Protocol work is the MCP SDK's Client; transports are ours (stdio) or the SDK's (HTTP).

import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import type {
  CallToolResult,
  GetPromptResult,
  Implementation,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
  ServerCapabilities,
  Tool,
} from '@modelcontextprotocol/sdk/types.js'
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

type RequestOptions = NonNullable<Parameters<Client['request']>[2]>

function seconds(milliseconds: number): string {
  return `${Math.round(milliseconds / 100) / 10} s`
}

function rpcCode(error: unknown): number | undefined {
  return (error as Error)?.name === 'McpError' ? (error as { code: number }).code : undefined
}

/** Applies a tools filter: null = all, [] = none, names = only those. */
export function filterTools<T extends { name: string }>(tools: readonly T[], filter: ToolFilter): T[] {
  if (filter === null) return [...tools]
  const allowed = new Set(filter)
  return tools.filter((tool) => allowed.has(tool.name))
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

  readonly #client: Client
  readonly #transport: Transport
  readonly #options: SessionOptions
  #tools: Promise<Tool[]> | undefined
  #closing: Promise<void> | undefined

  constructor(
    client: Client,
    transport: Transport,
    details: {
      server: ServerSpec
      transportKind: TransportKind
      protocolVersion: string
      closed: Promise<void>
    },
    options: SessionOptions,
  ) {
    this.#client = client
    this.#transport = transport
    this.#options = options
    this.server = details.server
    this.transportKind = details.transportKind
    this.protocolVersion = details.protocolVersion
    this.closed = details.closed
    this.serverInfo = client.getServerVersion() ?? { name: 'unknown', version: 'unknown' }
    this.capabilities = client.getServerCapabilities() ?? {}
    this.instructions = client.getInstructions()
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
      const pending = this.#listAll<Tool>('tools/list', 'tools', (params, options) =>
        this.#client.listTools(params, options),
      ).then((tools) => filterTools(tools, this.#options.toolFilter))
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
    return this.#listAll(
      'resources/list',
      'resources',
      (params, request) => this.#client.listResources(params, request),
      options.limit,
    )
  }

  listResourceTemplates(options: ListOptions = {}): Promise<ResourceTemplate[]> {
    return this.#listAll(
      'resources/templates/list',
      'resourceTemplates',
      (params, request) => this.#client.listResourceTemplates(params, request),
      options.limit,
    )
  }

  listPrompts(options: ListOptions = {}): Promise<Prompt[]> {
    return this.#listAll(
      'prompts/list',
      'prompts',
      (params, request) => this.#client.listPrompts(params, request),
      options.limit,
    )
  }

  /**
   * Calls a tool. A result with `isError: true` is returned, not thrown (it is the tool's answer);
   * protocol, transport and timeout failures throw ClientError.
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
        const result = await this.#request(`tools/call '${name}'`, options, (requestOptions) =>
          this.#client.callTool({ name, arguments: args }, undefined, requestOptions),
        )
        return result as CallToolResult
      },
      (result) => (result.isError ? { code: 'tool_error', message: toolErrorText(result) } : undefined),
    )
  }

  readResource(uri: string, options: CallOptions = {}): Promise<ReadResourceResult> {
    return this.#traced('resource_read', uri, { uri }, () =>
      this.#request(`resources/read '${uri}'`, options, (requestOptions) =>
        this.#client.readResource({ uri }, requestOptions),
      ),
    )
  }

  getPrompt(
    name: string,
    args: Record<string, string> = {},
    options: CallOptions = {},
  ): Promise<GetPromptResult> {
    return this.#traced('prompt_get', name, args, () =>
      this.#request(`prompts/get '${name}'`, options, (requestOptions) =>
        this.#client.getPrompt({ name, arguments: args }, requestOptions),
      ),
    )
  }

  /** Closes the session; for stdio, shuts the server down (stdin EOF, SIGTERM, SIGKILL to its group). */
  close(): Promise<void> {
    // The transport too: after the server went away on its own the SDK no longer holds it.
    this.#closing ??= Promise.all([
      this.#client.close().catch(() => {}),
      this.#transport.close().catch(() => {}),
    ]).then(() => {})
    return this.#closing
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close()
  }

  async #listAll<T>(
    method: string,
    key: string,
    page: (params: { cursor: string } | undefined, options: RequestOptions) => Promise<object>,
    limit = Number.POSITIVE_INFINITY,
  ): Promise<T[]> {
    const items: T[] = []
    const seen = new Set<string>()
    let cursor: string | undefined
    for (let count = 0; count < maxPages; count++) {
      const params = cursor === undefined ? undefined : { cursor }
      const result = (await this.#request(method, {}, (options) => page(params, options))) as Record<
        string,
        unknown
      >
      items.push(...((result[key] as T[] | undefined) ?? []))
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

  /** Runs one request with the per-call timeout (reset by progress), the total deadline and cancellation. */
  async #request<T>(
    what: string,
    options: CallOptions,
    send: (requestOptions: RequestOptions) => Promise<T>,
  ): Promise<T> {
    const timeout = options.timeoutMs ?? this.#options.callTimeoutMs
    const deadline = this.#options.deadline
    const controller = new AbortController()
    let reason: 'total' | 'cancelled' | undefined
    const cleanups: Array<() => void> = []
    const abortWith = (why: 'total' | 'cancelled') => {
      reason ??= why
      controller.abort()
    }
    for (const signal of [this.#options.signal, options.signal]) {
      if (!signal) continue
      if (signal.aborted) abortWith('cancelled')
      const listener = () => abortWith('cancelled')
      signal.addEventListener('abort', listener, { once: true })
      cleanups.push(() => signal.removeEventListener('abort', listener))
    }
    if (deadline !== undefined) {
      const timer = setTimeout(() => abortWith('total'), Math.max(0, deadline - Date.now()))
      cleanups.push(() => clearTimeout(timer))
    }
    try {
      if (controller.signal.aborted) throw new Error('aborted before sending')
      return await send({
        timeout,
        resetTimeoutOnProgress: true,
        signal: controller.signal,
        // Always ask for progress: it keeps long calls alive (and the SDK sends a progressToken only when asked).
        onprogress: (progress: Progress) => options.onProgress?.(progress),
      })
    } catch (error) {
      if (reason === 'total') {
        throw new ClientError('timeout', `${what}: the total time limit (--max-time) was reached`, {
          details: { limit: 'total' },
          cause: error,
        })
      }
      if (reason === 'cancelled') throw new ClientError('cancelled', `${what}: cancelled`, { cause: error })
      throw this.#normalize(error, what, timeout)
    } finally {
      for (const cleanup of cleanups) cleanup()
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

  /** Turns whatever the SDK, the transport or the network threw into a ClientError. */
  #normalize(error: unknown, what: string, timeout: number): ClientError {
    if (ClientError.isInstance(error)) return error
    const process = this.process
    if (process?.failure) return process.failure
    const code = rpcCode(error)
    const message = (error as Error)?.message ?? String(error)
    if (code === -32001) {
      return new ClientError('timeout', `${what}: no response within ${seconds(timeout)} (--timeout)`, {
        details: { limit: 'call', timeoutMs: timeout },
        cause: error,
      })
    }
    if (code === -32000) {
      if (this.#closing)
        return new ClientError('cancelled', `${what}: the session was closed`, { cause: error })
      return this.#lostConnection(what, error)
    }
    if (code !== undefined) {
      const text = message.replace(/^MCP error -?\d+: /, '')
      const byCode: Record<number, ClientErrorCode> = {
        [-32602]: 'invalid_arguments',
        [-32601]: 'server_error',
      }
      // Servers answer an unknown tool with -32602 "Tool x not found" or "Unknown tool: x".
      if (code === -32602 && /unknown tool|tool\b.*\bnot found/i.test(text)) byCode[-32602] = 'tool_not_found'
      const explanation = code === -32601 ? `the server does not support this request (${text})` : text
      return new ClientError(byCode[code] ?? 'server_error', `${what}: ${explanation}`, {
        details: { rpcCode: code, data: (error as { data?: unknown }).data },
        cause: error,
      })
    }
    const status = (error as { code?: unknown }).code
    if (typeof status === 'number' && /Streamable HTTP error|SSE error/.test(message)) {
      return new ClientError(
        'http_error',
        `${what}: HTTP ${status}: ${message.replace(/^Streamable HTTP error: /, '')}`,
        {
          details: { status },
          cause: error,
        },
      )
    }
    if ((error as Error)?.name === 'ZodError' || (error as Error)?.name === '$ZodError') {
      return new ClientError(
        'protocol_error',
        `${what}: the server's response does not match the MCP schema: ${message.slice(0, 500)}`,
        { cause: error },
      )
    }
    if (process?.exit) return this.#lostConnection(what, error)
    return new ClientError('internal', `${what}: ${message}`, { cause: error })
  }

  #lostConnection(what: string, cause: unknown): ClientError {
    const exit = this.process?.exit
    if (!exit)
      return new ClientError('connect_failed', `${what}: the connection to the server was lost`, { cause })
    return new ClientError('connect_failed', `${what}: ${describeExit(exit, 'during the request')}`, {
      details: { exitCode: exit.code, signal: exit.signal, stderr: exit.stderrTail },
      cause,
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
