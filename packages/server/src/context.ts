// What a tool, resource or prompt handler gets besides its arguments: cancellation, progress,
// logging, who is asking, and a way to ask the client back (sampling, elicitation). The same
// shape serves the wire (one per request) and the embedded runtime.

import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js'
import type {
  ClientCapabilities,
  CreateMessageRequest,
  CreateMessageResult,
  CreateMessageResultWithTools,
  ElicitRequest,
  ElicitResult,
  Implementation,
  LoggingLevel,
} from '@modelcontextprotocol/sdk/types.js'

export type { AuthInfo, LoggingLevel }

export type SamplingRequest = CreateMessageRequest['params']
export type ElicitationRequest = ElicitRequest['params']
/** A sampling answer; with `tools` in the request its content may hold tool calls. */
export type SamplingResult = CreateMessageResult | CreateMessageResultWithTools

export interface HandlerContext {
  /** Aborted when the client cancels the request, the session ends or the server shuts down. */
  signal: AbortSignal
  /** The JSON-RPC id of the request (undefined in the embedded runtime). */
  requestId: string | number | undefined
  /** The MCP session (HTTP stateful sessions; undefined over stdio, stateless HTTP and in-process). */
  sessionId: string | undefined
  /** Who the bearer token belongs to, when the server checks one. */
  authInfo: AuthInfo | undefined
  /** What the client said about itself at initialize (undefined when it did not initialize). */
  clientInfo: Implementation | undefined
  clientCapabilities: ClientCapabilities | undefined
  /** Reports progress; does nothing when the client did not ask for progress. */
  progress(progress: number, total?: number, message?: string): Promise<void>
  /** Sends a log message to the client (filtered by the level the client set). */
  log(level: LoggingLevel, data: unknown, logger?: string): Promise<void>
  /** Asks the client's model for a completion. Throws ServerError `unsupported` when the client cannot sample. */
  sample(request: SamplingRequest): Promise<SamplingResult>
  /** Asks the user (through the client) for input. Throws ServerError `unsupported` when the client cannot elicit. */
  elicit(request: ElicitationRequest): Promise<ElicitResult>
  /**
   * Ends the HTTP response stream that carries this request; the client reconnects and gets the
   * rest by polling (SEP-1699). Useful before long work. Does nothing over stdio or in-process.
   */
  closeStream(): void
}
