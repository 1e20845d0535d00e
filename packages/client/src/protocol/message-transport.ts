// The transport a Connection drives: the MCP SDK's Transport shape plus what the client's own transports
// add (per-request headers, cancelling one request, a login in progress, the request a message is about).

import type { JSONRPCMessage } from '@modelcontextprotocol/client'

/** Which of our requests a server message is about, when the transport can tell. */
export interface MessageRelation {
  /** Streamable HTTP: the request whose response stream carried the message. */
  relatedRequestId?: number | string
}

/** What a request is sent with besides its message (HTTP transports; stdio ignores it). */
export interface SendOptions {
  /** Extra HTTP headers (2026-07-28 `Mcp-Param-*`). */
  headers?: Record<string, string> | undefined
  /** Safe to send twice (repeatable.ts): sent again on a new connection if its own closed before any answer. */
  repeatable?: boolean | undefined
}

/** The transport a Connection drives (the SDK's Transport shape, plus optional HTTP extras). */
export interface MessageTransport {
  start(): Promise<void>
  send(message: JSONRPCMessage, options?: SendOptions): Promise<void>
  close(): Promise<void>
  onmessage?: ((message: JSONRPCMessage, relation?: MessageRelation) => void) | undefined
  onclose?: (() => void) | undefined
  onerror?: ((error: Error) => void) | undefined
  setProtocolVersion?: (version: string) => void
  /** 2026-07-28 over HTTP: cancel one request by closing its response stream. */
  abortRequest?: (id: number) => void
  /** True while the transport runs a login (OAuth): request timers wait for it. */
  authenticating?: () => boolean
  /** Set by the Connection: a login ended; the requests waiting on it get their full time again. */
  onauthenticated?: (() => void) | undefined
  /** Set by the Connection: a request failed in the transport (a broken stream, a message too large). */
  onrequestfailed?: ((id: number | string, error: Error) => void) | undefined
}
