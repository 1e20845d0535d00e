// The JSON-RPC side of an MCP client session, written lean on purpose. The SDK's Client costs
// ~160 ms to import and checks every message with zod; measured in tooling/bench, that kept
// `inspect` of a fast server and `put` off their targets (issue 6). This keeps the SDK's types
// and transports, and does what a client that offers no capabilities needs: initialize and
// version negotiation, requests with timeouts reset by progress (always asking for progress),
// notifications/cancelled on timeout or abort, ping answers, and light result-shape checks.

import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { InitializeResult, JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'
import { ClientError } from './errors.js'

/** Protocol versions this client speaks, newest first (kept equal to the SDK's list by a test). */
export const supportedProtocolVersions = [
  '2025-11-25',
  '2025-06-18',
  '2025-03-26',
  '2024-11-05',
  '2024-10-07',
] as const
export const latestProtocolVersion = supportedProtocolVersions[0]

/** A JSON-RPC error the server answered with. */
export class RpcError extends Error {
  override readonly name = 'RpcError'
  readonly code: number
  readonly data: unknown

  constructor(code: number, message: string, data?: unknown) {
    super(message)
    this.code = code
    this.data = data
  }
}

export interface RequestOptions {
  timeoutMs: number
  onProgress?: (progress: { progress: number; total?: number; message?: string }) => void
  /** Aborting cancels this request (notifications/cancelled) and rejects it with the signal's reason. */
  signal?: AbortSignal
}

export interface ConnectionEvents {
  onNotification?: (method: string, params: Record<string, unknown> | undefined) => void
  onClose?: () => void
  onError?: (error: Error) => void
}

interface Pending {
  resolve: (result: unknown) => void
  reject: (error: unknown) => void
  method: string
  timeoutMs: number
  timer: NodeJS.Timeout
  onProgress: RequestOptions['onProgress']
  signal: AbortSignal | undefined
  onAbort: (() => void) | undefined
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

export class Connection {
  readonly #transport: Transport
  readonly #events: ConnectionEvents
  readonly #pending = new Map<number, Pending>()
  #nextId = 0
  #closed = false
  /** Why everything pending failed when the connection went away (set by the owner, e.g. an exit). */
  closeReason: (() => unknown) | undefined

  constructor(transport: Transport, events: ConnectionEvents = {}) {
    this.#transport = transport
    this.#events = events
    transport.onmessage = (message: JSONRPCMessage) => this.#receive(message)
    transport.onclose = () => this.#onClose()
    transport.onerror = (error: Error) => events.onError?.(error)
  }

  get closed(): boolean {
    return this.#closed
  }

  async start(): Promise<void> {
    await this.#transport.start()
  }

  /** initialize + notifications/initialized. Throws protocol_error for a version we do not speak. */
  async initialize(
    clientInfo: { name: string; version: string },
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<InitializeResult> {
    const result = (await this.request(
      'initialize',
      { protocolVersion: latestProtocolVersion, capabilities: {}, clientInfo },
      { timeoutMs, signal },
    )) as InitializeResult
    if (
      !isObject(result) ||
      typeof result.protocolVersion !== 'string' ||
      !isObject(result.capabilities) ||
      !isObject(result.serverInfo)
    ) {
      throw new ClientError('protocol_error', 'the server sent an invalid initialize result')
    }
    if (!(supportedProtocolVersions as readonly string[]).includes(result.protocolVersion)) {
      throw new ClientError(
        'protocol_error',
        `the server speaks MCP ${result.protocolVersion}, which this client does not support (it speaks ${supportedProtocolVersions.join(', ')})`,
      )
    }
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
        timer: setTimeout(() => this.#timedOut(id), options.timeoutMs),
        onProgress: options.onProgress,
        signal: options.signal,
        onAbort: undefined,
      }
      if (options.signal) {
        const signal = options.signal
        pending.onAbort = () => this.cancel(id, signal.reason)
        signal.addEventListener('abort', pending.onAbort, { once: true })
      }
      this.#pending.set(id, pending)
      // Always ask for progress: it keeps long calls alive (the per-call timeout resets on it).
      const meta = isObject(params?._meta) ? { ...params._meta, progressToken: id } : { progressToken: id }
      const message = { jsonrpc: '2.0', id, method, params: { ...params, _meta: meta } } as JSONRPCMessage
      this.#transport.send(message).catch((error) => {
        if (this.#settle(id)) reject(error)
      })
    })
  }

  notify(method: string, params?: Record<string, unknown>): Promise<void> {
    const message = (
      params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params }
    ) as JSONRPCMessage
    return this.#transport.send(message)
  }

  /** Cancels a pending request: tells the server, and rejects the request with `reason`. */
  cancel(id: number, reason: unknown): void {
    const pending = this.#pending.get(id)
    if (!pending || !this.#settle(id)) return
    void this.notify('notifications/cancelled', {
      requestId: id,
      reason: reason instanceof Error ? reason.message : String(reason),
    }).catch(() => {})
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
    clearTimeout(pending.timer)
    if (pending.onAbort) pending.signal?.removeEventListener('abort', pending.onAbort)
    return true
  }

  #timedOut(id: number): void {
    const pending = this.#pending.get(id)
    if (!pending) return
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

  #receive(message: JSONRPCMessage): void {
    const value = message as Record<string, unknown>
    const method = value.method
    if (typeof method === 'string') {
      if (value.id !== undefined) {
        this.#answer(value.id, method)
        return
      }
      const params = isObject(value.params) ? value.params : undefined
      if (method === 'notifications/progress' && params) {
        this.#progress(params)
        return
      }
      this.#events.onNotification?.(method, params)
      return
    }
    if (typeof value.id !== 'number') return // not ours: we only send numeric ids
    const pending = this.#pending.get(value.id)
    if (!pending || !this.#settle(value.id)) return
    if (isObject(value.error)) {
      const error = value.error
      pending.reject(
        new RpcError(
          typeof error.code === 'number' ? error.code : -32603,
          typeof error.message === 'string' ? error.message : 'unknown error',
          error.data,
        ),
      )
    } else if ('result' in value) {
      pending.resolve(value.result)
    } else {
      pending.reject(
        new ClientError(
          'protocol_error',
          `the server answered ${pending.method} with neither a result nor an error`,
        ),
      )
    }
  }

  /** Requests from the server: we offer no capabilities, so only ping gets an answer. */
  #answer(id: unknown, method: string): void {
    const response =
      method === 'ping'
        ? { jsonrpc: '2.0', id, result: {} }
        : {
            jsonrpc: '2.0',
            id,
            error: { code: -32601, message: `Method not found: this client does not offer ${method}` },
          }
    void this.#transport.send(response as JSONRPCMessage).catch(() => {})
  }

  #progress(params: Record<string, unknown>): void {
    const token = params.progressToken
    const pending = typeof token === 'number' ? this.#pending.get(token) : undefined
    if (!pending) return
    clearTimeout(pending.timer)
    pending.timer = setTimeout(() => this.#timedOut(token as number), pending.timeoutMs)
    if (typeof params.progress === 'number') {
      const progress: { progress: number; total?: number; message?: string } = { progress: params.progress }
      if (typeof params.total === 'number') progress.total = params.total
      if (typeof params.message === 'string') progress.message = params.message
      pending.onProgress?.(progress)
    }
  }
}
