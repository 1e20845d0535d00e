// One MCP 2025-11-25 (and earlier) session: the `initialize` handshake and version negotiation,
// ping, the per-session log level, resource subscriptions, cancellation, list-changed and
// resource-updated notifications; the server-to-client requests (elicitation, sampling, roots)
// that a handler's questions become in this era are legacy-questions.ts's. Written instead of
// using the SDK's Server so both eras share one dispatch, one params check and one error
// mapping, and bad params get -32602 with one line instead of a zod dump.

import { type Era, isLegacyVersion, isRecord, latestLegacyVersion } from '@mcp-kit/core'
import type { ClientCapabilities, Implementation, LoggingLevel } from '../context.js'
import { rpcCodes, ServerError } from '../errors.js'
import { failureOf } from '../protocol/failure.js'
import { isInputRequired } from '../protocol/input-required.js'
import { checkNesting, loggingLevel, paramsObject, requiredString } from '../protocol/params.js'
import { RequestContext } from '../protocol/request-context.js'
import {
  errorResponse,
  invalidParams,
  methodNotFound,
  quotedId,
  type RequestId,
  RpcFailure,
  type RpcMessage,
  type RpcRequest,
} from '../protocol/rpc.js'
import { traceContextOf } from '../protocol/trace-context.js'
import type { ListCaller } from '../registry/types.js'
import { ClientQuestions, type QuestionOptions } from './legacy-questions.js'
import type { MethodHandler } from './methods.js'

/** What the session needs from the connection it runs on (an SDK-style Transport, seen from inside). */
export interface SessionChannel {
  /** `once`: a key shared by every instance sending the same notification, so it goes out once. */
  send(message: RpcMessage, options?: { relatedRequestId?: RequestId; once?: string }): Promise<void>
}

/** What a 2025 session is, apart from its connections: enough to serve it on any instance. */
export interface SessionState {
  /** Undefined until an initialize succeeded. */
  protocolVersion?: string
  clientInfo?: Implementation
  clientCapabilities?: ClientCapabilities
  logLevel?: LoggingLevel
  subscriptions: string[]
}

/** Per-message information from the transport (HTTP headers, the authenticated caller, SSE control). */
export interface MessageExtra {
  /** The message's era, when the transport classified it already (HTTP); else the protocol server does. */
  era?: Era
  authInfo?: import('../context.js').AuthInfo
  requestInfo?: { headers?: Record<string, string | string[] | undefined> }
  closeSSEStream?: () => void
  closeStandaloneSSEStream?: () => void
}

export interface LegacySessionOptions extends QuestionOptions {
  serverInfo: Implementation
  instructions?: string
  capabilities: Record<string, unknown>
  methods: ReadonlyMap<string, MethodHandler>
  sessionId?: string
  /** Starts following a resource a client subscribed to (the registry's watchResource). */
  watchResource?: (uri: string) => () => void
  /** Whether the caller may follow `uri` (the registry's followable: what its list view shows). */
  followable?: (uri: string, caller: ListCaller) => boolean
  /** Operator diagnostics (never sent to the client). */
  report?: (error: Error) => void
  /** Stores the session's state where other instances find it; awaited before a change is answered. */
  persist?: (state: SessionState) => Promise<void>
}

/** Requests that change what the session is (and so must be stored before they are answered). */
const stateChanging = new Set([
  'initialize',
  'logging/setLevel',
  'resources/subscribe',
  'resources/unsubscribe',
])

const era: Era = 'legacy'

export class LegacySession {
  readonly #channel: SessionChannel
  readonly #options: LegacySessionOptions
  readonly #inFlight = new Map<RequestId, AbortController>()
  readonly #questions: ClientQuestions
  readonly subscriptions = new Set<string>()
  readonly #unwatch = new Map<string, () => void>()
  #closed = false
  clientInfo: Implementation | undefined
  clientCapabilities: ClientCapabilities | undefined
  protocolVersion: string | undefined
  logLevel: LoggingLevel | undefined

  constructor(channel: SessionChannel, options: LegacySessionOptions) {
    this.#channel = channel
    this.#options = options
    this.#questions = new ClientQuestions(channel, options, () => this.#closed)
  }

  get initialized(): boolean {
    return this.protocolVersion !== undefined
  }

  state(): SessionState {
    return {
      protocolVersion: this.protocolVersion,
      clientInfo: this.clientInfo,
      clientCapabilities: this.clientCapabilities,
      logLevel: this.logLevel,
      subscriptions: [...this.subscriptions],
    }
  }

  /** Takes the state another instance stored (a session opened or changed there). */
  applyState(state: SessionState): void {
    this.protocolVersion = state.protocolVersion
    this.clientInfo = state.clientInfo
    this.clientCapabilities = state.clientCapabilities
    this.logLevel = state.logLevel
    const wanted = new Set(state.subscriptions)
    for (const uri of [...this.subscriptions]) if (!wanted.has(uri)) this.#unsubscribe(uri)
    for (const uri of wanted) this.#subscribe(uri)
  }

  /** Answers a request (asynchronously; the answer goes out on the channel). */
  handleRequest(request: RpcRequest, extra: MessageExtra = {}): void {
    const controller = new AbortController()
    if (this.#inFlight.has(request.id)) {
      void this.#answerError(
        request.id,
        new RpcFailure(
          rpcCodes.invalidRequest,
          `Invalid request: id ${quotedId(request.id)} is already in use`,
        ),
      )
      return
    }
    this.#inFlight.set(request.id, controller)
    void this.#answer(request, extra, controller)
  }

  /** False for a cancellation of a request not running here (it may run on another instance). */
  handleNotification(method: string, params: unknown): boolean {
    if (method === 'notifications/cancelled' && isRecord(params)) {
      const id = params.requestId
      if (typeof id === 'string' || typeof id === 'number') {
        const controller = this.#inFlight.get(id)
        if (controller === undefined) return false
        this.#inFlight.delete(id)
        controller.abort(new ServerError('cancelled', 'the client cancelled the request'))
      }
    }
    // notifications/initialized, roots/list_changed, progress: nothing to do.
    return true
  }

  /** False when no question of this session waits for this answer here. */
  handleResponse(message: { id: RequestId; result?: unknown; error?: unknown }): boolean {
    return this.#questions.handleResponse(message)
  }

  /** The ids of this session's questions to the client that wait for their answers. */
  pendingQuestions(): RequestId[] {
    return this.#questions.pending()
  }

  /**
   * Notifies the client (list changes, resource updates); errors are not interesting here.
   * `once`: see SessionChannel.send.
   */
  notify(method: string, params?: Record<string, unknown>, once?: string): void {
    if (this.#closed || !this.initialized) return
    const message =
      params === undefined ? { jsonrpc: '2.0' as const, method } : { jsonrpc: '2.0' as const, method, params }
    this.#channel.send(message, once === undefined ? undefined : { once }).catch(() => {})
  }

  /** Ends the session: in-flight handlers are aborted, questions to the client fail. */
  close(): void {
    if (this.#closed) return
    this.#closed = true
    const reason = new ServerError('cancelled', 'the session ended')
    for (const controller of this.#inFlight.values()) controller.abort(reason)
    this.#inFlight.clear()
    this.#questions.rejectAll(reason)
    for (const unwatch of this.#unwatch.values()) unwatch()
    this.#unwatch.clear()
  }

  async #answer(request: RpcRequest, extra: MessageExtra, controller: AbortController): Promise<void> {
    let result: Record<string, unknown>
    try {
      result = await this.#dispatch(request, extra, controller.signal)
      if (this.#options.persist !== undefined && stateChanging.has(request.method))
        await this.#options.persist(this.state())
    } catch (error) {
      if (this.#inFlight.get(request.id) !== controller) return // cancelled: nothing more is sent
      this.#inFlight.delete(request.id)
      // A failed initialize leaves a session that may be initialized again, on any instance.
      if (request.method === 'initialize' && this.#options.persist !== undefined)
        await this.#options.persist(this.state()).catch(() => {})
      const failure = isInputRequired(error)
        ? new RpcFailure(rpcCodes.internalError, 'Internal error')
        : failureOf(error, era, this.#options.report)
      await this.#answerError(request.id, failure)
      return
    }
    if (this.#inFlight.get(request.id) !== controller) return
    this.#inFlight.delete(request.id)
    await this.#channel
      .send({ jsonrpc: '2.0', id: request.id, result }, { relatedRequestId: request.id })
      .catch(() => {})
  }

  #answerError(id: RequestId, failure: RpcFailure): Promise<void> {
    return this.#channel.send(errorResponse(id, failure), { relatedRequestId: id }).catch(() => {})
  }

  async #dispatch(
    request: RpcRequest,
    extra: MessageExtra,
    signal: AbortSignal,
  ): Promise<Record<string, unknown>> {
    const params = paramsObject(request.params)
    checkNesting(params)
    switch (request.method) {
      case 'initialize':
        return this.#initialize(params)
      case 'ping':
        return {}
      case 'logging/setLevel':
        this.logLevel = loggingLevel(params.level, 'level')
        return {}
      case 'resources/subscribe': {
        const uri = requiredString(params, 'uri')
        // What the caller cannot see is unknown to it: the same answer as a read of it.
        if (this.#options.followable?.(uri, { authInfo: extra.authInfo }) === false)
          throw new ServerError('resource_not_found', 'Resource not found', { details: { uri } })
        this.#subscribe(uri)
        return {}
      }
      case 'resources/unsubscribe':
        this.#unsubscribe(requiredString(params, 'uri'))
        return {}
    }
    const method = this.#options.methods.get(request.method)
    if (method === undefined) throw methodNotFound(request.method)
    const meta = isRecord(params._meta) ? params._meta : undefined
    const token = meta?.progressToken
    const context = new RequestContext({
      signal,
      requestId: request.id,
      sessionId: this.#options.sessionId,
      authInfo: extra.authInfo,
      clientInfo: this.clientInfo,
      clientCapabilities: this.clientCapabilities,
      protocolVersion: this.protocolVersion,
      traceContext: traceContextOf(meta, headerOf(extra.requestInfo?.headers)),
      progressToken: typeof token === 'string' || typeof token === 'number' ? token : undefined,
      notify: (notification, notificationParams) =>
        this.#channel.send(
          { jsonrpc: '2.0', method: notification, params: notificationParams },
          { relatedRequestId: request.id },
        ),
      logLevel: this.logLevel,
      logAll: true,
      input: this.#questions.inputChannel(request.id, signal, () => this.clientCapabilities),
      closeStream: extra.closeSSEStream,
    })
    return method(params, context)
  }

  #subscribe(uri: string): void {
    this.subscriptions.add(uri)
    if (!this.#unwatch.has(uri) && this.#options.watchResource)
      this.#unwatch.set(uri, this.#options.watchResource(uri))
  }

  #unsubscribe(uri: string): void {
    this.subscriptions.delete(uri)
    this.#unwatch.get(uri)?.()
    this.#unwatch.delete(uri)
  }

  #initialize(params: Record<string, unknown>): Record<string, unknown> {
    if (this.initialized)
      throw new RpcFailure(rpcCodes.invalidRequest, 'Invalid request: the session is already initialized')
    const requested = requiredString(params, 'protocolVersion')
    const capabilities = params.capabilities
    if (capabilities !== undefined && !isRecord(capabilities))
      throw invalidParams("'capabilities' must be an object")
    const clientInfo = params.clientInfo
    if (clientInfo !== undefined && !isRecord(clientInfo))
      throw invalidParams("'clientInfo' must be an object")
    this.protocolVersion = isLegacyVersion(requested) ? requested : latestLegacyVersion
    this.clientCapabilities = (capabilities ?? {}) as ClientCapabilities
    this.clientInfo = clientInfo as Implementation | undefined
    const result: Record<string, unknown> = {
      protocolVersion: this.protocolVersion,
      capabilities: this.#options.capabilities,
      serverInfo: this.#options.serverInfo,
    }
    if (this.#options.instructions !== undefined) result.instructions = this.#options.instructions
    return result
  }
}

/** A header of the HTTP request that carried a message, by lower-case name (none over stdio). */
function headerOf(
  headers: Record<string, string | string[] | undefined> | undefined,
): ((name: string) => string | undefined) | undefined {
  if (headers === undefined) return undefined
  return (name) => {
    const value = headers[name]
    return Array.isArray(value) ? value[0] : value
  }
}
