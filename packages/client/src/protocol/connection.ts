// The client's own JSON-RPC layer, for both eras: requests with timeouts reset by progress, cancelled on
// the wire; server requests and notifications go to the owner, or to the request they are about. Ours,
// not the SDK's Client, for start-up time (docs/architecture.md "Layers").

import { type Era, isRecord, latestLegacyVersion } from '@mcp-kit/core'
import type { InitializeResult, JSONRPCMessage } from '@modelcontextprotocol/client'
import { ClientError } from '../errors.js'
import { type Envelope, envelopeMeta } from './envelope.js'
import { answerServerRequest, checkInitializeResult } from './legacy-protocol.js'
import type { MessageRelation, MessageTransport } from './message-transport.js'
import { isRepeatable } from './repeatable.js'
import { responseId, responseOutcome } from './response.js'

export interface RequestOptions {
  /** Per-request timeout, reset by progress; 0 for none (a subscription). */
  timeoutMs: number
  onProgress?: (progress: { progress: number; total?: number; message?: string }) => void
  /** Aborting cancels this request on the wire and rejects it with the signal's reason. */
  signal?: AbortSignal
  /** Extra HTTP headers for this request (2026-07-28 `Mcp-Param-*`). */
  headers?: Record<string, string> | undefined
  /**
   * The caller knows this tools/call's tool is safe to call twice (repeatable.ts); requests that
   * only read are known without it. Such a request is sent again when its connection dropped.
   */
  repeatable?: boolean | undefined
  /** Where the server's messages about this request go, instead of the connection's events. */
  scope?: RequestScope
}

/** What the server sends about one request, when the transport tells (stdio never does). */
export interface RequestScope {
  /** A server-to-client request about this request: resolve with the result, or throw. */
  onRequest?: ConnectionEvents['onRequest']
  /** A notification about this request (not progress: `onProgress` has it); true when handled. */
  onNotification?: (method: string, params: Record<string, unknown> | undefined) => boolean
}

export interface ConnectionEvents {
  onNotification?: (method: string, params: Record<string, unknown> | undefined) => void
  /** A server-to-client request (2025-11-25): resolve with the result, or throw to answer with an error. */
  onRequest?: (
    method: string,
    params: Record<string, unknown> | undefined,
  ) => Promise<Record<string, unknown>>
  onClose?: () => void
  onError?: (error: Error) => void
  /**
   * Every JSON-RPC message of the connection as it leaves or arrives, before anything else sees
   * it (an observer: a timeline, a message trace). Unset, messages are not copied or wrapped.
   */
  onMessage?: MessageObserver
}

/** Sees each message of a connection: `sent` by the client, or `received` from the server. */
export type MessageObserver = (direction: 'sent' | 'received', message: JSONRPCMessage) => void

interface Pending {
  resolve: (result: unknown) => void
  reject: (error: unknown) => void
  method: string
  timeoutMs: number
  timer: NodeJS.Timeout | undefined
  onProgress: RequestOptions['onProgress']
  signal: AbortSignal | undefined
  onAbort: (() => void) | undefined
  scope: RequestScope | undefined
}

export class Connection {
  readonly #transport: MessageTransport
  /** What sends: the transport, or a copy that shows each message to `onMessage` first. */
  readonly #sender: Pick<MessageTransport, 'send'>
  readonly #events: ConnectionEvents
  readonly #pending = new Map<number, Pending>()
  #nextId = 0
  #closed = false
  #envelope: Record<string, unknown> | undefined
  /** Why everything pending failed when the connection went away (set by the owner, e.g. an exit). */
  closeReason: (() => unknown) | undefined

  constructor(transport: MessageTransport, events: ConnectionEvents = {}) {
    this.#transport = transport
    this.#events = events
    const observe = events.onMessage
    this.#sender =
      observe === undefined
        ? transport
        : {
            send: (message, options) => {
              observe('sent', message)
              return options === undefined ? transport.send(message) : transport.send(message, options)
            },
          }
    transport.onmessage =
      observe === undefined
        ? (message: JSONRPCMessage, relation?: MessageRelation) => this.#receive(message, relation)
        : (message: JSONRPCMessage, relation?: MessageRelation) => {
            observe('received', message)
            this.#receive(message, relation)
          }
    transport.onclose = () => this.#onClose()
    transport.onerror = (error: Error) => events.onError?.(error)
    transport.onrequestfailed = (id, error) => {
      const pending = typeof id === 'number' ? this.#pending.get(id) : undefined
      if (pending !== undefined && this.#settle(id as number)) pending.reject(error)
    }
    // A login took however long it took: what waited on it starts its time afresh.
    transport.onauthenticated = () => {
      for (const [id, pending] of this.#pending) {
        if (pending.timer === undefined) continue
        clearTimeout(pending.timer)
        pending.timer = setTimeout(() => this.#timedOut(id), pending.timeoutMs)
      }
    }
  }

  get closed(): boolean {
    return this.#closed
  }

  /** 'modern' once requests carry the 2026-07-28 envelope. */
  get era(): Era {
    return this.#envelope === undefined ? 'legacy' : 'modern'
  }

  /** From now on, every request carries this 2026-07-28 envelope in `_meta` (undefined: none). */
  useEnvelope(envelope: Envelope | undefined): void {
    this.#envelope = envelope === undefined ? undefined : envelopeMeta(envelope)
  }

  async start(): Promise<void> {
    await this.#transport.start()
  }

  /** initialize + notifications/initialized. Throws protocol_error for a version we do not speak. */
  async initialize(
    clientInfo: { name: string; version: string },
    timeoutMs: number,
    signal?: AbortSignal,
    capabilities: Record<string, unknown> = {},
    protocolVersion: string = latestLegacyVersion,
  ): Promise<InitializeResult> {
    this.#envelope = undefined
    const result = (await this.request(
      'initialize',
      { protocolVersion, capabilities, clientInfo },
      { timeoutMs, signal },
    )) as InitializeResult
    checkInitializeResult(result)
    this.#transport.setProtocolVersion?.(result.protocolVersion)
    await this.notify('notifications/initialized')
    return result
  }

  /** Sends a request; resolves with its result, rejects with RpcError, ClientError (timeout) or the abort reason. */
  request(
    method: string,
    params: Record<string, unknown> | undefined,
    options: RequestOptions,
  ): Promise<unknown> {
    if (this.#closed) return Promise.reject(this.#lostError())
    if (options.signal?.aborted) return Promise.reject(options.signal.reason)
    const id = this.#nextId++
    return new Promise((resolve, reject) => {
      const pending: Pending = {
        resolve,
        reject,
        method,
        timeoutMs: options.timeoutMs,
        timer: options.timeoutMs > 0 ? setTimeout(() => this.#timedOut(id), options.timeoutMs) : undefined,
        onProgress: options.onProgress,
        signal: options.signal,
        onAbort: undefined,
        scope: options.scope,
      }
      if (options.signal) {
        const signal = options.signal
        pending.onAbort = () => this.cancel(id, signal.reason)
        signal.addEventListener('abort', pending.onAbort, { once: true })
      }
      this.#pending.set(id, pending)
      // Always ask for progress: it keeps long calls alive (the per-call timeout resets on it).
      const given = isRecord(params?._meta) ? params._meta : undefined
      const meta =
        this.#envelope === undefined
          ? { ...given, progressToken: id }
          : { ...given, ...this.#envelope, progressToken: id }
      const message = { jsonrpc: '2.0', id, method, params: { ...params, _meta: meta } } as JSONRPCMessage
      const repeatable = isRepeatable(method, options.repeatable)
      const sent =
        options.headers === undefined && !repeatable
          ? this.#sender.send(message)
          : this.#sender.send(message, { headers: options.headers, repeatable })
      sent.catch((error) => {
        if (this.#settle(id)) reject(error)
      })
    })
  }

  notify(method: string, params?: Record<string, unknown>): Promise<void> {
    const message = (
      params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params }
    ) as JSONRPCMessage
    return this.#sender.send(message)
  }

  /** Cancels a pending request: tells the server, and rejects the request with `reason`. */
  cancel(id: number, reason: unknown): void {
    const pending = this.#pending.get(id)
    if (!pending || !this.#settle(id)) return
    // 2026-07-28 over HTTP: closing the request's stream is the cancellation.
    if (this.#envelope !== undefined && this.#transport.abortRequest) this.#transport.abortRequest(id)
    else {
      void this.notify('notifications/cancelled', {
        requestId: id,
        reason: reason instanceof Error ? reason.message : String(reason),
      }).catch(() => {})
    }
    pending.reject(reason)
  }

  /** Cancels every pending request with `reason` (a session deadline, Ctrl-C). */
  cancelAll(reason: unknown): void {
    for (const id of [...this.#pending.keys()]) this.cancel(id, reason)
  }

  async close(): Promise<void> {
    await this.#transport.close()
    this.#onClose()
  }

  #settle(id: number): boolean {
    const pending = this.#pending.get(id)
    if (!pending) return false
    this.#pending.delete(id)
    if (pending.timer !== undefined) clearTimeout(pending.timer)
    if (pending.onAbort) pending.signal?.removeEventListener('abort', pending.onAbort)
    return true
  }

  #timedOut(id: number): void {
    const pending = this.#pending.get(id)
    if (!pending) return
    // A login in progress (a person at a browser) does not count against a request's time.
    if (this.#transport.authenticating?.() === true) {
      pending.timer = setTimeout(() => this.#timedOut(id), pending.timeoutMs)
      return
    }
    this.cancel(
      id,
      new ClientError('timeout', `no response within ${Math.round(pending.timeoutMs / 100) / 10} s`, {
        details: { limit: 'call', timeoutMs: pending.timeoutMs },
      }),
    )
  }

  #lostError(): unknown {
    return this.closeReason?.() ?? new ClientError('connect_failed', 'the connection to the server was lost')
  }

  #onClose(): void {
    if (this.#closed) return
    this.#closed = true
    const error = this.#lostError()
    for (const [id, pending] of [...this.#pending]) {
      this.#settle(id)
      pending.reject(error)
    }
    this.#events.onClose?.()
  }

  #receive(message: JSONRPCMessage, relation?: MessageRelation): void {
    const value = message as Record<string, unknown>
    const method = value.method
    if (typeof method === 'string') {
      const related = relation?.relatedRequestId
      const scope = typeof related === 'number' ? this.#pending.get(related)?.scope : undefined
      if (value.id !== undefined) {
        void answerServerRequest(
          this.#sender,
          scope?.onRequest === undefined ? this.#events : scope,
          value.id,
          method,
          isRecord(value.params) ? value.params : undefined,
        )
        return
      }
      const params = isRecord(value.params) ? value.params : undefined
      if (method === 'notifications/progress' && params) {
        this.#progress(params)
        return
      }
      if (scope?.onNotification?.(method, params) === true) return
      this.#events.onNotification?.(method, params)
      return
    }
    const id = responseId(value)
    if (id === undefined) return
    const pending = this.#pending.get(id)
    if (!pending || !this.#settle(id)) return
    const outcome = responseOutcome(value, pending.method)
    if ('result' in outcome) pending.resolve(outcome.result)
    else pending.reject(outcome.error)
  }

  #progress(params: Record<string, unknown>): void {
    const token = params.progressToken
    const pending = typeof token === 'number' ? this.#pending.get(token) : undefined
    if (!pending) return
    if (pending.timer !== undefined) {
      clearTimeout(pending.timer)
      pending.timer = setTimeout(() => this.#timedOut(token as number), pending.timeoutMs)
    }
    if (typeof params.progress === 'number') {
      const progress: { progress: number; total?: number; message?: string } = { progress: params.progress }
      if (typeof params.total === 'number') progress.total = params.total
      if (typeof params.message === 'string') progress.message = params.message
      pending.onProgress?.(progress)
    }
  }
}
