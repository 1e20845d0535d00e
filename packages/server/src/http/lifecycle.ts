// The HTTP handler's life over time (handler.ts): the requests in flight, counted so that a
// graceful close can wait for them; keep-alive comments every `keepAliveMs` on open SSE streams
// (calls running longer switch to SSE to get them); and the graceful close itself.

import type { ServerResponse } from 'node:http'
import type { ModernHandler } from '../server/modern.js'
import type { ModernExchange } from './modern.js'
import { keepAliveComment } from './sessions/streams.js'
import type { SessionTable } from './sessions/table.js'
import type { StatelessExchanges } from './stateless-exchange.js'

/** What the handler serves with: what gets keep-alives and what a close ends. */
export interface LifecycleParts {
  keepAliveMs: number
  sessions: SessionTable
  statelessExchanges: StatelessExchanges
  modernExchanges: Set<ModernExchange>
  /** SSE responses that get keep-alive comments (the session hub's). */
  liveStreams: Set<ServerResponse>
  /** The 2026-07-28 side: its close ends open subscriptions and waits for running tasks. */
  modern: ModernHandler
}

export interface Lifecycle {
  /** True once close() began: new requests get 503. */
  readonly closing: boolean
  /** Requests being answered now. */
  readonly inFlight: number
  /** Counts a request handed to the protocol side. */
  exchangeStarted(): void
  /** Counts it back when it ends (answered, cancelled or abandoned). */
  exchangeEnded(): void
  /**
   * Graceful close: in-flight requests get up to `graceMs` to finish, then every session is
   * closed and every stream ended.
   */
  close(graceMs: number): Promise<void>
}

/** Starts the keep-alives; they stop when the handler closes. */
export function startLifecycle(parts: LifecycleParts): Lifecycle {
  const { keepAliveMs, sessions, statelessExchanges, modernExchanges, liveStreams, modern } = parts
  let inFlight = 0
  let closing = false
  let closed: Promise<void> | undefined
  let drained: (() => void) | undefined

  const keepAliveTimer = setInterval(() => {
    const olderThan = Date.now() - keepAliveMs
    for (const session of sessions.values()) session.transport.upgradeSlowExchanges(olderThan)
    for (const stream of liveStreams) if (!stream.destroyed) stream.write(keepAliveComment)
    for (const exchange of modernExchanges) {
      if (exchange.startedAt <= olderThan) exchange.upgrade()
      const stream = exchange.stream
      if (stream !== undefined && !stream.destroyed) stream.write(keepAliveComment)
    }
  }, keepAliveMs)
  keepAliveTimer.unref()

  return {
    get closing() {
      return closing
    },
    get inFlight() {
      return inFlight
    },
    exchangeStarted() {
      inFlight += 1
    },
    exchangeEnded() {
      inFlight -= 1
      if (inFlight === 0) drained?.()
    },
    close(graceMs) {
      if (closed !== undefined) return closed
      closing = true
      clearInterval(keepAliveTimer)
      sessions.dispose()
      // Open 2026-07-28 subscriptions end gracefully now (a final result), not at the grace's end.
      const tasksEnded = modern.close(graceMs)
      const requestsEnded = new Promise<void>((resolve) => {
        let timer: NodeJS.Timeout | undefined
        const finish = () => {
          if (timer !== undefined) clearTimeout(timer)
          drained = undefined
          sessions.closeAll()
          statelessExchanges.closeAll()
          for (const exchange of [...modernExchanges]) exchange.close()
          for (const stream of liveStreams) stream.end()
          liveStreams.clear()
          resolve()
        }
        if (inFlight <= 0) {
          finish()
          return
        }
        drained = finish
        timer = setTimeout(finish, graceMs)
        timer.unref()
      })
      closed = Promise.all([requestsEnded, tasksEnded]).then(() => {})
      return closed
    },
  }
}
