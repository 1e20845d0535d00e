// What a tool, resource or prompt handler gets besides its arguments: cancellation, progress,
// logging, who is asking, and a way to ask the client back (elicitation, sampling, roots). The
// same shape serves both protocol eras and the embedded runtime: under 2025-11-25 a question is
// a request to the client and the handler waits for its answer; under 2026-07-28 it ends this
// round with an `input_required` result, and the handler runs again from the top when the
// client retries with the answers (already-answered questions then return at once).

import type {
  ClientCapabilities,
  CreateMessageRequest,
  CreateMessageResult,
  CreateMessageResultWithTools,
  ElicitRequest,
  ElicitResult,
  Implementation,
  ListRootsResult,
  LoggingLevel,
} from '@modelcontextprotocol/server'

import type { TraceAnnotations } from './trace.js'

export type { ClientCapabilities, ElicitResult, Implementation, ListRootsResult, LoggingLevel }

/** Who made the request, as the server's authentication established it. */
export interface AuthInfo {
  /** The access token (never sent anywhere by mcp-kit; handlers should not log it). */
  token: string
  clientId: string
  scopes: string[]
  /** Expiry in seconds since the epoch, when known. */
  expiresAt?: number
  /** The token's subject (the user), when known. */
  subject?: string
  /** The resource (audience) the token was issued for, when known. */
  resource?: URL
  extra?: Record<string, unknown>
}

export type SamplingRequest = CreateMessageRequest['params']
export type ElicitationRequest = ElicitRequest['params']
/** A sampling answer; with `tools` in the request its content may hold tool calls. */
export type SamplingResult = CreateMessageResult | CreateMessageResultWithTools

/**
 * W3C trace context (https://www.w3.org/TR/trace-context/): the caller's span, for spans of this
 * call to join its trace.
 */
export interface TraceContext {
  /** `00-<trace id>-<parent span id>-<flags>`, lower-case hex. */
  traceparent: string
  tracestate?: string
}

/** One question for the client: what `ask` takes. */
export type InputRequest =
  | { method: 'elicitation/create'; params: ElicitationRequest }
  | { method: 'sampling/createMessage'; params: SamplingRequest }
  | { method: 'roots/list'; params?: Record<string, unknown> }

/** The answer type of an InputRequest. */
export type InputResponseFor<T extends InputRequest> = T extends { method: 'elicitation/create' }
  ? ElicitResult
  : T extends { method: 'sampling/createMessage' }
    ? SamplingResult
    : ListRootsResult

export interface AskOptions {
  /**
   * The question's key in a 2026-07-28 `inputRequests` map. By default questions are numbered in
   * the order the handler asks them, which is stable as long as the handler asks the same
   * questions in the same order on every round.
   */
  key?: string
}

export interface HandlerContext {
  /** Aborted when the client cancels the request, the session ends or the server shuts down. */
  signal: AbortSignal
  /** The JSON-RPC id of the request (undefined in the embedded runtime). */
  requestId: string | number | undefined
  /** The MCP session (2025-11-25 HTTP sessions; undefined otherwise). */
  sessionId: string | undefined
  /** Who the bearer token belongs to, when the server checks one. */
  authInfo: AuthInfo | undefined
  /** What the client says about itself (at initialize, or on this request under 2026-07-28). */
  clientInfo: Implementation | undefined
  /** What the client can do (at initialize, or for this request under 2026-07-28). */
  clientCapabilities: ClientCapabilities | undefined
  /** The protocol revision of this request (undefined in the embedded runtime). */
  protocolVersion: string | undefined
  /**
   * The W3C trace context the request came with: `_meta.traceparent` (and `tracestate`), else
   * the HTTP `traceparent` header; undefined when it had none (or a malformed one). A handler
   * that calls further servers passes it on so one trace covers the whole chain (a gateway does).
   */
  readonly traceContext?: TraceContext | undefined
  /** Reports progress; does nothing when the client did not ask for progress. */
  progress(progress: number, total?: number, message?: string): Promise<void>
  /** Sends a log message to the client (filtered by the level the client asked for). */
  log(level: LoggingLevel, data: unknown, logger?: string): Promise<void>
  /** Asks the client's model for a completion (needs the client's `sampling` capability). */
  sample(request: SamplingRequest, options?: AskOptions): Promise<SamplingResult>
  /** Asks the user, through the client, for input: a form or a URL to visit (`elicitation`). */
  elicit(request: ElicitationRequest, options?: AskOptions): Promise<ElicitResult>
  /** Asks the client for its roots (`roots`). */
  listRoots(options?: AskOptions): Promise<ListRootsResult>
  /**
   * Asks several questions at once: one round trip under 2026-07-28, concurrent requests under
   * 2025-11-25. Keys name the questions (and are the `inputRequests` keys under 2026-07-28).
   */
  ask<T extends Record<string, InputRequest>>(
    requests: T,
  ): Promise<{ [K in keyof T]: InputResponseFor<T[K]> }>
  /**
   * Fails the request unless the client declared these capabilities (e.g. `{ sampling: {} }`):
   * a MissingRequiredClientCapability error (-32021) under 2026-07-28, an error result naming
   * the missing feature under 2025-11-25. The questions above check their own capability.
   */
  requireCapabilities(capabilities: ClientCapabilities): void
  /**
   * Ends the HTTP response stream that carries this request; the client reconnects and gets the
   * rest by polling (SEP-1699). Useful before long work. Only 2025-11-25 HTTP sessions.
   */
  closeStream(): void
  /**
   * The task this call runs as (2026-07-28 tasks extension), once it is one; undefined otherwise.
   */
  readonly taskId: string | undefined
  /**
   * Under 2026-07-28, a string the handler keeps for its own retry: set before a question ends
   * the round, it travels inside the signed `requestState` (the client sees it but can neither
   * change it nor use it on another request or as another principal) and is here again when the
   * client retries with its answers. Undefined on a first round; setting it does nothing under
   * 2025-11-25, in a task and in the embedded runtime. A gateway keeps the handle of the
   * upstream call waiting for the answers in it.
   */
  roundState: string | undefined
  /**
   * For a tool with `taskStart: 'handler'`: the request ends here with a task handle and the rest
   * of the call runs as a task, when the client declared the tasks extension. From then on
   * questions are answered through `tasks/update`, progress becomes the task's status message and
   * log messages are dropped (the extension has no channel for them). Does nothing otherwise (no
   * extension, a 2025-11-25 session, the embedded runtime, or the call already is a task).
   */
  startTask(): Promise<void>
  /**
   * Adds fields to this call's trace entry, e.g. which upstream a gateway asked and how long it
   * took (`upstream`, `upstream_ms`; the runtime then adds `gateway_ms`, the time spent here).
   */
  annotateTrace(fields: TraceAnnotations): void
}
