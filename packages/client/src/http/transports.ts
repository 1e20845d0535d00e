// The HTTP transports and their fetch: Node's own, or undici with a keep-alive pool when a proxy variable
// is set (Node 20's fetch ignores them); legacy HTTP+SSE is the SDK's, behind a fetch that bounds each event.

import type { JSONRPCMessage } from '@modelcontextprotocol/client'
import type { ClientError } from '../errors.js'
import { messageTooLarge } from '../protocol/message-size.js'
import type { MessageTransport, SendOptions } from '../protocol/message-transport.js'
import { RpcError } from '../protocol/rpc-error.js'
import { HttpStatusError } from './errors.js'
import { sendWithResend } from './resend.js'
import { HttpTransport } from './streamable-http.js'
import type { FetchLike, HttpTransportOptions } from './transport-options.js'

let sharedFetch: Promise<FetchLike> | undefined

/** The variables that route requests through a proxy (NO_PROXY only narrows them). */
const proxyVariables = ['HTTP_PROXY', 'HTTPS_PROXY', 'http_proxy', 'https_proxy'] as const

/**
 * The fetch HTTP sessions use: undici's with the proxy agent when a proxy variable is set, else
 * Node's own, which is already in the runtime: loading the undici package costs every HTTP
 * command 30–50 ms of start-up (tooling/bench, inspect-2026).
 */
export function defaultFetch(
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<FetchLike> {
  if (proxyVariables.some((name) => env[name])) return undiciFetch()
  return Promise.resolve(((url, init) => globalThis.fetch(url, init)) as FetchLike)
}

/** undici's fetch bound to one EnvHttpProxyAgent (keep-alive pool, proxy variables). */
export function undiciFetch(): Promise<FetchLike> {
  sharedFetch ??= import('undici').then(({ EnvHttpProxyAgent, fetch }) => {
    const pooled = new EnvHttpProxyAgent({ keepAliveTimeout: 10_000, connections: 64 })
    // A request given its own dispatcher (a resend on a new connection, resend.ts) keeps it.
    return ((url: string | URL, init?: RequestInit) =>
      fetch(url, {
        ...(init as object),
        dispatcher: (init as { dispatcher?: unknown } | undefined)?.dispatcher ?? pooled,
      } as Parameters<typeof fetch>[1]) as unknown as Promise<Response>) as FetchLike
  })
  return sharedFetch
}

export interface HttpOptions {
  headers?: Record<string, string>
  fetch?: FetchLike
  maxMessageBytes?: number
  auth?: HttpTransportOptions['auth']
  onDiagnostic?: (message: string) => void
}

export async function createStreamableHttpTransport(
  url: string,
  options: HttpOptions,
): Promise<HttpTransport> {
  return new HttpTransport(new URL(url), {
    headers: options.headers,
    fetch: options.fetch ?? (await defaultFetch()),
    maxMessageBytes: options.maxMessageBytes,
    auth: options.auth,
    onDiagnostic: options.onDiagnostic,
  })
}

/**
 * A fetch whose response bodies fail once `limit` bytes pass without an SSE event boundary
 * (the size error, also handed to `onOversized`).
 */
export function eventBoundedFetch(
  fetch: FetchLike,
  limit: number,
  onOversized: (error: ClientError) => void = () => {},
): FetchLike {
  return async (url, init) => {
    const response = await fetch(url, init)
    if (response.body === null) return response
    let sinceBoundary = 0
    let previous = 0
    const guard = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        for (const byte of chunk) {
          sinceBoundary = byte === 10 && previous === 10 ? 0 : sinceBoundary + 1
          previous = byte === 13 ? previous : byte
        }
        if (sinceBoundary > limit) {
          const error = messageTooLarge(limit, sinceBoundary)
          onOversized(error)
          controller.error(error)
          return
        }
        controller.enqueue(chunk)
      },
    })
    return new Response(response.body.pipeThrough(guard), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    })
  }
}

/**
 * The SDK's SSE transport with one change: when its event stream dies of an oversized event,
 * every request still waiting fails with that size error at once (the SDK's transport would only
 * report it and reconnect, leaving the requests to time out), and the transport closes.
 */
class BoundedSseTransport implements MessageTransport {
  onmessage?: (message: JSONRPCMessage) => void
  onclose?: () => void
  onerror?: (error: Error) => void
  onrequestfailed?: (id: number | string, error: Error) => void
  readonly #inner: MessageTransport
  readonly #waiting = new Set<number | string>()
  /** Requests in flight that are safe to send twice (their POST is resent on a dropped connection). */
  readonly repeatable = new Set<number | string>()
  #failure: ClientError | undefined

  constructor(inner: MessageTransport) {
    this.#inner = inner
    inner.onmessage = (message) => {
      const { id, method } = message as { id?: unknown; method?: unknown }
      if (method === undefined && (typeof id === 'number' || typeof id === 'string')) this.#waiting.delete(id)
      this.onmessage?.(message)
    }
    inner.onerror = (error) => this.onerror?.(error)
    inner.onclose = () => this.onclose?.()
  }

  fail(error: ClientError): void {
    if (this.#failure) return
    this.#failure = error
    for (const id of this.#waiting) this.onrequestfailed?.(id, error)
    this.#waiting.clear()
    void this.close()
  }

  async start(): Promise<void> {
    await this.#inner.start().catch((error) => {
      throw this.#failure ?? error
    })
  }

  async send(message: JSONRPCMessage, options?: SendOptions): Promise<void> {
    if (this.#failure) throw this.#failure
    const { id, method, params } = message as {
      id?: unknown
      method?: unknown
      params?: { requestId?: unknown }
    }
    const request = typeof method === 'string' && (typeof id === 'number' || typeof id === 'string')
    if (request) this.#waiting.add(id)
    if (request && options?.repeatable === true) this.repeatable.add(id)
    if (method === 'notifications/cancelled') this.#waiting.delete(params?.requestId as number | string)
    try {
      await this.#inner.send(message, options)
    } catch (error) {
      if (request) this.#waiting.delete(id)
      throw this.#failure ?? error
    } finally {
      if (request) this.repeatable.delete(id)
    }
  }

  close(): Promise<void> {
    return this.#inner.close()
  }

  setProtocolVersion(version: string): void {
    this.#inner.setProtocolVersion?.(version)
  }
}

export async function createSseTransport(url: string, options: HttpOptions): Promise<MessageTransport> {
  const [{ SSEClientTransport }, base] = await Promise.all([
    import('@modelcontextprotocol/client'),
    options.fetch ? Promise.resolve(options.fetch) : defaultFetch(),
  ])
  let bounded: BoundedSseTransport | undefined
  // The event stream's GET is safe to send again; a POST when its request is (resend.ts).
  const resending: FetchLike = (url, init) => {
    const posted = init?.method === 'POST' ? postedRequest(init.body) : undefined
    return sendWithResend(base, (fetch) => fetch(url, init), {
      url: new URL(url),
      what: posted?.method ?? init?.method ?? 'GET',
      repeatable:
        posted === undefined ? init?.method !== 'POST' : bounded?.repeatable.has(posted.id) === true,
      onDiagnostic: options.onDiagnostic,
    })
  }
  const fetch = eventBoundedFetch(resending, options.maxMessageBytes ?? 16 * 1024 * 1024, (error) =>
    bounded?.fail(error),
  )
  const headers = options.headers ?? {}
  const inner = new SSEClientTransport(new URL(url), {
    requestInit: { headers },
    fetch,
    eventSourceInit: {
      fetch: (input: string | URL, init?: RequestInit) =>
        fetch(input, { ...init, headers: { ...headers, ...(init?.headers as Record<string, string>) } }),
    },
  } as never) as unknown as MessageTransport
  bounded = new BoundedSseTransport(inner)
  return bounded
}

/** The id and method of the JSON-RPC request a POST body carries, if it is one. */
function postedRequest(body: unknown): { id: number | string; method: string } | undefined {
  if (typeof body !== 'string') return undefined
  try {
    const { id, method } = JSON.parse(body) as { id?: unknown; method?: unknown }
    return (typeof id === 'number' || typeof id === 'string') && typeof method === 'string'
      ? { id, method }
      : undefined
  } catch {
    return undefined
  }
}

/** True when an HTTP answer says "this is not a Streamable HTTP endpoint" (spec: fall back to SSE). */
export function shouldFallBackToSse(error: unknown): boolean {
  if (error instanceof RpcError) return false
  const status = error instanceof HttpStatusError ? error.status : (error as { code?: unknown }).code
  return status === 400 || status === 404 || status === 405
}
