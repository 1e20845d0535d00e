// The SDK Transport behind one Streamable HTTP session (spec 2025-11-25). It owns the exchanges:
// each POSTed request is an "exchange" answered lazily — as one JSON body when the handler
// sends nothing but its result and the client accepts JSON, or as an SSE stream as soon as a
// related notification or server→client request must reach the client first (or the client
// prefers SSE, or the call runs long). The streams themselves (SSE framing, the event log
// behind Last-Event-ID replay, the standalone GET stream) are streams.ts's.

import type { IncomingHttpHeaders, ServerResponse } from 'node:http'
import { resumableStreamsSince } from '@mcp-kit/core'
import type { AuthInfo } from '../../context.js'
import { rpcCodes } from '../../errors.js'
import type { RequestId, RpcMessage } from '../../protocol/rpc.js'
import type { MessageExtra } from '../../server/legacy-session.js'
import type { MessageTransport, SessionLink } from '../../server/protocol-server.js'
import type { SharedSessions } from '../../store/shared-sessions.js'
import { errorBody } from '../answers.js'
import type { Negotiation } from '../content-negotiation.js'
import type { StreamRecord } from './event-log.js'
import { SessionStreams, type StreamHub } from './streams.js'

/** What a session needs from the handler that owns it. */
export interface SessionHub extends StreamHub {
  /** Called when an exchange ends (answered, cancelled or abandoned). */
  exchangeEnded(): void
  now(): number
}

/** What a POST brings to a session besides its message (http/exchange.ts's Exchange is one). */
export interface Posted {
  readonly request: { readonly headers: IncomingHttpHeaders }
  readonly response: ServerResponse
  readonly negotiation: Negotiation
  /** Extra headers (CORS) to send with the answer. */
  readonly headers: readonly string[]
  readonly authInfo: AuthInfo | undefined
}

/** A POSTed request of the session, from its arrival until its answer went out. */
export interface SessionExchange {
  requestId: RequestId
  response: ServerResponse | undefined
  state: 'pending' | 'sse' | 'done'
  negotiation: Negotiation
  /** Extra headers (CORS) to send with the answer. */
  headers: readonly string[]
  record: StreamRecord | undefined
  startedAt: number
  isInitialize: boolean
}

function isResponse(message: RpcMessage): message is RpcMessage & { id: RequestId } {
  return !('method' in message) && 'id' in message
}

export class HttpSessionTransport implements MessageTransport {
  sessionId: string | undefined
  onclose?: () => void
  onerror?: (error: Error) => void
  onmessage?: (message: RpcMessage, extra?: MessageExtra) => void
  /** The version negotiated at initialize, or the request header's for stateless exchanges. */
  protocolVersion: string
  /**
   * When the session last got a request or finished answering one. Open streams do not count:
   * a client that only holds a GET stream is idle, so it cannot keep its slot forever.
   */
  lastActivity: number
  closed = false
  /** Set when several instances share the session (store/shared-sessions.ts). */
  sessionLink?: SessionLink
  /** When a shared session's copy here was last checked against the store (shared-sessions.ts). */
  storeCheckedAt?: number
  readonly exchanges = new Map<RequestId, SessionExchange>()
  readonly #hub: SessionHub
  readonly #streams: SessionStreams
  /** Where a shared session's standalone stream lives; undefined alone. */
  readonly #shared: SharedSessions | undefined
  readonly #jsonHeaders: string[]

  constructor(
    sessionId: string | undefined,
    protocolVersion: string,
    hub: SessionHub,
    shared?: SharedSessions,
  ) {
    this.sessionId = sessionId
    this.protocolVersion = protocolVersion
    this.#hub = hub
    this.lastActivity = hub.now()
    this.#shared = sessionId === undefined ? undefined : shared
    this.#streams = new SessionStreams(sessionId, hub, this.#shared, () => this.resumable)
    const session = sessionId === undefined ? [] : ['mcp-session-id', sessionId]
    this.#jsonHeaders = ['content-type', 'application/json', ...session]
  }

  /** True while the client's standalone GET stream is held here. */
  get holdsStandalone(): boolean {
    return this.#streams.holdsStandalone
  }

  get resumable(): boolean {
    return this.protocolVersion >= resumableStreamsSince
  }

  async start(): Promise<void> {}

  /** Hands a POSTed 2025 request to the protocol server; its answer goes to `posted.response`. */
  dispatchRequest(message: RpcMessage & { id: RequestId; method: string }, posted: Posted): void {
    const exchange: SessionExchange = {
      requestId: message.id,
      response: posted.response,
      state: 'pending',
      negotiation: posted.negotiation,
      headers: posted.headers,
      record: undefined,
      startedAt: this.#hub.now(),
      isInitialize: message.method === 'initialize',
    }
    this.exchanges.set(message.id, exchange)
    this.lastActivity = exchange.startedAt
    this.onmessage?.(message, {
      era: 'legacy',
      requestInfo: { headers: posted.request.headers },
      authInfo: posted.authInfo,
      closeSSEStream: () => this.closeStream(exchange),
      closeStandaloneSSEStream: () => this.closeStandalone(),
    })
  }

  /** Hands a POSTed notification or response to the protocol server (the POST gets 202). */
  dispatchOther(message: RpcMessage, posted: Posted): void {
    this.lastActivity = this.#hub.now()
    this.onmessage?.(message, {
      era: 'legacy',
      requestInfo: { headers: posted.request.headers },
      authInfo: posted.authInfo,
    })
    // The SDK drops the answer of a cancelled request; end its exchange so the POST does not hang.
    if ('method' in message && message.method === 'notifications/cancelled') {
      const requestId = (message.params as { requestId?: RequestId } | undefined)?.requestId
      const exchange = requestId === undefined ? undefined : this.exchanges.get(requestId)
      if (exchange !== undefined) this.#abandon(exchange)
    }
  }

  async send(message: RpcMessage, options?: { relatedRequestId?: RequestId; once?: string }): Promise<void> {
    if (this.closed) return
    if (isResponse(message)) {
      const exchange = this.exchanges.get(message.id)
      if (exchange === undefined) return
      if (exchange.isInitialize && 'result' in message) {
        const version = (message.result as { protocolVersion?: unknown }).protocolVersion
        if (typeof version === 'string') this.protocolVersion = version
      }
      this.#finish(exchange, JSON.stringify(message))
      return
    }
    const relatedId = options?.relatedRequestId
    if (relatedId !== undefined) {
      const exchange = this.exchanges.get(relatedId)
      if (exchange !== undefined) {
        if (exchange.negotiation.sse) {
          if (exchange.state === 'pending') this.#startStream(exchange)
          this.#streams.write(exchange.record as StreamRecord, JSON.stringify(message))
          return
        }
        // A JSON-only client cannot get notifications for this request; a request can still go
        // out on the standalone stream.
        if (!('id' in message)) return
      }
    }
    if (this.#shared !== undefined) {
      await this.#shared.appendStandalone(this.sessionId as string, JSON.stringify(message), options?.once)
      return
    }
    this.#streams.write(this.#streams.standalone, JSON.stringify(message))
  }

  /**
   * openStream for a session shared by several instances: the standalone stream comes from the
   * store, and a request stream written elsewhere is resumed from the store's copy.
   */
  openSharedStream(
    response: ServerResponse,
    headers: readonly string[],
    lastEventId: string | undefined,
  ): Promise<boolean> {
    return this.#streams.openShared(response, headers, lastEventId)
  }

  /** Opens (or replaces) the standalone GET stream, or resumes a stream from `lastEventId`. */
  openStream(response: ServerResponse, headers: readonly string[], lastEventId: string | undefined): boolean {
    return this.#streams.open(response, headers, lastEventId)
  }

  /** Ends the session: open exchanges get an error answer, streams end, the protocol server closes. */
  async close(): Promise<void> {
    if (this.closed) return
    for (const exchange of [...this.exchanges.values()]) {
      const why = 'Connection closed: the session ended'
      this.#finish(exchange, errorBody(rpcCodes.transportError, why, exchange.requestId))
    }
    this.closed = true
    this.closeStandalone()
    this.#streams.closeAll()
    this.onclose?.()
  }

  /** Switches exchanges pending since before `olderThan` to SSE, so keep-alives can flow (called by a timer). */
  upgradeSlowExchanges(olderThan: number): void {
    for (const exchange of this.exchanges.values()) {
      if (exchange.state === 'pending' && exchange.startedAt <= olderThan && exchange.negotiation.sse) {
        this.#startStream(exchange)
      }
    }
  }

  closeStream(exchange: SessionExchange): void {
    if (exchange.state === 'done' || !exchange.negotiation.sse || !this.resumable) return
    if (exchange.state === 'pending') this.#startStream(exchange)
    this.#streams.endLive(exchange.record as StreamRecord)
    exchange.response = undefined
  }

  closeStandalone(): void {
    this.#streams.closeStandalone()
  }

  #startStream(exchange: SessionExchange): void {
    exchange.record = this.#streams.start(exchange.requestId, exchange.response, exchange.headers)
    exchange.state = 'sse'
  }

  #finish(exchange: SessionExchange, text: string): void {
    this.exchanges.delete(exchange.requestId)
    const response = exchange.response
    if (exchange.state === 'pending') {
      exchange.state = 'done'
      this.#exchangeEnded()
      if (response === undefined || response.destroyed) return
      if (exchange.negotiation.json && !exchange.negotiation.prefersSse) {
        const headers = [
          ...this.#jsonHeaders,
          'content-length',
          String(Buffer.byteLength(text)),
          ...exchange.headers,
        ]
        response.writeHead(200, headers)
        response.end(text)
        return
      }
      this.#startStream(exchange)
      exchange.state = 'done'
    } else {
      exchange.state = 'done'
      this.#exchangeEnded()
    }
    this.#streams.finish(exchange.record as StreamRecord, text)
  }

  /** Ends an exchange without an answer (the client cancelled the request). */
  #abandon(exchange: SessionExchange): void {
    this.exchanges.delete(exchange.requestId)
    const pending = exchange.state === 'pending'
    exchange.state = 'done'
    this.#exchangeEnded()
    const response = exchange.response
    if (pending) {
      if (response !== undefined && !response.destroyed) {
        response.writeHead(202, this.#jsonHeaders.slice(2))
        response.end()
      }
      return
    }
    this.#streams.abandon(exchange.record as StreamRecord)
  }

  #exchangeEnded(): void {
    this.lastActivity = this.#hub.now()
    this.#hub.exchangeEnded()
  }
}
