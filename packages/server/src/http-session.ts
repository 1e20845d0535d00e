// The SDK Transport behind one Streamable HTTP session (spec 2025-11-25). It owns the framing:
// each POSTed request is an "exchange" answered lazily — as one JSON body when the handler
// sends nothing but its result and the client accepts JSON, or as an SSE stream as soon as a
// related notification or server→client request must reach the client first (or the client
// prefers SSE, or the call runs long). SSE streams carry event ids, a `retry` hint and, for
// 2025-11-25 sessions, a priming event first. Events stay in a bounded log (sse-event-log.ts)
// until their stream has been delivered in full, so a client can resume with Last-Event-ID
// after a disconnect or a server-side close (SEP-1699).

import type { IncomingHttpHeaders, ServerResponse } from 'node:http'
import type { Negotiation } from './content-negotiation.js'
import type { AuthInfo } from './context.js'
import { rpcCodes } from './errors.js'
import { openSharedStandalone, requestMarker, resumeStoredStream } from './http-shared-streams.js'
import type { MessageExtra } from './protocol/legacy-session.js'
import type { RequestId, RpcMessage } from './protocol/rpc.js'
import type { MessageTransport, SessionLink } from './protocol/server.js'
import { SseEventLog, type StreamRecord } from './sse-event-log.js'
import type { SharedSessions } from './store/shared-sessions.js'

/** What a session needs from the handler that owns it. */
export interface SessionHub {
  /** The `retry:` hint (ms) sent with priming events: how soon a client reconnects. */
  retryMs: number
  /** How many SSE events a session keeps for Last-Event-ID replay. */
  maximumLoggedEvents: number
  /** How many bytes of SSE events a session keeps for replay. */
  maximumLoggedBytes: number
  /** SSE responses that get keep-alive comments. */
  liveStreams: Set<ServerResponse>
  /** Called when an exchange ends (answered, cancelled or abandoned). */
  exchangeEnded(): void
  now(): number
}

export interface Exchange {
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

const resumableSince = '2025-11-25'
const keepAliveComment = ': keep-alive\n\n'

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
  /** When a shared session's copy here was last checked against the store (http-shared-sessions.ts). */
  storeCheckedAt?: number
  readonly exchanges = new Map<RequestId, Exchange>()
  readonly #hub: SessionHub
  readonly #log: SseEventLog
  /** Where a shared session's standalone stream and request-stream copies live; undefined alone. */
  readonly #shared: SharedSessions | undefined
  /** A shared session's standalone stream held here, and how to stop following it. */
  #sharedStandalone: { response: ServerResponse; stop: () => void } | undefined
  readonly #jsonHeaders: string[]
  readonly #sseHeaders: string[]

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
    this.#log = new SseEventLog(
      this.#shared === undefined ? hub : { ...hub, streamPrefix: `${this.#shared.instance}.` },
    )
    const session = sessionId === undefined ? [] : ['mcp-session-id', sessionId]
    this.#jsonHeaders = ['content-type', 'application/json', ...session]
    this.#sseHeaders = [
      'content-type',
      'text/event-stream',
      'cache-control',
      'no-cache, no-transform',
      'x-accel-buffering',
      'no',
      ...session,
    ]
  }

  get resumable(): boolean {
    return this.protocolVersion >= resumableSince
  }

  async start(): Promise<void> {}

  /** Hands a POSTed request to the protocol server; its answer goes to `response`. */
  dispatchRequest(
    message: RpcMessage & { id: RequestId; method: string },
    response: ServerResponse,
    negotiation: Negotiation,
    headers: readonly string[],
    requestHeaders: IncomingHttpHeaders,
    authInfo: AuthInfo | undefined,
  ): void {
    const exchange: Exchange = {
      requestId: message.id,
      response,
      state: 'pending',
      negotiation,
      headers,
      record: undefined,
      startedAt: this.#hub.now(),
      isInitialize: message.method === 'initialize',
    }
    this.exchanges.set(message.id, exchange)
    this.lastActivity = exchange.startedAt
    this.onmessage?.(message, {
      requestInfo: { headers: requestHeaders },
      authInfo,
      closeSSEStream: () => this.closeStream(exchange),
      closeStandaloneSSEStream: () => this.closeStandalone(),
    })
  }

  /** Hands a POSTed notification or response to the protocol server (the POST gets 202). */
  dispatchOther(
    message: RpcMessage,
    requestHeaders: IncomingHttpHeaders,
    authInfo: AuthInfo | undefined,
  ): void {
    this.lastActivity = this.#hub.now()
    this.onmessage?.(message, { requestInfo: { headers: requestHeaders }, authInfo })
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
          this.#writeEvent(exchange.record as StreamRecord, JSON.stringify(message))
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
    this.#writeEvent(this.#log.standalone, JSON.stringify(message))
  }

  /**
   * openStream for a session shared by several instances: the standalone stream comes from the
   * store, and a request stream written elsewhere is resumed from the store's copy.
   */
  async openSharedStream(
    response: ServerResponse,
    headers: readonly string[],
    lastEventId: string | undefined,
  ): Promise<boolean> {
    const shared = this.#shared
    if (shared === undefined) return this.openStream(response, headers, lastEventId)
    // `0_<ms>-<n>` (the standalone stream, ids made by the store) or `<instance>.<n>_<seq>` (a
    // request's stream); anything else is unknown, never a question to the store.
    const match =
      lastEventId === undefined
        ? null
        : /^(?:0_(\d{1,15}-\d{1,15})|([0-9a-f]{8}\.\d{1,15})_(\d{1,15}))$/.exec(lastEventId)
    if (lastEventId !== undefined && match === null) return false
    const stream = match?.[2] ?? (match?.[1] === undefined ? undefined : '0')
    const start = () => {
      response.writeHead(200, headers.length === 0 ? this.#sseHeaders : [...this.#sseHeaders, ...headers])
      response.flushHeaders()
    }
    if (stream !== undefined && stream !== '0') {
      if (this.#log.find(lastEventId as string) !== undefined)
        return this.openStream(response, headers, lastEventId)
      return resumeStoredStream(shared, this.sessionId as string, stream, Number(match?.[3]), response, start)
    }
    const stop = await openSharedStandalone({
      sessions: shared,
      sessionId: this.sessionId as string,
      response,
      start,
      after: match?.[1],
      retryMs: this.resumable ? this.#hub.retryMs : undefined,
    })
    const previous = this.#sharedStandalone
    this.#sharedStandalone = { response, stop }
    previous?.stop()
    previous?.response.end()
    this.#hub.liveStreams.add(response)
    response.once('close', () => {
      this.#hub.liveStreams.delete(response)
      if (this.#sharedStandalone?.response === response) this.#sharedStandalone = undefined
    })
    return true
  }

  /** Opens (or replaces) the standalone GET stream, or resumes a stream from `lastEventId`. */
  openStream(response: ServerResponse, headers: readonly string[], lastEventId: string | undefined): boolean {
    let record = this.#log.standalone
    let after: number | undefined
    if (lastEventId !== undefined) {
      const found = this.#log.find(lastEventId)
      if (found === undefined) return false
      record = found.record
      after = found.after
    }
    response.writeHead(200, headers.length === 0 ? this.#sseHeaders : [...this.#sseHeaders, ...headers])
    // Nothing may be written for a while (no priming event before 2025-11-25, nothing new to
    // replay): the client waits for the response itself until its headers go out.
    response.flushHeaders()
    if (after === undefined) {
      if (this.resumable) response.write(this.#log.priming(record, this.#hub.retryMs))
    } else {
      for (const event of record.events) if (event.sequence > after) response.write(event.framed)
      if (record.finished) {
        response.end()
        this.#log.forget(record)
        return true
      }
    }
    this.#attach(record, response)
    return true
  }

  /** Ends the session: open exchanges get an error answer, streams end, the protocol server closes. */
  async close(): Promise<void> {
    if (this.closed) return
    for (const exchange of [...this.exchanges.values()]) {
      this.#finish(
        exchange,
        JSON.stringify({
          jsonrpc: '2.0',
          id: exchange.requestId,
          error: { code: rpcCodes.transportError, message: 'Connection closed: the session ended' },
        }),
      )
    }
    this.closed = true
    this.closeStandalone()
    for (const record of this.#log.records()) {
      const live = record.live
      if (live !== undefined) {
        this.#detach(record, live)
        live.end()
      }
    }
    this.#log.clear()
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

  closeStream(exchange: Exchange): void {
    if (exchange.state === 'done' || !exchange.negotiation.sse || !this.resumable) return
    if (exchange.state === 'pending') this.#startStream(exchange)
    const record = exchange.record as StreamRecord
    const live = record.live
    if (live !== undefined) {
      this.#detach(record, live)
      live.end()
    }
    exchange.response = undefined
  }

  closeStandalone(): void {
    const shared = this.#sharedStandalone
    if (shared !== undefined) {
      this.#sharedStandalone = undefined
      shared.stop()
      shared.response.end()
    }
    const live = this.#log.standalone.live
    if (live !== undefined) {
      this.#detach(this.#log.standalone, live)
      live.end()
    }
  }

  #startStream(exchange: Exchange): void {
    const record = this.#newRecord(exchange)
    exchange.record = record
    exchange.state = 'sse'
    const response = exchange.response
    if (response === undefined || response.destroyed) return
    response.writeHead(
      200,
      exchange.headers.length === 0 ? this.#sseHeaders : [...this.#sseHeaders, ...exchange.headers],
    )
    if (this.resumable) response.write(this.#log.priming(record, this.#hub.retryMs))
    this.#attach(record, response)
  }

  /** Opens a request's stream record; a shared session's copy starts with the request's id. */
  #newRecord(exchange: Exchange): StreamRecord {
    const record = this.#log.create()
    if (this.#shared !== undefined && this.resumable) {
      record.sequence += 1
      this.#shared.logRequestEvent(
        this.sessionId as string,
        record.key,
        record.sequence,
        requestMarker + JSON.stringify(exchange.requestId),
        false,
      )
    }
    return record
  }

  #finish(exchange: Exchange, text: string): void {
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
    const record = exchange.record as StreamRecord
    this.#writeEvent(record, text, true)
    record.finished = true
    const live = record.live
    if (live !== undefined) {
      this.#detach(record, live)
      live.end()
      this.#log.forget(record)
    }
  }

  /** Ends an exchange without an answer (the client cancelled the request). */
  #abandon(exchange: Exchange): void {
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
    const record = exchange.record as StreamRecord
    record.finished = true
    const live = record.live
    if (live !== undefined) {
      this.#detach(record, live)
      live.end()
    }
    this.#log.forget(record)
  }

  #writeEvent(record: StreamRecord, text: string, end = false): void {
    const framed = this.#log.append(record, text)
    const live = record.live
    if (live !== undefined && !live.destroyed) live.write(framed)
    if (this.#shared !== undefined && record !== this.#log.standalone && this.resumable)
      this.#shared.logRequestEvent(this.sessionId as string, record.key, record.sequence, text, end)
  }

  #attach(record: StreamRecord, response: ServerResponse): void {
    const previous = record.live
    if (previous !== undefined && previous !== response) {
      this.#detach(record, previous)
      previous.end()
    }
    record.live = response
    this.#hub.liveStreams.add(response)
    response.once('close', () => {
      if (record.live === response) this.#detach(record, response)
    })
  }

  #detach(record: StreamRecord, response: ServerResponse): void {
    if (record.live !== response) return
    record.live = undefined
    this.#hub.liveStreams.delete(response)
  }

  #exchangeEnded(): void {
    this.lastActivity = this.#hub.now()
    this.#hub.exchangeEnded()
  }
}

export { keepAliveComment }
