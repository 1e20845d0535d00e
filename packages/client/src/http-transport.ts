// Streamable HTTP and legacy SSE client transports from the MCP SDK, with undici as their fetch:
// one keep-alive connection pool per process, and HTTP_PROXY/HTTPS_PROXY/NO_PROXY honoured.
// Loaded lazily: a stdio session never pays for undici.

import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import { RpcError } from './connection.js'

type FetchLike = (url: string | URL, init?: RequestInit) => Promise<Response>

let sharedFetch: Promise<FetchLike> | undefined

/** undici's fetch bound to one EnvHttpProxyAgent (keep-alive pool, proxy variables). */
export function undiciFetch(): Promise<FetchLike> {
  sharedFetch ??= import('undici').then(({ EnvHttpProxyAgent, fetch }) => {
    const dispatcher = new EnvHttpProxyAgent({ keepAliveTimeout: 10_000, connections: 64 })
    return ((url: string | URL, init?: RequestInit) =>
      fetch(url, { ...(init as object), dispatcher } as Parameters<
        typeof fetch
      >[1]) as unknown as Promise<Response>) as FetchLike
  })
  return sharedFetch
}

export interface HttpTransportOptions {
  headers?: Record<string, string>
  fetch?: FetchLike
}

export async function createStreamableHttpTransport(
  url: string,
  options: HttpTransportOptions,
): Promise<Transport> {
  const [{ StreamableHTTPClientTransport }, fetch] = await Promise.all([
    import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
    options.fetch ? Promise.resolve(options.fetch) : undiciFetch(),
  ])
  return new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: options.headers ?? {} },
    fetch,
    // A stateless one-shot CLI call should not wait on reconnect back-off.
    reconnectionOptions: {
      initialReconnectionDelay: 500,
      maxReconnectionDelay: 2000,
      reconnectionDelayGrowFactor: 1.5,
      maxRetries: 1,
    },
  })
}

export async function createSseTransport(url: string, options: HttpTransportOptions): Promise<Transport> {
  const [{ SSEClientTransport }, fetch] = await Promise.all([
    import('@modelcontextprotocol/sdk/client/sse.js'),
    options.fetch ? Promise.resolve(options.fetch) : undiciFetch(),
  ])
  const headers = options.headers ?? {}
  return new SSEClientTransport(new URL(url), {
    requestInit: { headers },
    fetch,
    eventSourceInit: {
      fetch: (input, init) =>
        fetch(input, { ...init, headers: { ...headers, ...(init?.headers as Record<string, string>) } }),
    },
  })
}

/** True when the first POST's HTTP status says "this is not a Streamable HTTP endpoint" (spec: fall back to SSE). */
export function shouldFallBackToSse(error: unknown): boolean {
  const code = (error as { code?: unknown }).code
  // JSON-RPC errors (RpcError) carry negative codes; only the transport's HTTP status counts here.
  return !(error instanceof RpcError) && (code === 400 || code === 404 || code === 405)
}
