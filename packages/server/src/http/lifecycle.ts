// The HTTP endpoint's life over time: the requests in flight, counted so that a graceful close
// can wait for them; what is open (2026 exchanges, stateless 2025 exchanges, SSE streams), so
// that keep-alive comments reach it every `keepAliveMs` (calls running longer switch to SSE to
// get them) and a close ends it; and the graceful close itself.

import type { ServerResponse } from 'node:http'
import type { ModernHandler } from '../server/modern.js'
import { keepAliveComment } from './sessions/streams.js'
import type { SessionTable } from './sessions/table.js'

/** An open 2026-07-28 exchange (modern.ts), for keep-alives and shutdown. */
export interface ModernExchange {
  startedAt: number
  /** Switches to SSE (if the client accepts it) so keep-alive comments can flow. */
  upgrade(): void
  /** The SSE response, once the exchange streams. */
  readonly stream: ServerResponse | undefined
  /** Ends the exchange now (shutdown after the grace period): the handler is cancelled. */
  close(): void
}

export interface LifecycleOptions {
  keepAliveMs: number
  sessions: SessionTable
  /** The 2026-07-28 side: its close ends open subscriptions and waits for running tasks. */
  modern: ModernHandler
  report(error: unknown): void
}

/** Starts the keep-alives at construction; they stop when the endpoint closes. */
export class Lifecycle {
  /** Open 2026-07-28 exchanges. */
  readonly modernExchanges = new Set<ModernExchange>()
  /** The transports of stateless 2025 exchanges still running (stateless-exchange.ts). */
  readonly statelessTransports = new Set<{ close(): Promise<void> }>()
  /** SSE responses that get keep-alive comments (the sessions' streams). */
  readonly liveStreams: Set<ServerResponse> = new Set()
  readonly #options: LifecycleOptions
  readonly #keepAliveTimer: NodeJS.Timeout
  #inFlight = 0
  #closing = false
  #closed: Promise<void> | undefined
  #drained: (() => void) | undefined

  constructor(options: LifecycleOptions) {
    this.#options = options
    this.#keepAliveTimer = setInterval(() => this.#keepAlive(), options.keepAliveMs)
    this.#keepAliveTimer.unref()
  }

  /** True once close() began: new requests get 503. */
  get closing(): boolean {
    return this.#closing
  }

  /** Requests being answered now. */
  get inFlight(): number {
    return this.#inFlight
  }

  /** Counts a request handed to the protocol side. */
  exchangeStarted(): void {
    this.#inFlight += 1
  }

  /** Counts it back when it ends (answered, cancelled or abandoned). */
  exchangeEnded(): void {
    this.#inFlight -= 1
    if (this.#inFlight === 0) this.#drained?.()
  }

  /**
   * Graceful close: in-flight requests get up to `graceMs` to finish, then every session is
   * closed and every stream ended.
   */
  close(graceMs: number): Promise<void> {
    if (this.#closed !== undefined) return this.#closed
    const { sessions, modern } = this.#options
    this.#closing = true
    clearInterval(this.#keepAliveTimer)
    sessions.dispose()
    // Open 2026-07-28 subscriptions end gracefully now (a final result), not at the grace's end.
    const tasksEnded = modern.close(graceMs)
    const requestsEnded = new Promise<void>((resolve) => {
      let timer: NodeJS.Timeout | undefined
      const finish = () => {
        if (timer !== undefined) clearTimeout(timer)
        this.#drained = undefined
        this.#endEverything()
        resolve()
      }
      if (this.#inFlight <= 0) {
        finish()
        return
      }
      this.#drained = finish
      timer = setTimeout(finish, graceMs)
      timer.unref()
    })
    this.#closed = Promise.all([requestsEnded, tasksEnded]).then(() => {})
    return this.#closed
  }

  #keepAlive(): void {
    const olderThan = Date.now() - this.#options.keepAliveMs
    for (const session of this.#options.sessions.values()) session.transport.upgradeSlowExchanges(olderThan)
    for (const stream of this.liveStreams) if (!stream.destroyed) stream.write(keepAliveComment)
    for (const exchange of this.modernExchanges) {
      if (exchange.startedAt <= olderThan) exchange.upgrade()
      const stream = exchange.stream
      if (stream !== undefined && !stream.destroyed) stream.write(keepAliveComment)
    }
  }

  #endEverything(): void {
    this.#options.sessions.closeAll()
    for (const transport of this.statelessTransports) transport.close().catch(this.#options.report)
    this.statelessTransports.clear()
    for (const exchange of [...this.modernExchanges]) exchange.close()
    for (const stream of this.liveStreams) stream.end()
    this.liveStreams.clear()
  }
}
