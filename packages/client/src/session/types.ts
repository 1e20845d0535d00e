// The types around a session: what its methods take and give, what a borrower sets for itself, the
// options a session runs with, and what its borrowers share with it.

import type { CallToolResult, LoggingMessageNotification, Tool } from '@modelcontextprotocol/client'
import type { InputHandler } from '../protocol/input.js'
import type { ParamHeaderIndex } from '../protocol/input-rounds.js'
import type { Negotiated } from '../protocol/negotiate.js'
import type { TaskState } from '../protocol/tasks.js'
import type { ServerSpec } from '../server-spec.js'
import type { TraceEntry } from './trace.js'

export type TransportKind = 'stdio' | 'streamable-http' | 'sse'

/** null = every tool, [] = none, names = only those. */
export type ToolFilter = readonly string[] | null

export interface Progress {
  progress: number
  total?: number
  message?: string
}

export interface ListOptions {
  /** At most this many items: pages stop once that many are in. */
  limit?: number | undefined
  /** Per-page timeout in ms (default: the session's call timeout). */
  timeoutMs?: number | undefined
}

export interface CallOptions {
  /** Per-call timeout in ms, reset whenever the server reports progress (default: the session's). */
  timeoutMs?: number | undefined
  signal?: AbortSignal | undefined
  onProgress?: ((progress: Progress) => void) | undefined
  /**
   * Called when a tool call became a task (the server handed out a task instead of the result),
   * and with each new state of it (status, status message) while the session follows it.
   */
  onTask?: ((task: TaskState) => void) | undefined
  /**
   * 2025-11-25: run a tool that offers tasks (`execution.taskSupport: optional`) as a task (tools
   * that require one always are). Under 2026-07-28 the server decides.
   */
  preferTask?: boolean | undefined
  /**
   * Answers this call's questions instead of the session's `input`: its 2026-07-28 input rounds,
   * its task's questions, and the 2025-11-25 questions the server sends on this call's HTTP
   * response stream (a kind of question it has no answer for goes to the session's). What the
   * server does not tie to a call (stdio, the standalone stream) still goes to the session's
   * `input`, which also decides the capabilities declared. For a client that relays calls of
   * several users over one session, e.g. a gateway.
   */
  input?: InputHandler | undefined
  /** Log messages the server sends on this call's HTTP response stream; the rest go to `onLog`. */
  onLog?: ((message: LoggingMessageNotification['params']) => void) | undefined
  /**
   * Entries added to the request's `_meta`, e.g. W3C trace context (`traceparent`, `tracestate`,
   * which also go out as HTTP headers of the same names). The session's own entries (the
   * progress token, a 2026-07-28 envelope) win over these.
   */
  meta?: Readonly<Record<string, unknown>> | undefined
}

/** What `startTool` gives: the result, when the server answered at once, or the task to follow. */
export type ToolStart = { kind: 'result'; result: CallToolResult } | { kind: 'task'; task: TaskState }

/**
 * Options of one borrower of a shared session (`Session.borrow`): its own limits, cancellation,
 * traces and answers to the server's questions. The tools filter stays the session's.
 */
export interface BorrowOptions {
  /** Per-call limit in ms, reset by progress (default: the session's). */
  callTimeoutMs?: number | undefined
  /** A limit for everything this borrower does, in ms from now (as `totalTimeoutMs` is for a session). */
  totalTimeoutMs?: number | undefined
  /** Aborting cancels this borrower's requests, and only those. */
  signal?: AbortSignal | undefined
  onTrace?: ((entry: TraceEntry) => void) | undefined
  redactTraceArguments?: boolean | undefined
  /** Answers 2026-07-28 input rounds of this borrower's requests. */
  input?: InputHandler | undefined
  /** How long one of those questions may wait for an answer, in ms (default: the session's). */
  inputTimeoutMs?: number | undefined
  onDiagnostic?: ((message: string) => void) | undefined
  /**
   * Runs each tools/call, e.g. after waiting for a free call slot of a server that takes one call
   * at a time; `signal` aborts when the borrower gives up (its signal, or its total limit).
   */
  schedule?: (<T>(call: () => Promise<T>, signal: AbortSignal) => Promise<T>) | undefined
}

/** What a session knows of its server once the handshake is over. */
export interface SessionDetails {
  server: ServerSpec
  transportKind: TransportKind
  negotiated: Negotiated
  closed: Promise<void>
}

export interface SessionOptions {
  callTimeoutMs: number
  /** A deadline for everything the session does (`totalTimeoutMs`), as an absolute time in ms. */
  deadline: number | undefined
  signal: AbortSignal | undefined
  toolFilter: ToolFilter
  onTrace: ((entry: TraceEntry) => void) | undefined
  redactTraceArguments: boolean
  /** Answers the server's questions (elicitation, sampling, roots), in both eras. */
  input: InputHandler | undefined
  /** How long one question waits for `input` (0: no limit). */
  inputTimeoutMs: number
  onDiagnostic: ((message: string) => void) | undefined
  schedule?: BorrowOptions['schedule']
}

/** A list change or resource update a watch reports. */
export interface WatchedNotification {
  method: string
  params: Record<string, unknown> | undefined
}

/** What the borrowers of a session share with it: the server's lists and the watchers of its notifications. */
export interface SharedState {
  readonly hints: Map<string, CacheHint>
  tools: Promise<Tool[]> | undefined
  paramHeaders: ParamHeaderIndex | undefined
  outputSchemas: Map<string, unknown>
  /** Tools of the last list fetched that are safe to call twice (idempotent or read-only): resent on a dropped connection. */
  repeatableTools: ReadonlySet<string>
  readonly watchers: Set<(notification: WatchedNotification) => void>
  /** Followers of tasks, woken by the server's notices about them (by task id). */
  readonly taskNotices: Map<string, Set<() => void>>
}

/** A 2026-07-28 cache hint of a list or discover result. */
export interface CacheHint {
  ttlMs: number
  scope: string
}

/** What `Session.complete` completes: a prompt's argument or a resource template's variable. */
export type CompletionReference = { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string }

/** A server's completions of one argument. */
export interface Completion {
  values: string[]
  total?: number
  hasMore?: boolean
}
