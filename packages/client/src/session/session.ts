// A connected MCP session, the same object whichever era the server speaks: lists, calls with per-call
// and total limits that cancel on the wire, input rounds, tasks, watching, normalized errors and traces.

import type { Era } from '@mcp-kit/core'
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
import type { ClientError } from '../errors.js'
import type { Connection } from '../protocol/connection.js'
import type { MessageTransport } from '../protocol/message-transport.js'
import { type TaskDetails, taskState } from '../protocol/tasks.js'
import type { ServerSpec } from '../server-spec.js'
import type { ProcessTransport } from '../stdio/process-transport.js'
import { SessionChannel } from './channel.js'
import { describeExit } from './errors.js'
import { cachedTools, findTool, forgetTools, listAll } from './lists.js'
import { requireArray } from './results.js'
import { followWithinLimits } from './tasks.js'
import { callTool, startTool } from './tools.js'
import { traced, traceServerName } from './trace.js'
import type {
  BorrowOptions,
  CacheHint,
  CallOptions,
  Completion,
  CompletionReference,
  ListOptions,
  SessionDetails,
  SessionOptions,
  SharedState,
  ToolStart,
  TransportKind,
} from './types.js'
import { type WatchedNotification, type WatchOptions, watchChanges, watchedMethods } from './watch.js'

export { describeExit }

/**
 * What connect/ needs of a session and users must not reach (the package exports only the class):
 * filled in by the class's static block, which alone sees its private parts.
 */
export const sessionInternals = {} as {
  /** A session on a connection whose handshake is over. */
  open(
    connection: Connection,
    transport: MessageTransport,
    details: SessionDetails,
    options: SessionOptions,
  ): Session
  /** Hands it a server notification: list changes, task notices, watchers. */
  receiveNotification(session: Session, method: string, params: Record<string, unknown> | undefined): void
  /** Fails every call in flight with `reason` (a question nobody could answer). */
  failPending(session: Session, reason: ClientError): void
}

/**
 * A connected MCP session, in either protocol era: lists, calls, tasks, reads, prompts, watches.
 * `connect()` makes one.
 */
export class Session {
  static {
    sessionInternals.open = (...args) => new Session(...args)
    sessionInternals.receiveNotification = (session, method, params) =>
      session.#receiveNotification(method, params)
    sessionInternals.failPending = (session, reason) => session.#channel.failPending(reason)
  }

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

  readonly #channel: SessionChannel
  readonly #details: SessionDetails
  readonly #shared: SharedState

  private constructor(
    connection: Connection,
    transport: MessageTransport,
    details: SessionDetails,
    options: SessionOptions,
    shared?: SharedState,
  ) {
    this.#shared = shared ?? {
      hints: new Map(),
      tools: undefined,
      paramHeaders: undefined,
      outputSchemas: new Map(),
      repeatableTools: new Set(),
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
    this.#channel = new SessionChannel(
      connection,
      transport,
      details.transportKind,
      details.negotiated.era,
      options,
      shared !== undefined,
      traceServerName(details.server),
    )
  }

  /**
   * A view of this session for one of several users of its connection (say, commands sharing it):
   * the same server and cached lists, with its own limits, cancellation, traces and question
   * handler. Its limits and its `close()` cancel only its own requests; closing it leaves the
   * session open. Requests of different borrowers run side by side.
   */
  borrow(options: BorrowOptions = {}): Session {
    const base = this.#channel.options
    return new Session(
      this.#channel.connection,
      this.#channel.transport,
      this.#details,
      {
        callTimeoutMs: options.callTimeoutMs ?? base.callTimeoutMs,
        deadline: options.totalTimeoutMs === undefined ? undefined : Date.now() + options.totalTimeoutMs,
        signal: options.signal,
        toolFilter: base.toolFilter,
        onTrace: options.onTrace,
        redactTraceArguments: options.redactTraceArguments ?? false,
        input: options.input,
        inputTimeoutMs: options.inputTimeoutMs ?? base.inputTimeoutMs,
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

  #receiveNotification(method: string, params: Record<string, unknown> | undefined): void {
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
  watch(
    onNotification: (notification: WatchedNotification) => void,
    options: WatchOptions = {},
  ): Promise<void> {
    return watchChanges(this.#channel, this.#shared.watchers, this.closed, onNotification, options)
  }

  /** The server's process, for stdio sessions (pid, exit status, stderr tail). */
  get process(): ProcessTransport | undefined {
    return this.#channel.process
  }

  /** Forgets the cached tools list (also done on notifications/tools/list_changed). */
  invalidateTools(): void {
    forgetTools(this.#shared)
  }

  /** All tools (every page), fetched once per session and filtered by the session's tools filter. */
  listTools(): Promise<Tool[]> {
    return cachedTools(this.#channel, this.#shared)
  }

  /** One tool by name from the cached list, or undefined. */
  getTool(name: string): Promise<Tool | undefined> {
    return findTool(this.#channel, this.#shared, name)
  }

  /** All resources (every page; with `limit`, pages stop once that many are in). */
  listResources(options: ListOptions = {}): Promise<Resource[]> {
    return listAll(this.#channel, this.#shared.hints, 'resources/list', 'resources', options)
  }

  listResourceTemplates(options: ListOptions = {}): Promise<ResourceTemplate[]> {
    return listAll(
      this.#channel,
      this.#shared.hints,
      'resources/templates/list',
      'resourceTemplates',
      options,
    )
  }

  listPrompts(options: ListOptions = {}): Promise<Prompt[]> {
    return listAll(this.#channel, this.#shared.hints, 'prompts/list', 'prompts', options)
  }

  /**
   * Calls a tool. A result with `isError: true` is returned, not thrown (it is the tool's answer);
   * protocol, transport and timeout failures throw ClientError. When the tools were listed and
   * the tool declares an outputSchema, its structuredContent is checked against it.
   */
  callTool(
    name: string,
    args: Record<string, unknown> = {},
    options: CallOptions = {},
  ): Promise<CallToolResult> {
    return callTool(this.#channel, this.#shared, this.server, this.capabilities, name, args, options)
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
    const what = `tools/call '${name}'`
    const started = await startTool(this.#channel, this.#shared, this.capabilities, what, name, args, options)
    if (started.kind === 'result') requireArray(started.result, 'content', what)
    return started
  }

  /** A task's state now (`tasks/get`): its questions, and its result or error once it ended. */
  async getTask(taskId: string, options: CallOptions = {}): Promise<TaskDetails> {
    const what = `tasks/get '${taskId}'`
    return taskState(await this.#channel.request(what, 'tasks/get', { taskId }, options), what)
  }

  /** Asks the server to cancel a task (`tasks/cancel`); cancellation is cooperative. */
  async cancelTask(taskId: string, options: CallOptions = {}): Promise<void> {
    await this.#channel.request(`tasks/cancel '${taskId}'`, 'tasks/cancel', { taskId }, options)
  }

  /** Follows a task to its end (answering its questions) and returns its tool result. */
  async followTask(taskId: string, options: CallOptions = {}): Promise<CallToolResult> {
    const what = `task '${taskId}'`
    const task = await this.getTask(taskId, options)
    const result = await followWithinLimits(this.#channel, this.#shared.taskNotices, what, task, options)
    return requireArray(result, 'content', what) as CallToolResult
  }

  readResource(uri: string, options: CallOptions = {}): Promise<ReadResourceResult> {
    const what = `resources/read '${uri}'`
    return traced(
      this.#channel.options,
      this.server,
      'resource_read',
      uri,
      { uri },
      async () =>
        requireArray(
          await this.#channel.rounds(what, 'resources/read', { uri }, options),
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
    return traced(
      this.#channel.options,
      this.server,
      'prompt_get',
      name,
      args,
      async () =>
        requireArray(
          await this.#channel.rounds(what, 'prompts/get', { name, arguments: args }, options),
          'messages',
          what,
        ) as GetPromptResult,
    )
  }

  /**
   * Asks the server for completions of one argument (`completion/complete`): a prompt's argument
   * (`{ type: 'ref/prompt', name }`) or a resource template's variable (`{ type: 'ref/resource', uri }`).
   * `context.arguments` are the values already chosen. Values that are not strings are left out.
   */
  async complete(
    ref: CompletionReference,
    argument: { name: string; value: string },
    options: CallOptions & { context?: { arguments: Record<string, string> } } = {},
  ): Promise<Completion> {
    const { context, ...callOptions } = options
    const params = { ref, argument, ...(context === undefined ? {} : { context }) }
    const result = await this.#channel.request(
      'completion/complete',
      'completion/complete',
      params,
      callOptions,
    )
    const completion = (result as { completion?: Record<string, unknown> } | undefined)?.completion ?? {}
    const values = Array.isArray(completion.values)
      ? completion.values.filter((value): value is string => typeof value === 'string')
      : []
    return {
      values,
      ...(typeof completion.total === 'number' ? { total: completion.total } : {}),
      ...(typeof completion.hasMore === 'boolean' ? { hasMore: completion.hasMore } : {}),
    }
  }

  /** Closes the session; for stdio, shuts the server down (stdin EOF, SIGTERM, SIGKILL to its group). */
  close(): Promise<void> {
    return this.#channel.close()
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close()
  }
}
