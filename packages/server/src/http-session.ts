// The SDK Transport behind one Streamable HTTP session (spec 2025-11-25). It owns the framing:
// each POSTed request is an "exchange" answered lazily — as one JSON body when the handler
// sends nothing but its result and the client accepts JSON, or as an SSE stream as soon as a
// related notification or server→client request must reach the client first (or the client
// prefers SSE, or the call runs long). SSE streams carry event ids, a `retry` hint and, for
// 2025-11-25 sessions, a priming event first. Events stay in a bounded log until their stream
// has been delivered in full, so a client can resume with Last-Event-ID after a disconnect or a
// server-side close (SEP-1699).

import type { IncomingHttpHeaders, ServerResponse } from 'node:http'
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js'
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { JSONRPCMessage, MessageExtraInfo, RequestId } from '@modelcontextprotocol/sdk/types.js'
import type { Negotiation } from './content-negotiation.js'
import { rpcCodes } from './errors.js'

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

interface StreamRecord {
  id: number
  sequence: number
  /** Framed events (`id:`/`data:` lines) with their sequence, oldest first. Bounded per session. */
  events: Array<{ sequence: number; framed: string }>
  finished: boolean
  /** The response currently carrying this stream, if any. */
  live: ServerResponse | undefined
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

function isResponse(message: JSONRPCMessage): message is JSONRPCMessage & { id: RequestId } {
  return !('method' in message) && 'id' in message
}

export class HttpSessionTransport implements Transport {
  sessionId: string | undefined
  onclose?: () => void
  onerror?: (error: Error) => void
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void
  /** The version negotiated at initialize, or the request header's for stateless exchanges. */
  protocolVersion: string
  lastActivity: number
  closed = false
  readonly exchanges = new Map<RequestId, Exchange>()
  /** How many SSE responses of this session are open (an open stream is not idle). */
  openStreams = 0
  readonly #hub: SessionHub
  readonly #records = new Map<number, StreamRecord>()
  readonly #standalone: StreamRecord
  #nextStreamId = 1
  #loggedEvents = 0
  #loggedBytes = 0
  readonly #jsonHeaders: string[]
  readonly #sseHeaders: string[]

  constructor(sessionId: string | undefined, protocolVersion: string, hub: SessionHub) {
    this.sessionId = sessionId
    this.protocolVersion = protocolVersion
    this.#hub = hub
    this.lastActivity = hub.now()
    this.#standalone = { id: 0, sequence: 0, events: [], finished: false, live: undefined }
    this.#records.set(0, this.#standalone)
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
    message: JSONRPCMessage & { id: RequestId; method: string },
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
    message: JSONRPCMessage,
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

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
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
    this.#writeEvent(this.#standalone, JSON.stringify(message))
  }

  /** Opens (or replaces) the standalone GET stream, or resumes a stream from `lastEventId`. */
  openStream(response: ServerResponse, headers: readonly string[], lastEventId: string | undefined): boolean {
    let record = this.#standalone
    let after: number | undefined
    if (lastEventId !== undefined) {
      const match = /^(\d+)_(\d+)$/.exec(lastEventId)
      const found = match === null ? undefined : this.#records.get(Number(match[1]))
      if (found === undefined || match === null) return false
      record = found
      after = Number(match[2])
    }
    response.writeHead(200, headers.length === 0 ? this.#sseHeaders : [...this.#sseHeaders, ...headers])
    if (after === undefined) {
      if (this.resumable) response.write(this.#priming(record))
    } else {
      for (const event of record.events) if (event.sequence > after) response.write(event.framed)
      if (record.finished) {
        response.end()
        this.#forget(record)
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
    for (const record of this.#records.values()) {
      const live = record.live
      if (live !== undefined) {
        this.#detach(record, live)
        live.end()
      }
    }
    this.#records.clear()
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
    const live = this.#standalone.live
    if (live !== undefined) {
      this.#detach(this.#standalone, live)
      live.end()
    }
  }

  #startStream(exchange: Exchange): void {
    const record = this.#newRecord()
    exchange.record = record
    exchange.state = 'sse'
    const response = exchange.response
    if (response === undefined || response.destroyed) return
    response.writeHead(
      200,
      exchange.headers.length === 0 ? this.#sseHeaders : [...this.#sseHeaders, ...exchange.headers],
    )
    if (this.resumable) response.write(this.#priming(record))
    this.#attach(record, response)
  }

  #finish(exchange: Exchange, text: string): void {
    this.exchanges.delete(exchange.requestId)
    const response = exchange.response
    if (exchange.state === 'pending') {
      exchange.state = 'done'
      this.#hub.exchangeEnded()
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
      this.#hub.exchangeEnded()
    }
    const record = exchange.record as StreamRecord
    this.#writeEvent(record, text)
    record.finished = true
    const live = record.live
    if (live !== undefined) {
      this.#detach(record, live)
      live.end()
      this.#forget(record)
    }
  }

  /** Ends an exchange without an answer (the client cancelled the request). */
  #abandon(exchange: Exchange): void {
    this.exchanges.delete(exchange.requestId)
    const pending = exchange.state === 'pending'
    exchange.state = 'done'
    this.#hub.exchangeEnded()
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
    this.#forget(record)
  }

  #newRecord(): StreamRecord {
    const record: StreamRecord = {
      id: this.#nextStreamId++,
      sequence: 0,
      events: [],
      finished: false,
      live: undefined,
    }
    this.#records.set(record.id, record)
    return record
  }

  #priming(record: StreamRecord): string {
    record.sequence += 1
    return `id: ${record.id}_${record.sequence}\nretry: ${this.#hub.retryMs}\ndata: \n\n`
  }

  #writeEvent(record: StreamRecord, text: string): void {
    record.sequence += 1
    const framed = `id: ${record.id}_${record.sequence}\ndata: ${text}\n\n`
    record.events.push({ sequence: record.sequence, framed })
    this.#loggedEvents += 1
    this.#loggedBytes += framed.length
    const live = record.live
    if (live !== undefined && !live.destroyed) live.write(framed)
    if (
      this.#loggedEvents > this.#hub.maximumLoggedEvents ||
      this.#loggedBytes > this.#hub.maximumLoggedBytes
    ) {
      this.#trimLog()
    }
  }

  /** Forgets a stream whose last event went out on a live connection: nobody needs to resume it. */
  #forget(record: StreamRecord): void {
    if (record.id === 0 || !this.#records.delete(record.id)) return
    this.#loggedEvents -= record.events.length
    for (const event of record.events) this.#loggedBytes -= event.framed.length
    record.events = []
  }

  // Drops the oldest events, finished streams first, until the log is within its bounds.
  #trimLog(): void {
    const within = () =>
      this.#loggedEvents <= this.#hub.maximumLoggedEvents && this.#loggedBytes <= this.#hub.maximumLoggedBytes
    for (const record of this.#records.values()) {
      if (within()) return
      if (record.finished && record.live === undefined) this.#forget(record)
    }
    for (const record of this.#records.values()) {
      while (!within() && record.events.length > 0) {
        const dropped = record.events.shift()
        this.#loggedEvents -= 1
        this.#loggedBytes -= dropped?.framed.length ?? 0
      }
      if (within()) return
    }
  }

  #attach(record: StreamRecord, response: ServerResponse): void {
    const previous = record.live
    if (previous !== undefined && previous !== response) {
      this.#detach(record, previous)
      previous.end()
    }
    record.live = response
    this.openStreams += 1
    this.#hub.liveStreams.add(response)
    response.once('close', () => {
      if (record.live === response) this.#detach(record, response)
    })
  }

  #detach(record: StreamRecord, response: ServerResponse): void {
    if (record.live !== response) return
    record.live = undefined
    this.openStreams -= 1
    this.#hub.liveStreams.delete(response)
    this.lastActivity = this.#hub.now()
  }
}

export { keepAliveComment }
