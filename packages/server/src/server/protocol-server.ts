// A ProtocolServer serves one message connection (stdio, one 2025-11-25 HTTP session, any
// SDK-style transport) in both eras: a request whose `_meta` claims a 2026-07-28 version is
// answered statelessly, everything else belongs to the connection's 2025-era session — so one
// stdio process serves both kinds of client (spec 2026-07-28 basic/versioning "dual-era").

import { isRecord } from '@mcp-kit/core'
import { eraOf } from '../protocol/era.js'
import type { RequestId, RpcMessage, RpcRequest } from '../protocol/rpc.js'
import type { RegistryEvent } from '../registry/registry.js'
import type { Runtime } from '../runtime/runtime.js'
import { createServerCore, type ProtocolServerOptions, type ServerCore } from './core.js'
import { LegacySession, type MessageExtra, type SessionState } from './legacy-session.js'

/** The transport shape a ProtocolServer runs on (the MCP SDK's Transport fits). */
export interface MessageTransport {
  start(): Promise<void>
  send(message: RpcMessage, options?: { relatedRequestId?: RequestId }): Promise<void>
  close(): Promise<void>
  onmessage?: ((message: RpcMessage, extra?: MessageExtra) => void) | undefined
  onclose?: (() => void) | undefined
  onerror?: ((error: Error) => void) | undefined
  sessionId?: string | undefined
  /** Present when the connection's 2025 session is shared by several instances (store/shared-sessions.ts). */
  sessionLink?: SessionLink | undefined
}

/** How a 2025 session served by several instances reaches the others. */
export interface SessionLink {
  /** The state stored by the instance that opened or last changed the session (an adopted session). */
  initial?: SessionState
  /** Names this instance in the ids of questions to the client. */
  questionTag: string
  /** Stores the session's state (awaited before a change is answered). */
  persist(state: SessionState): Promise<void>
  /** Notes a question this instance asks, so an answer reaching another instance is kept for it. */
  expectAnswer(questionId: RequestId): Promise<void>
  /** Passes a client's answer on to the instance that asked; false when none other did. */
  routeAnswer(message: RpcMessage & { id: RequestId }): boolean
  /** Tells the other instances that the client cancelled a request not running here. */
  broadcastCancel(params: Record<string, unknown>): void
  /** Set by the protocol server: takes a newer stored state. */
  refresh?: (state: SessionState) => void
  /** Set by the protocol server: an answer or a cancellation passed on by another instance. */
  deliver?: (message: RpcMessage) => void
  /** Set by the protocol server: the ids of the questions to the client still unanswered here. */
  pendingQuestions?: () => RequestId[]
}

/** Serves one connection in both eras. */
export class ProtocolServer {
  readonly #core: ServerCore
  readonly #modernInFlight = new Map<RequestId, AbortController>()
  readonly #onClose: (() => void) | undefined
  #legacy: LegacySession | undefined
  #transport: MessageTransport | undefined
  #stopListening: (() => void) | undefined
  /** Lists changed since the last flush, each with the change id other instances share (once keys). */
  #pendingLists = new Map<'tools' | 'resources' | 'prompts', string | undefined>()
  #closed = false

  constructor(core: ServerCore, onClose?: () => void) {
    this.#core = core
    this.#onClose = onClose
  }

  get transport(): MessageTransport | undefined {
    return this.#transport
  }

  /** The 2025-era session of this connection, once a client started one. */
  get session(): LegacySession | undefined {
    return this.#legacy
  }

  async connect(transport: MessageTransport): Promise<void> {
    this.#transport = transport
    transport.onmessage = (message, extra) => this.#receive(message, extra)
    transport.onclose = () => this.#closeDown()
    transport.onerror = (error) => this.#core.report?.(error)
    const link = transport.sessionLink
    // A shared session hears every instance's changes; each instance holding a copy of it sends
    // them, keyed by the change's id so the client gets each once.
    const shared = link === undefined ? undefined : this.#core.changes
    const onChange = (event: RegistryEvent) => {
      const session = this.#legacy
      if (session === undefined || !session.initialized) return
      const changeId = link === undefined ? undefined : (event as { id?: string }).id
      if (event.type === 'resource_updated') {
        if (session.subscriptions.has(event.uri))
          session.notify('notifications/resources/updated', { uri: event.uri }, changeId)
        return
      }
      if (this.#pendingLists.size === 0) queueMicrotask(() => this.#flushLists())
      if (!this.#pendingLists.has(event.list)) this.#pendingLists.set(event.list, changeId)
    }
    this.#stopListening =
      shared === undefined ? this.#core.runtime.registry.onChange(onChange) : shared.subscribe(onChange)
    if (link !== undefined) {
      if (link.initial !== undefined) this.#legacySession().applyState(link.initial)
      link.refresh = (state) => this.#legacySession().applyState(state)
      link.deliver = (message) => this.#receiveFromPeer(message)
      link.pendingQuestions = () => this.#legacy?.pendingQuestions() ?? []
    }
    await transport.start()
  }

  async close(): Promise<void> {
    if (this.#closed) return
    await this.#transport?.close()
    this.#closeDown()
  }

  #flushLists(): void {
    for (const [list, changeId] of this.#pendingLists)
      this.#legacy?.notify(`notifications/${list}/list_changed`, undefined, changeId && `${changeId}:${list}`)
    this.#pendingLists.clear()
  }

  /** An answer or cancellation another instance received for this session. */
  #receiveFromPeer(message: RpcMessage): void {
    if (this.#closed) return
    const value = message as unknown as Record<string, unknown>
    if (typeof value.method === 'string') {
      if (!('id' in value)) this.#legacy?.handleNotification(value.method, value.params)
      return
    }
    this.#legacy?.handleResponse(message as { id: RequestId })
  }

  #closeDown(): void {
    if (this.#closed) return
    this.#closed = true
    this.#stopListening?.()
    this.#legacy?.close()
    for (const controller of this.#modernInFlight.values()) controller.abort()
    this.#modernInFlight.clear()
    this.#onClose?.()
  }

  #legacySession(): LegacySession {
    const link = this.#transport?.sessionLink
    this.#legacy ??= new LegacySession(this.#transport as MessageTransport, {
      questionTag: link?.questionTag,
      questionTimeoutMs: this.#core.questionTimeoutMs,
      onAsk: link === undefined ? undefined : (id) => link.expectAnswer(id),
      persist: link === undefined ? undefined : (state) => link.persist(state),
      serverInfo: this.#core.serverInfo,
      instructions: this.#core.instructions,
      capabilities: this.#core.legacyCapabilities,
      methods: this.#core.methods,
      sessionId: this.#transport?.sessionId,
      watchResource: (uri) => this.#core.runtime.registry.watchResource(uri),
      followable: (uri, caller) => this.#core.runtime.registry.followable(uri, caller),
      report: this.#core.report,
    })
    return this.#legacy
  }

  #receive(message: RpcMessage, extra?: MessageExtra): void {
    if (this.#closed) return
    const value = message as unknown as Record<string, unknown>
    if (typeof value.method === 'string') {
      if ('id' in value) {
        const request = message as RpcRequest
        // A transport that classified the message already (HTTP) says so; the others leave it here.
        if ((extra?.era ?? eraOf('request', request.params)) === 'modern') this.#answerModern(request, extra)
        else this.#legacySession().handleRequest(request, extra)
        return
      }
      if (value.method === 'notifications/cancelled' && isRecord(value.params)) {
        const id = value.params.requestId as RequestId
        const controller = this.#modernInFlight.get(id)
        if (controller !== undefined) {
          this.#modernInFlight.delete(id)
          controller.abort()
          return
        }
      }
      const handled = this.#legacySession().handleNotification(value.method, value.params)
      if (!handled && isRecord(value.params)) this.#transport?.sessionLink?.broadcastCancel(value.params)
      return
    }
    const answer = message as RpcMessage & { id: RequestId }
    if (!(this.#legacy?.handleResponse(answer) ?? false)) this.#transport?.sessionLink?.routeAnswer(answer)
  }

  #answerModern(request: RpcRequest, extra: MessageExtra | undefined): void {
    const transport = this.#transport as MessageTransport
    const controller = new AbortController()
    this.#modernInFlight.set(request.id, controller)
    void this.#core.modern
      .handle(request, {
        authInfo: extra?.authInfo,
        signal: controller.signal,
        notify: (notification) => transport.send(notification, { relatedRequestId: request.id }),
      })
      .then(({ response }) => {
        // A cancelled request gets nothing more (spec: cancellation).
        if (this.#modernInFlight.get(request.id) !== controller) return
        this.#modernInFlight.delete(request.id)
        return transport.send(response, { relatedRequestId: request.id })
      })
      .catch((error: unknown) => this.#core.report?.(error as Error))
  }
}

/** A one-connection server over `runtime` (stdio, tests, any SDK-style transport). */
export function createProtocolServer(
  runtime: Runtime,
  options: ProtocolServerOptions & { onClose?: () => void } = {},
): ProtocolServer {
  return new ProtocolServer(createServerCore(runtime, options), options.onClose)
}
