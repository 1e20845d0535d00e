// Tool calls on one warm stdio server, counted across every command using it. Without
// --keep-alive each command has a server of its own; with it, commands share one, and a server
// that rewrites its state per call (server-memory) must still get only as many calls at once as
// the user allowed. So each command keeps its own limit (put's --concurrency, a profile's
// `concurrency`, else 1), checked against all calls in flight on that server: a call starts when
// fewer than its command's limit are running and no call waits before it; else it waits its turn.

import { ClientError } from '@mcp-kit/client'

interface Waiter {
  limit: number
  start: () => void
}

export class CallSlots {
  #running = 0
  readonly #waiting: Waiter[] = []

  /** Calls running now. */
  get running(): number {
    return this.#running
  }

  /** A `schedule` for Session.borrow: runs calls under `limit`. */
  scheduler(limit: number): <T>(call: () => Promise<T>, signal: AbortSignal) => Promise<T> {
    return async (call, signal) => {
      await this.#acquire(limit, signal)
      try {
        return await call()
      } finally {
        this.#running -= 1
        this.#wake()
      }
    }
  }

  #acquire(limit: number, signal: AbortSignal): Promise<void> {
    if (this.#running < limit && this.#waiting.length === 0) {
      this.#running += 1
      return Promise.resolve()
    }
    if (signal.aborted) return Promise.reject(cancelled(signal))
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        const index = this.#waiting.indexOf(waiter)
        if (index !== -1) this.#waiting.splice(index, 1)
        reject(cancelled(signal))
        this.#wake()
      }
      const waiter: Waiter = {
        limit,
        start: () => {
          signal.removeEventListener('abort', onAbort)
          this.#running += 1
          resolve()
        },
      }
      signal.addEventListener('abort', onAbort, { once: true })
      this.#waiting.push(waiter)
    })
  }

  /** Starts waiting calls in arrival order; none overtakes another (a put cannot starve a cat). */
  #wake(): void {
    for (
      let next = this.#waiting[0];
      next !== undefined && this.#running < next.limit;
      next = this.#waiting[0]
    ) {
      this.#waiting.shift()
      next.start()
    }
  }
}

function cancelled(signal: AbortSignal): unknown {
  return ClientError.isInstance(signal.reason)
    ? signal.reason
    : new ClientError('cancelled', 'cancelled while waiting for the server to finish other calls')
}
