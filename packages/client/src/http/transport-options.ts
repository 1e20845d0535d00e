// What the Streamable HTTP transport is given: its fetch, the caller's headers, the size limit of one
// message, the auth hook consulted on every request, diagnostics, and how often a broken stream is resumed.

export type FetchLike = (url: string | URL, init?: RequestInit) => Promise<Response>

export interface HttpTransportOptions {
  headers?: Record<string, string>
  fetch: FetchLike
  /** Largest message (a JSON body, one SSE event) accepted, in bytes (default 16 MiB). */
  maxMessageBytes?: number
  /** Consulted on every request, and on 401/403 (retry once when it says so). */
  auth?: {
    headers(): Promise<Record<string, string>>
    onUnauthorized(status: 401 | 403, response: Response): Promise<boolean>
  }
  onDiagnostic?: (message: string) => void
  /** Reconnection attempts of a stream that ends before its answer (2025 SEP-1699; default 2). */
  maxReconnects?: number
}
