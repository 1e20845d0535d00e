// The client's Streamable HTTP transport, for both eras. Its own rather than the SDK's: bodies and SSE
// events bounded while they stream, the 2026-07-28 headers and error bodies, per-request cancel, no SDK load.

import type { Era } from '@mcp-kit/core'
import { isRecord } from '@mcp-kit/core'
import type { JSONRPCMessage } from '@modelcontextprotocol/client'
import { ClientError } from '../errors.js'
import { messageTooLarge } from '../protocol/message-size.js'
import type { MessageRelation, MessageTransport, SendOptions } from '../protocol/message-transport.js'
import { errorAnswer, streamFailure, unreachable } from './errors.js'
import { readGetStream, resumeStream, type StreamSource } from './legacy-streams.js'
import { fetchWithinOrigin } from './redirects.js'
import { type RequestKind, requestHeaders } from './request-headers.js'
import { sendWithResend } from './resend.js'
import { MessageTooLarge, readBounded, readEvents } from './sse-reader.js'
import type { HttpTransportOptions } from './transport-options.js'

/** Ending a session must not hold up closing for a server that never answers the DELETE. */
const deleteTimeoutMs = 1000

/**
 * 2025-11-25 ("legacy"): the session id from the initialize answer, the version header, the
 * standalone GET stream for server-to-client messages, resumption with Last-Event-ID after a
 * stream ends early, DELETE on close. 2026-07-28 ("modern"): none of that, every request stands
 * alone, with `Mcp-Method`, `Mcp-Name` and `Mcp-Param-*` headers.
 */
export class HttpTransport implements MessageTransport {
  onmessage?: (message: JSONRPCMessage, relation?: MessageRelation) => void
  onclose?: () => void
  onerror?: (error: Error) => void
  /** Fails one request (its stream broke, or a message was too large) without a JSON-RPC answer. */
  onrequestfailed?: (id: number | string, error: Error) => void
  /** A login ended (the requests that waited on it get their full time again). */
  onauthenticated?: () => void
  era: Era = 'legacy'

  readonly #url: URL
  readonly #options: HttpTransportOptions
  readonly #limit: number
  readonly #closing = new AbortController()
  readonly #requests = new Map<number | string, AbortController>()
  #sessionId: string | undefined
  #protocolVersion: string | undefined
  #retryMs = 1000
  #getStream: Promise<void> | undefined
  #closed = false
  #authenticating = 0
  /** What the 2025 GET streams (legacy-streams.ts) use of this transport. */
  readonly #streams: StreamSource = {
    get: async (signal, lastId) => {
      const headers = await this.#headers(undefined, 'stream')
      if (lastId.value !== undefined) headers['last-event-id'] = lastId.value
      // A GET only opens the stream (resumed from lastId): safe to send again.
      return this.#fetch({ method: 'GET', headers, signal }, 'GET', true)
    },
    read: (body, id, lastId) => this.#readStream(body, id, lastId),
    retryMs: () => this.#retryMs,
    tooLarge: (error) => this.onerror?.(messageTooLarge(this.#limit, error.bytes)),
  }

  constructor(url: URL, options: HttpTransportOptions) {
    this.#url = url
    this.#options = options
    this.#limit = options.maxMessageBytes ?? 16 * 1024 * 1024
  }

  get sessionId(): string | undefined {
    return this.#sessionId
  }

  authenticating(): boolean {
    return this.#authenticating > 0
  }

  async start(): Promise<void> {}

  setProtocolVersion(version: string | undefined): void {
    this.#protocolVersion = version
  }

  /** 2026-07-28 cancellation: close the request's response stream. */
  abortRequest(id: number | string): void {
    this.#requests.get(id)?.abort()
    this.#requests.delete(id)
  }

  async send(message: JSONRPCMessage, options?: SendOptions): Promise<void> {
    if (this.#closed) throw new ClientError('connect_failed', 'the connection is closed')
    const value = message as unknown as Record<string, unknown>
    const id = typeof value.method === 'string' && 'id' in value ? (value.id as number | string) : undefined
    // 2025: a cancelled request's stream carries nothing more worth reading (or resuming).
    if (value.method === 'notifications/cancelled' && isRecord(value.params)) {
      const cancelled = value.params.requestId
      if (typeof cancelled === 'number' || typeof cancelled === 'string') this.abortRequest(cancelled)
    }
    const controller = new AbortController()
    const stop = () => controller.abort()
    this.#closing.signal.addEventListener('abort', stop, { once: true })
    if (id !== undefined) this.#requests.set(id, controller)
    try {
      const response = await this.#post(message, value, options ?? {}, controller.signal)
      if (response === undefined) return
      // Streams are read in the background: send() resolves once the answer has begun.
      void this.#consume(response, id, controller).finally(() => {
        this.#closing.signal.removeEventListener('abort', stop)
        if (id !== undefined && this.#requests.get(id) === controller) this.#requests.delete(id)
      })
    } catch (error) {
      this.#closing.signal.removeEventListener('abort', stop)
      if (id !== undefined) this.#requests.delete(id)
      throw error
    }
  }

  /** 2025-11-25: ends the session on the server (DELETE); errors do not matter. */
  async terminateSession(): Promise<void> {
    if (this.era !== 'legacy' || this.#sessionId === undefined) return
    await this.#fetch(
      {
        method: 'DELETE',
        headers: await this.#headers(undefined, 'delete'),
        signal: AbortSignal.timeout(deleteTimeoutMs),
      },
      'DELETE',
      false,
    )
      .then((response) => response.body?.cancel())
      .catch(() => {})
  }

  async close(): Promise<void> {
    if (this.#closed) return
    this.#closed = true
    this.#closing.abort()
    this.onclose?.()
  }

  async #headers(
    message: Record<string, unknown> | undefined,
    kind: RequestKind,
    extra?: Record<string, string>,
  ): Promise<Record<string, string>> {
    return requestHeaders({
      era: this.era,
      sessionId: this.#sessionId,
      protocolVersion: this.#protocolVersion,
      caller: [this.#options.headers, await this.#options.auth?.headers(), extra],
      message,
      kind,
    })
  }

  /**
   * fetch within the origin, sent once more on a new connection when its connection closed before
   * an answer and it is `repeatable` (resend.ts); a server that cannot be reached is connect_failed,
   * as at connect time.
   */
  async #fetch(init: RequestInit, what: string, repeatable: boolean): Promise<Response> {
    try {
      return await sendWithResend(this.#options.fetch, (fetch) => fetchWithinOrigin(fetch, this.#url, init), {
        url: this.#url,
        what,
        repeatable,
        onDiagnostic: this.#options.onDiagnostic,
      })
    } catch (error) {
      if (init.signal?.aborted || ClientError.isInstance(error)) throw error
      throw unreachable(this.#url, error)
    }
  }

  /** POSTs one message; undefined when there is nothing to read (202). */
  async #post(
    message: JSONRPCMessage,
    value: Record<string, unknown>,
    options: SendOptions,
    signal: AbortSignal,
  ): Promise<Response | undefined> {
    const body = JSON.stringify(message)
    const what = typeof value.method === 'string' ? value.method : 'a response'
    for (let attempt = 1; ; attempt++) {
      const headers = await this.#headers(value, 'post', options.headers)
      const init = { method: 'POST', headers, body, signal }
      const response = await this.#fetch(init, what, options.repeatable === true)
      if ((response.status === 401 || response.status === 403) && attempt === 1 && this.#options.auth) {
        this.#authenticating += 1
        let retry: boolean
        try {
          retry = await this.#options.auth.onUnauthorized(response.status, response)
        } finally {
          this.#authenticating -= 1
          if (this.#authenticating === 0) this.onauthenticated?.()
        }
        if (retry) {
          await response.body?.cancel().catch(() => {})
          continue
        }
      }
      if (this.era === 'legacy' && value.method === 'initialize') {
        const session = response.headers.get('mcp-session-id')
        if (session !== null) this.#sessionId = session
      }
      if (response.status === 202) {
        await response.body?.cancel().catch(() => {})
        if (this.era === 'legacy' && value.method === 'notifications/initialized') this.#openGetStream()
        return undefined
      }
      if (!response.ok) {
        const answer = await errorAnswer(response, value.id, this.#url, attempt > 1 && !!this.#options.auth)
        this.onmessage?.(answer)
        return undefined
      }
      return response
    }
  }

  async #consume(
    response: Response,
    id: number | string | undefined,
    controller: AbortController,
  ): Promise<void> {
    const type = response.headers.get('content-type') ?? ''
    try {
      if (type.includes('text/event-stream')) {
        const lastId: { value?: string } = {}
        const answered = await this.#readStream(response.body, id, lastId)
        if (!answered && id !== undefined && !controller.signal.aborted) {
          await resumeStream(
            this.#streams,
            this.era,
            id,
            controller.signal,
            lastId,
            this.#options.maxReconnects ?? 2,
          )
        }
        return
      }
      // A declared length over the limit is refused before anything is read.
      const declared = Number(response.headers.get('content-length'))
      if (declared > this.#limit) {
        await response.body?.cancel().catch(() => {})
        throw new MessageTooLarge(declared)
      }
      const text = await readBounded(response.body, this.#limit)
      if (text.trim() === '') return
      this.#deliver(JSON.parse(text))
    } catch (error) {
      if (controller.signal.aborted) return
      this.#fail(id, error)
    }
  }

  /** Reads an SSE stream; true once the response to `id` went by. */
  async #readStream(
    body: ReadableStream<Uint8Array> | null,
    id: number | string | undefined,
    lastId?: { value?: string },
  ): Promise<boolean> {
    if (body === null) return false
    let answered = false
    for await (const event of readEvents(body, this.#limit)) {
      if (event.retry !== undefined) this.#retryMs = event.retry
      if (event.id !== undefined && lastId) lastId.value = event.id
      if (event.data.trim() === '') continue
      const message = JSON.parse(event.data) as Record<string, unknown>
      if (id !== undefined && message.id === id && !('method' in message)) answered = true
      // A request's own stream carries what the server sends about that request (2025: its
      // questions and notifications; the GET stream, with no id, the rest).
      this.#deliver(message, id)
    }
    return answered
  }

  /** 2025: the standalone GET stream (server-to-client requests and notifications); 405 is fine. */
  #openGetStream(): void {
    this.#getStream ??= readGetStream(this.#streams, this.#closing.signal)
  }

  #deliver(message: unknown, relatedRequestId?: number | string): void {
    if (!isRecord(message))
      throw new ClientError('protocol_error', 'the server sent a JSON value that is not a JSON-RPC message')
    if (relatedRequestId === undefined) this.onmessage?.(message as unknown as JSONRPCMessage)
    else this.onmessage?.(message as unknown as JSONRPCMessage, { relatedRequestId })
  }

  #fail(id: number | string | undefined, error: unknown): void {
    const failure = streamFailure(error, this.#limit)
    if (id !== undefined && this.onrequestfailed) this.onrequestfailed(id, failure)
    else this.onerror?.(failure)
  }
}
