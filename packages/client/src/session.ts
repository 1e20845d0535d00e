// A connected MCP session, the same object whichever protocol era the server speaks: lists (all
// pages, tools cached per session and filtered), calls with per-call and total timeouts that
// cancel on the wire, 2026-07-28 input rounds and Mcp-Param headers, normalized errors and
// trace entries. The protocol is our lean Connection over our own stdio and HTTP transports.

import type {
  CallToolResult,
  GetPromptResult,
  Implementation,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplateType as ResourceTemplate,
  ServerCapabilities,
  Tool,
} from '@modelcontextprotocol/client'
import type { Connection } from './connection.js'
import type { Era } from './era-cache.js'
import { ClientError } from './errors.js'
import type { InputHandler } from './input.js'
import { indexParamHeaders, type ParamHeaderIndex, withInputRounds } from './input-rounds.js'
import type { MessageTransport } from './message-transport.js'
import type { Negotiated } from './negotiate.js'
import type { ProcessTransport } from './process-transport.js'
import type { ServerSpec } from './server-spec.js'
import { describeExit, describeLimit, normalizeError } from './session-errors.js'
import {
  createdTask,
  followTask,
  type TaskDetails,
  type TaskLink,
  type TaskState,
  taskState,
} from './tasks.js'
import { redactArguments, type TraceEntry, type TraceKind, traceServerName } from './trace.js'
import { type WatchedNotification, type WatchOptions, watchedMethods } from './watch.js'

export { describeExit }

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
  /**
   * Called when a tool call became a task (the server handed out a task instead of the result),
   * and with each new state of it (status, status message) while the session follows it.
   */
  onTask?: (task: TaskState) => void
  /**
   * 2025-11-25: run a tool that offers tasks (`execution.taskSupport: optional`) as a task (tools
   * that require one always are). Under 2026-07-28 the server decides.
   */
  preferTask?: boolean
}

/** What `startTool` gives: the result, when the server answered at once, or the task to follow. */
export type ToolStart = { kind: 'result'; result: CallToolResult } | { kind: 'task'; task: TaskState }

/**
 * Options of one borrower of a shared session (`Session.borrow`): its own limits, cancellation,
 * traces and answers to the server's questions. The tools filter stays the session's.
 */
export interface BorrowOptions {
  /** Per-call limit in ms, reset by progress (default: the session's). */
  callTimeoutMs?: number
  /** A limit for everything this borrower does, in ms from now (`--max-time`). */
  totalTimeoutMs?: number
  /** Aborting cancels this borrower's requests, and only those. */
  signal?: AbortSignal
  onTrace?: (entry: TraceEntry) => void
  redactTraceArguments?: boolean
  /** Answers 2026-07-28 input rounds of this borrower's requests. */
  input?: InputHandler
  onDiagnostic?: (message: string) => void
  /**
   * Runs each tools/call, e.g. after waiting for a free call slot of a server that takes one call
   * at a time; `signal` aborts when the borrower gives up (Ctrl-C, --max-time).
   */
  schedule?: <T>(call: () => Promise<T>, signal: AbortSignal) => Promise<T>
}

export interface SessionOptions {
  callTimeoutMs: number
  /** A deadline for everything the session does (`--max-time`), as an absolute time in ms. */
  deadline: number | undefined
  signal: AbortSignal | undefined
  toolFilter: ToolFilter
  onTrace: ((entry: TraceEntry) => void) | undefined
  redactTraceArguments: boolean
  /** Answers the server's questions (elicitation, sampling, roots), in both eras. */
  input: InputHandler | undefined
  onDiagnostic: ((message: string) => void) | undefined
  schedule?: BorrowOptions['schedule']
}

/** What the borrowers of a session share with it: the server's lists and the watchers of its notifications. */
interface SharedState {
  readonly hints: Map<string, CacheHint>
  tools: Promise<Tool[]> | undefined
  paramHeaders: ParamHeaderIndex | undefined
  outputSchemas: Map<string, unknown>
  readonly watchers: Set<(notification: WatchedNotification) => void>
  /** Followers of tasks, woken by the server's notices about them (by task id). */
  readonly taskNotices: Map<string, Set<() => void>>
}

/** A 2026-07-28 cache hint of a list or discover result. */
export interface CacheHint {
  ttlMs: number
  scope: string
}

const maxPages = 1000
const neverAborted = new AbortController().signal

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
  /** `modern` (2026-07-28: stateless, per-request envelope) or `legacy` (an initialized session). */
  readonly era: Era
  readonly instructions: string | undefined
  /** Resolves once the connection is gone (closed by us, or the server went away). */
  readonly closed: Promise<void>

  readonly #connection: Connection
  readonly #transport: MessageTransport
  readonly #details: ConstructorParameters<typeof Session>[2]
  readonly #options: SessionOptions
  readonly #stopWatching: () => void
  readonly #shared: SharedState
  /** A borrower's own cancellation (undefined for the session itself, which cancels everything). */
  readonly #borrowed: AbortController | undefined
  #stopReason: ClientError | undefined
  #closing: Promise<void> | undefined
  /** Aborted when a limit of this session (or borrower) fires: wakes its task followers. */
  readonly #limits = new AbortController()

  constructor(
    connection: Connection,
    transport: MessageTransport,
    details: {
      server: ServerSpec
      transportKind: TransportKind
      negotiated: Negotiated
      closed: Promise<void>
    },
    options: SessionOptions,
    shared?: SharedState,
  ) {
    this.#connection = connection
    this.#transport = transport
    this.#options = options
    this.#borrowed = shared === undefined ? undefined : new AbortController()
    this.#shared = shared ?? {
      hints: new Map(),
      tools: undefined,
      paramHeaders: undefined,
      outputSchemas: new Map(),
      watchers: new Set(),
      taskNotices: new Map(),
    }
    this.#details = details
    this.server = details.server
    this.transportKind = details.transportKind
    this.era = details.negotiated.era
    this.protocolVersion = details.negotiated.protocolVersion
    this.serverInfo = details.negotiated.serverInfo
    this.capabilities = details.negotiated.capabilities ?? {}
    this.instructions = details.negotiated.instructions
    if (details.negotiated.cacheHint && shared === undefined)
      this.#shared.hints.set('server/discover', details.negotiated.cacheHint)
    this.closed = details.closed
    if (shared === undefined) connection.closeReason = () => this.#lostConnection()
    this.#stopWatching = this.#watchLimits()
  }

  /**
   * A view of this session for one of several users of its connection (mcp-kit's warm sessions):
   * the same server and cached lists, with its own limits, cancellation, traces and question
   * handler. Its limits and its `close()` cancel only its own requests; closing it leaves the
   * session open. Requests of different borrowers run side by side.
   */
  borrow(options: BorrowOptions = {}): Session {
    const base = this.#options
    return new Session(
      this.#connection,
      this.#transport,
      this.#details,
      {
        callTimeoutMs: options.callTimeoutMs ?? base.callTimeoutMs,
        deadline: options.totalTimeoutMs === undefined ? undefined : Date.now() + options.totalTimeoutMs,
        signal: options.signal,
        toolFilter: base.toolFilter,
        onTrace: options.onTrace,
        redactTraceArguments: options.redactTraceArguments ?? false,
        input: options.input,
        onDiagnostic: options.onDiagnostic,
        schedule: options.schedule,
      },
      this.#shared,
    )
  }

  /** The 2026-07-28 cache hints seen so far, by method (`server/discover`, `tools/list`, …). */
  get cacheHints(): ReadonlyMap<string, CacheHint> {
    return this.#shared.hints
  }

  /** Hands a server notification to the session (connect() routes them here). */
  receiveNotification(method: string, params: Record<string, unknown> | undefined): void {
    if (method === 'notifications/tools/list_changed') this.invalidateTools()
    if (method === 'notifications/tasks' || method === 'notifications/tasks/status') {
      for (const wake of this.#shared.taskNotices.get(String(params?.taskId)) ?? []) wake()
      return
    }
    if (!watchedMethods.has(method)) return
    for (const watcher of this.#shared.watchers) watcher({ method, params })
  }

  /**
   * Reports change notifications until `options.signal` aborts or the connection ends; resolves
   * then. 2026-07-28: a `subscriptions/listen` stream; 2025-11-25: the session's own
   * notifications plus `resources/subscribe` for `options.resources`.
   */
  async watch(
    onNotification: (notification: WatchedNotification) => void,
    options: WatchOptions = {},
  ): Promise<void> {
    const lists = options.lists ?? true
    const resources = [...(options.resources ?? [])]
    const signal = this.#withOwn(options.signal ?? this.#options.signal) ?? neverAborted
    this.#shared.watchers.add(onNotification)
    try {
      if (this.era === 'modern') {
        const notifications: Record<string, unknown> = {}
        if (lists) {
          notifications.toolsListChanged = true
          notifications.promptsListChanged = true
          notifications.resourcesListChanged = true
        }
        if (resources.length > 0) notifications.resourceSubscriptions = resources
        try {
          await this.#connection.request('subscriptions/listen', { notifications }, { timeoutMs: 0, signal })
        } catch (error) {
          if (signal.aborted) return
          throw normalizeError(error, {
            what: 'subscriptions/listen',
            timeoutMs: 0,
            signal,
            process: this.process,
            connectionClosed: this.#connection.closed,
            lostConnection: () => this.#lostConnection(),
          })
        }
        return
      }
      for (const uri of resources)
        await this.#request(`resources/subscribe '${uri}'`, 'resources/subscribe', { uri }, {})
      await new Promise<void>((resolve) => {
        if (signal.aborted) return resolve()
        signal.addEventListener('abort', () => resolve(), { once: true })
        void this.closed.then(resolve)
      })
    } finally {
      this.#shared.watchers.delete(onNotification)
    }
  }

  /** Cancels every call in flight with `reason` (e.g. a question nobody could answer). */
  failPending(reason: ClientError): void {
    if (this.#borrowed) this.#borrowed.abort(reason)
    else this.#connection.cancelAll(reason)
  }

  /** The server's process, for stdio sessions (pid, exit status, stderr tail). */
  get process(): ProcessTransport | undefined {
    return this.transportKind === 'stdio' ? (this.#transport as ProcessTransport) : undefined
  }

  /** Forgets the cached tools list (also done on notifications/tools/list_changed). */
  invalidateTools(): void {
    this.#shared.tools = undefined
    this.#shared.paramHeaders = undefined
  }

  /** True when calls mirror x-mcp-header arguments into Mcp-Param headers (2026 over HTTP). */
  get #mirrorsHeaders(): boolean {
    return this.era === 'modern' && this.transportKind === 'streamable-http'
  }

  /** All tools (every page), fetched once per session and filtered by the session's tools filter. */
  listTools(): Promise<Tool[]> {
    if (this.#options.toolFilter !== null && this.#options.toolFilter.length === 0) return Promise.resolve([])
    const shared = this.#shared
    if (!shared.tools) {
      const pending = this.#listAll<Tool>('tools/list', 'tools').then(async (listed) => {
        for (const tool of listed) {
          if (typeof tool?.name !== 'string')
            throw new ClientError('protocol_error', 'tools/list: a tool has no name')
        }
        let tools = listed
        if (this.#mirrorsHeaders) {
          // Spec: a tool with invalid x-mcp-header annotations is left out, with a warning.
          const index = await indexParamHeaders(listed)
          for (const [name, problem] of index.invalid) {
            this.#options.onDiagnostic?.(`tools/list: leaving out tool '${name}': ${problem}`)
          }
          tools = listed.filter((tool) => !index.invalid.has(tool.name))
          shared.paramHeaders = index
        }
        shared.outputSchemas = new Map(
          tools.filter((tool) => tool.outputSchema).map((tool) => [tool.name, tool.outputSchema]),
        )
        return filterTools(tools, this.#options.toolFilter)
      })
      pending.catch(() => {
        if (shared.tools === pending) shared.tools = undefined
      })
      shared.tools = pending
    }
    return shared.tools
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
        const started = await this.#startTool(what, name, args, options)
        // A task runs on the server: following it holds no call slot (`schedule`).
        const result =
          started.kind === 'result' ? started.result : await this.#follow(what, started.task, options)
        requireArray(result, 'content', what)
        await this.#checkOutput(name, result, what)
        return result
      },
      (result) => (result.isError ? { code: 'tool_error', message: toolErrorText(result) } : undefined),
    )
  }

  /**
   * Calls a tool without following a task: the result when the server answered at once, or the
   * task it handed out (follow it later with `followTask`, read it with `getTask`).
   */
  async startTool(
    name: string,
    args: Record<string, unknown> = {},
    options: CallOptions = {},
  ): Promise<ToolStart> {
    const started = await this.#startTool(`tools/call '${name}'`, name, args, options)
    if (started.kind === 'result') requireArray(started.result, 'content', `tools/call '${name}'`)
    return started
  }

  /** A task's state now (`tasks/get`): its questions, and its result or error once it ended. */
  async getTask(taskId: string, options: CallOptions = {}): Promise<TaskDetails> {
    const what = `tasks/get '${taskId}'`
    return taskState(await this.#request(what, 'tasks/get', { taskId }, options), what)
  }

  /** Asks the server to cancel a task (`tasks/cancel`); cancellation is cooperative. */
  async cancelTask(taskId: string, options: CallOptions = {}): Promise<void> {
    await this.#request(`tasks/cancel '${taskId}'`, 'tasks/cancel', { taskId }, options)
  }

  /** Follows a task to its end (answering its questions) and returns its tool result. */
  async followTask(taskId: string, options: CallOptions = {}): Promise<CallToolResult> {
    const what = `task '${taskId}'`
    const result = await this.#follow(what, await this.getTask(taskId, options), options)
    return requireArray(result, 'content', what) as CallToolResult
  }

  readResource(uri: string, options: CallOptions = {}): Promise<ReadResourceResult> {
    const what = `resources/read '${uri}'`
    return this.#traced(
      'resource_read',
      uri,
      { uri },
      async () =>
        requireArray(
          await this.#rounds(what, 'resources/read', { uri }, options),
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
          await this.#rounds(what, 'prompts/get', { name, arguments: args }, options),
          'messages',
          what,
        ) as GetPromptResult,
    )
  }

  /** Closes the session; for stdio, shuts the server down (stdin EOF, SIGTERM, SIGKILL to its group). */
  close(): Promise<void> {
    if (this.#borrowed) {
      this.#closing ??= Promise.resolve().then(() => {
        this.#stopWatching()
        this.#borrowed?.abort(new ClientError('cancelled', 'the session was closed'))
      })
      return this.#closing
    }
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
      if (this.#borrowed) this.#borrowed.abort(reason)
      else this.#connection.cancelAll(reason)
      this.#limits.abort(reason)
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
      if (count === 0 && typeof result.ttlMs === 'number') {
        this.#shared.hints.set(method, {
          ttlMs: result.ttlMs,
          scope: typeof result.cacheScope === 'string' ? result.cacheScope : 'private',
        })
      }
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

  /** A tools/call up to its result or its task (2025: asking for a task when the tool wants one). */
  async #startTool(
    what: string,
    name: string,
    args: Record<string, unknown>,
    options: CallOptions,
  ): Promise<ToolStart> {
    let params: Record<string, unknown> = { name, arguments: args }
    const serverTasks = (this.capabilities as { tasks?: { requests?: { tools?: { call?: unknown } } } }).tasks
    if (this.era === 'legacy' && serverTasks?.requests?.tools?.call !== undefined) {
      const support = (await this.getTool(name).catch(() => undefined))?.execution?.taskSupport
      if (support === 'required' || (support === 'optional' && options.preferTask === true))
        params = { ...params, task: {} }
    }
    const schedule = this.#options.schedule
    const call = () => this.#callTool(what, params, options)
    const result = schedule
      ? await schedule(call, this.#withOwn(options.signal) ?? neverAborted)
      : await call()
    const task = createdTask(result, this.era)
    if (task !== undefined) return { kind: 'task', task }
    return { kind: 'result', result: result as CallToolResult }
  }

  /** Follows a task with the session's limits; a failed task's error reads like a failed call's. */
  async #follow(what: string, task: TaskState, options: CallOptions): Promise<CallToolResult> {
    const signal = this.#withOwn(
      options.signal === undefined
        ? this.#limits.signal
        : AbortSignal.any([this.#limits.signal, options.signal]),
    ) as AbortSignal
    const link: TaskLink = {
      era: this.era,
      input: this.#options.input,
      request: (label, method, params, timeoutMs) =>
        this.#request(label, method, params, {
          ...options,
          onProgress: undefined,
          timeoutMs: timeoutMs ?? options.timeoutMs,
        }),
      notices: (taskId, wake) => this.#noticesOf(taskId, wake),
      // Not the caller's signal nor the session's limits: they are why the task is cancelled.
      cancel: async (taskId) => {
        const timeoutMs = Math.min(options.timeoutMs ?? this.#options.callTimeoutMs, 5000)
        await this.#connection.request('tasks/cancel', { taskId }, { timeoutMs })
      },
    }
    try {
      return await followTask(link, task, { what, signal, onTask: options.onTask })
    } catch (error) {
      if (this.#stopReason !== undefined && error === this.#limits.signal.reason)
        throw describeLimit(this.#stopReason, what, options.timeoutMs ?? this.#options.callTimeoutMs)
      throw normalizeError(error, {
        what,
        timeoutMs: options.timeoutMs ?? this.#options.callTimeoutMs,
        signal,
        process: this.process,
        connectionClosed: this.#connection.closed,
        lostConnection: () => this.#lostConnection(),
      })
    }
  }

  /**
   * Wakes `wake` on the server's notices about a task: 2026-07-28 `notifications/tasks` on a
   * `subscriptions/listen` for it, 2025-11-25 `notifications/tasks/status` (sent or not).
   */
  #noticesOf(taskId: string, wake: () => void): () => void {
    const notices = this.#shared.taskNotices
    let listeners = notices.get(taskId)
    if (listeners === undefined) {
      listeners = new Set()
      notices.set(taskId, listeners)
    }
    listeners.add(wake)
    const listening = new AbortController()
    if (this.era === 'modern') {
      this.#connection
        .request(
          'subscriptions/listen',
          { notifications: { taskIds: [taskId] } },
          { timeoutMs: 0, signal: listening.signal },
        )
        .catch(() => {})
    }
    return () => {
      listening.abort()
      listeners.delete(wake)
      if (listeners.size === 0) notices.delete(taskId)
    }
  }

  /** tools/call with its Mcp-Param headers (2026 over HTTP), retried once after a header mismatch. */
  async #callTool(what: string, params: Record<string, unknown>, options: CallOptions): Promise<unknown> {
    if (!this.#mirrorsHeaders) return this.#rounds(what, 'tools/call', params, options)
    const name = params.name as string
    const args = params.arguments as Record<string, unknown>
    for (let attempt = 1; ; attempt++) {
      await this.listTools().catch(() => {})
      const headers = this.#shared.paramHeaders?.headersFor(name, args)
      try {
        return await this.#rounds(what, 'tools/call', params, options, headers)
      } catch (error) {
        // Spec: on HeaderMismatch re-read the tool's schema and retry with the right headers.
        const mismatch = ClientError.isInstance(error) && error.details?.rpcCode === -32020
        if (!mismatch || attempt > 1) throw error
        this.invalidateTools()
      }
    }
  }

  /** A request that may answer `input_required` (2026-07-28), run through its input rounds. */
  #rounds(
    what: string,
    method: string,
    params: Record<string, unknown>,
    options: CallOptions,
    headers?: Record<string, string>,
  ): Promise<unknown> {
    return withInputRounds(
      what,
      params,
      (round) => this.#request(what, method, round, options, headers),
      this.#options.input,
      this.#withOwn(options.signal ?? this.#options.signal) ?? neverAborted,
    )
  }

  /** Runs one request with the per-call timeout (reset by progress), the session limits and cancellation. */
  async #request(
    what: string,
    method: string,
    params: Record<string, unknown> | undefined,
    options: CallOptions,
    headers?: Record<string, string>,
  ): Promise<unknown> {
    const timeoutMs = options.timeoutMs ?? this.#options.callTimeoutMs
    if (this.#stopReason) throw describeLimit(this.#stopReason, what, timeoutMs)
    try {
      return await this.#connection.request(method, params, {
        timeoutMs,
        onProgress: options.onProgress,
        signal: this.#withOwn(options.signal),
        headers,
      })
    } catch (error) {
      throw normalizeError(error, {
        what,
        timeoutMs,
        signal: options.signal,
        process: this.process,
        connectionClosed: this.#connection.closed,
        lostConnection: () => this.#lostConnection(),
      })
    }
  }

  async #checkOutput(name: string, result: CallToolResult, what: string): Promise<void> {
    const schema = this.#shared.outputSchemas.get(name)
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

  /** A borrower's requests also end with its own cancellation (one signal for the connection to watch). */
  #withOwn(signal: AbortSignal | undefined): AbortSignal | undefined {
    const own = this.#borrowed?.signal
    if (own === undefined) return signal
    return signal === undefined ? own : AbortSignal.any([signal, own])
  }

  /** Why the connection went away: we closed it, or the server exited (with its last words). */
  #lostConnection(): ClientError {
    if (this.#closing) return new ClientError('cancelled', 'the session was closed')
    const exit = this.process?.exit
    if (!exit) return new ClientError('connect_failed', 'the connection to the server was lost')
    return new ClientError('server_exited', describeExit(exit, 'during the request'), {
      details: { exitCode: exit.code, signal: exit.signal, stderr: exit.stderrTail },
    })
  }
}

function toolErrorText(result: CallToolResult): string {
  const text = result.content
    ?.filter((item): item is { type: 'text'; text: string } => item.type === 'text')
    .map((item) => item.text)
    .join('\n')
  return text && text !== '' ? text : 'the tool reported an error'
}
