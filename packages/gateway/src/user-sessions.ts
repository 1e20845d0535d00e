// One upstream session per principal, for upstreams that keep state per session (2025-11-25:
// what a server remembers, its subscriptions and log level, and, over stdio, every question and
// log message it sends without naming a call). The first principal to call takes the upstream's
// running session (the one discovery started); each other principal's session starts on its
// first call, stops after a while without calls, and serves no one else. At most `max` of those
// are open per upstream: the longest idle one makes room, and with all busy a new user's call is
// refused.

import { ClientError, type Session } from '@mcp-kit/client'
import { Callers } from './callers.js'

/** A session and the calls in flight on it. */
export interface Lane {
  session: Session
  callers: Callers
}

/** The lane a call runs on; `release` once the call is done. */
export interface Borrowed extends Lane {
  release(): void
}

interface Entry {
  session: Promise<Session>
  callers: Callers
  active: number
  lastUsed: number
  idleTimer: NodeJS.Timeout | undefined
}

export interface UserSessionsOptions {
  /** The upstream's name, for messages. */
  name: string
  /** Opens a session whose unrelated traffic goes to `callers`. */
  open(callers: Callers): Promise<Session>
  /** A session without calls for this long is closed. */
  idleMs: number
  /** Sessions open at once. */
  max: number
}

export class UserSessions {
  readonly #options: UserSessionsOptions
  readonly #entries = new Map<string, Entry>()
  /** Which principal each running session of the upstream serves. */
  readonly #owners = new WeakMap<Session, string>()
  #closed = false

  constructor(options: UserSessionsOptions) {
    this.#options = options
  }

  get size(): number {
    return this.#entries.size
  }

  /**
   * The lane for a principal's call: `running` (the upstream's session) when it is stateless
   * (2026-07-28) or when it serves this principal (the first to call), else the principal's own.
   */
  async lane(principal: string, running: Lane): Promise<Borrowed> {
    const session = running.session
    if (session.era === 'modern') return { ...running, release() {} }
    if (!this.#entries.has(principal) && !this.#owners.has(session)) this.#owners.set(session, principal)
    if (this.#owners.get(session) === principal) return { ...running, release() {} }
    const lane = await this.#acquire(principal)
    return { ...lane, release: () => this.#release(principal) }
  }

  async #acquire(principal: string): Promise<Lane> {
    if (this.#closed) throw new ClientError('cancelled', 'the gateway is shutting down')
    let entry = this.#entries.get(principal)
    if (entry === undefined) {
      this.#makeRoom()
      const callers = new Callers()
      const opened: Entry = {
        session: this.#options.open(callers),
        callers,
        active: 0,
        lastUsed: Date.now(),
        idleTimer: undefined,
      }
      entry = opened
      this.#entries.set(principal, opened)
      opened.session.then(
        (session) => {
          void session.closed.then(() => this.#drop(principal, opened))
          if (this.#closed) void session.close()
        },
        () => this.#drop(principal, opened),
      )
    }
    entry.active += 1
    entry.lastUsed = Date.now()
    clearTimeout(entry.idleTimer)
    try {
      return { session: await entry.session, callers: entry.callers }
    } catch (error) {
      this.#release(principal)
      throw error
    }
  }

  /** A call of `principal` is done: its session stops after the idle time without calls. */
  #release(principal: string): void {
    const entry = this.#entries.get(principal)
    if (entry === undefined) return
    entry.active = Math.max(0, entry.active - 1)
    if (entry.active > 0) return
    clearTimeout(entry.idleTimer)
    entry.idleTimer = setTimeout(() => this.forget(principal), this.#options.idleMs)
    entry.idleTimer.unref()
  }

  /** Closes the principal's session (it went away, or lost its upstream state). */
  forget(principal: string): void {
    const entry = this.#entries.get(principal)
    if (entry === undefined) return
    this.#drop(principal, entry)
    void entry.session.then((session) => session.close()).catch(() => {})
  }

  async close(): Promise<void> {
    this.#closed = true
    const entries = [...this.#entries.values()]
    this.#entries.clear()
    await Promise.all(
      entries.map(async (entry) => {
        clearTimeout(entry.idleTimer)
        await entry.session.then((session) => session.close()).catch(() => {})
      }),
    )
  }

  #drop(principal: string, entry: Entry): void {
    if (this.#entries.get(principal) !== entry) return
    clearTimeout(entry.idleTimer)
    this.#entries.delete(principal)
  }

  #makeRoom(): void {
    if (this.#entries.size < this.#options.max) return
    let idlest: [string, Entry] | undefined
    for (const item of this.#entries) {
      if (item[1].active === 0 && (idlest === undefined || item[1].lastUsed < idlest[1].lastUsed))
        idlest = item
    }
    if (idlest === undefined) {
      throw new Error(
        `upstream '${this.#options.name}' has a session for each of ${this.#options.max} users in calls now; try again shortly`,
      )
    }
    this.forget(idlest[0])
  }
}
