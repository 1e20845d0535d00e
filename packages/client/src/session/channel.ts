// One session's (or one borrower's) way to the server over the shared connection: requests under its
// limits and cancellation, with its own question handler and log sink, failures named after the request.

import type { Era } from '@mcp-kit/core'
import type { LoggingMessageNotification } from '@modelcontextprotocol/client'
import { ClientError } from '../errors.js'
import type { Connection, RequestScope } from '../protocol/connection.js'
import { answerInput, callInput, isInputTimeout } from '../protocol/input.js'
import { withInputRounds } from '../protocol/input-rounds.js'
import type { MessageTransport } from '../protocol/message-transport.js'
import type { ProcessTransport } from '../stdio/process-transport.js'
import { describeExit, describeLimit, limitOption, normalizeError } from './errors.js'
import { traceSampling } from './sampling-trace.js'
import type { CallOptions, SessionOptions, TransportKind } from './types.js'

export const neverAborted: AbortSignal = new AbortController().signal

/** What a request carries on the wire besides its message. */
export interface WireOptions {
  /** Extra HTTP headers (2026-07-28 `Mcp-Param-*`). */
  headers?: Record<string, string> | undefined
  /** A tools/call whose tool is safe to call twice (protocol/repeatable.ts): resent on a dropped connection. */
  repeatable?: boolean | undefined
}

export class SessionChannel {
  readonly connection: Connection
  readonly transport: MessageTransport
  readonly transportKind: TransportKind
  readonly era: Era
  readonly options: SessionOptions
  /** How traces name the server. */
  readonly serverName: string
  /** Aborted when a limit of this session (or borrower) fires: wakes its task followers. */
  readonly limits = new AbortController()
  /** A borrower's own cancellation (undefined for the session itself, which cancels everything). */
  readonly #borrowed: AbortController | undefined
  readonly #stopWatching: () => void
  #stopReason: ClientError | undefined
  #closing: Promise<void> | undefined

  constructor(
    connection: Connection,
    transport: MessageTransport,
    transportKind: TransportKind,
    era: Era,
    options: SessionOptions,
    borrowed: boolean,
    serverName: string,
  ) {
    this.connection = connection
    this.transport = transport
    this.transportKind = transportKind
    this.era = era
    this.options = options
    this.serverName = serverName
    this.#borrowed = borrowed ? new AbortController() : undefined
    if (!borrowed) connection.closeReason = () => this.lostConnection()
    this.#stopWatching = this.#watchLimits()
  }

  /** The server's process, for stdio sessions (pid, exit status, stderr tail). */
  get process(): ProcessTransport | undefined {
    return this.transportKind === 'stdio' ? (this.transport as ProcessTransport) : undefined
  }

  /** True when calls mirror x-mcp-header arguments into Mcp-Param headers (2026 over HTTP). */
  get mirrorsHeaders(): boolean {
    return this.era === 'modern' && this.transportKind === 'streamable-http'
  }

  /** Why a limit of this session (or borrower) stopped it, once one did. */
  get stopReason(): ClientError | undefined {
    return this.#stopReason
  }

  /** Runs one request with the per-call timeout (reset by progress), the session limits and cancellation. */
  async request(
    what: string,
    method: string,
    params: Record<string, unknown> | undefined,
    options: CallOptions,
    wire: WireOptions = {},
  ): Promise<unknown> {
    const timeoutMs = options.timeoutMs ?? this.options.callTimeoutMs
    if (this.#stopReason) throw describeLimit(this.#stopReason, what, timeoutMs, limitOption(options))
    const own = this.withOwn(options.signal)
    const scoped = this.#scope(what, options, own)
    const meta = options.meta
    const sent =
      meta === undefined
        ? params
        : { ...params, _meta: { ...meta, ...(params?._meta as Record<string, unknown> | undefined) } }
    try {
      return await this.connection.request(method, sent, {
        timeoutMs,
        onProgress: options.onProgress,
        signal: scoped?.signal ?? own,
        headers: wire.headers,
        repeatable: wire.repeatable,
        scope: scoped?.scope,
      })
    } catch (error) {
      throw this.failure(error, what, timeoutMs, options.signal, limitOption(options))
    }
  }

  /** A request that may answer `input_required` (2026-07-28), run through its input rounds. */
  rounds(
    what: string,
    method: string,
    params: Record<string, unknown>,
    options: CallOptions,
    wire: WireOptions = {},
  ): Promise<unknown> {
    return withInputRounds(
      what,
      params,
      (round) => this.request(what, method, round, options, wire),
      this.#input(options),
      this.withOwn(options.signal ?? this.options.signal) ?? neverAborted,
      this.options.inputTimeoutMs,
    )
  }

  /** The call's question handler (its own, else the session's), its sampling traced. */
  #input(options: CallOptions) {
    return traceSampling(callInput(options.input, this.options.input), this.options, this.serverName)
  }

  /**
   * Where the server's messages about one call go when the call has its own `input` or `onLog`.
   * A question of the call that cannot be answered (or not in time) fails that call only.
   */
  #scope(
    what: string,
    options: CallOptions,
    signal: AbortSignal | undefined,
  ): { scope: RequestScope; signal: AbortSignal } | undefined {
    const { onLog } = options
    if (options.input === undefined && onLog === undefined) return undefined
    const input = this.#input(options)
    const failed = new AbortController()
    const combined = signal === undefined ? failed.signal : AbortSignal.any([signal, failed.signal])
    const scope: RequestScope = {}
    if (input !== undefined) {
      scope.onRequest = async (method, params) => {
        try {
          return await answerInput(
            input,
            { method, params },
            { during: what, signal: combined },
            this.options.inputTimeoutMs,
          )
        } catch (error) {
          if ((ClientError.isInstance(error) && error.code === 'input_required') || isInputTimeout(error))
            failed.abort(error)
          throw error
        }
      }
    }
    if (onLog !== undefined) {
      scope.onNotification = (method, params) => {
        if (method !== 'notifications/message' || params === undefined) return false
        onLog(params as LoggingMessageNotification['params'])
        return true
      }
    }
    return { scope, signal: combined }
  }

  /** Whatever a request ran into, as a ClientError that names the request. */
  failure(
    error: unknown,
    what: string,
    timeoutMs: number,
    signal: AbortSignal | undefined,
    timeoutOption?: string,
  ): ClientError {
    return normalizeError(error, {
      what,
      timeoutMs,
      timeoutOption,
      signal,
      process: this.process,
      connectionClosed: this.connection.closed,
      lostConnection: () => this.lostConnection(),
    })
  }

  /** A borrower's requests also end with its own cancellation (one signal for the connection to watch). */
  withOwn(signal: AbortSignal | undefined): AbortSignal | undefined {
    const own = this.#borrowed?.signal
    if (own === undefined) return signal
    return signal === undefined ? own : AbortSignal.any([signal, own])
  }

  /** Cancels every call in flight with `reason` (a borrower's calls only, for a borrower). */
  failPending(reason: ClientError): void {
    if (this.#borrowed) this.#borrowed.abort(reason)
    else this.connection.cancelAll(reason)
  }

  /** Why the connection went away: we closed it, or the server exited (with its last words). */
  lostConnection(): ClientError {
    if (this.#closing) return new ClientError('cancelled', 'the session was closed')
    const exit = this.process?.exit
    if (!exit) return new ClientError('connect_failed', 'the connection to the server was lost')
    return new ClientError('server_exited', describeExit(exit, 'during the request'), {
      details: { exitCode: exit.code, signal: exit.signal, stderr: exit.stderrTail },
    })
  }

  /** Ends a borrower's requests; for the session itself, closes the connection (and the server). */
  close(): Promise<void> {
    if (this.#borrowed) {
      this.#closing ??= Promise.resolve().then(() => {
        this.#stopWatching()
        this.#borrowed?.abort(new ClientError('cancelled', 'the session was closed'))
      })
      return this.#closing
    }
    this.#closing ??= (async () => {
      this.#stopWatching()
      // An HTTP session is ended on the server too (DELETE), so it does not linger until it expires.
      const terminate = (this.transport as { terminateSession?: () => Promise<void> }).terminateSession
      if (this.transportKind === 'streamable-http' && terminate && !this.connection.closed) {
        await terminate.call(this.transport).catch(() => {})
      }
      await this.connection.close().catch(() => {})
    })()
    return this.#closing
  }

  /** One listener on the caller's signal and one timer for the deadline, for all requests. */
  #watchLimits(): () => void {
    const stop = (reason: ClientError) => {
      this.#stopReason ??= reason
      if (this.#borrowed) this.#borrowed.abort(reason)
      else this.connection.cancelAll(reason)
      this.limits.abort(reason)
    }
    const signal = this.options.signal
    // A ClientError given as the abort's reason is what the requests fail with (a borrower's
    // owner failing its calls); any other abort is a cancellation.
    const onAbort = () =>
      stop(ClientError.isInstance(signal?.reason) ? signal.reason : new ClientError('cancelled', 'cancelled'))
    signal?.addEventListener('abort', onAbort, { once: true })
    const deadline = this.options.deadline
    const timer =
      deadline === undefined
        ? undefined
        : setTimeout(
            () =>
              stop(
                new ClientError('timeout', 'the total time limit (totalTimeoutMs) was reached', {
                  details: { limit: 'total' },
                }),
              ),
            Math.max(0, deadline - Date.now()),
          )
    timer?.unref()
    return () => {
      signal?.removeEventListener('abort', onAbort)
      clearTimeout(timer)
    }
  }
}
