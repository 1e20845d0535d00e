// One upstream session per caller, for upstreams that keep state per session (2025-11-25:
// what a server remembers, its subscriptions and log level, and, over stdio, every question and
// log message it sends without naming a call). A caller is a principal with its client's session
// (callers.ts `Caller.key`), so two clients of one static token have a session each. The first
// caller takes the upstream's running session (the one discovery started); each other caller's
// session starts on its first call, stops after a while without calls, and serves no one else.
// At most `max` of those are open per upstream: the longest idle one makes room, and with all
// busy a new caller's call is refused.

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
  /** Which caller each running session of the upstream serves. */
  readonly #owners = new WeakMap<Session, string>()
  #closed = false

  constructor(options: UserSessionsOptions) {
    this.#options = options
  }

  get size(): number {
    return this.#entries.size
  }

  /**
   * The lane for a caller's call: `running` (the upstream's session) when it is stateless
   * (2026-07-28: it serves every caller, so what names no call on it reaches none of them) or
   * when it serves this caller (the first to call), else the caller's own.
   */
  async lane(caller: string, running: Lane): Promise<Borrowed> {
    const session = running.session
    if (session.era === 'modern') {
      running.callers.shareWithAll()
      return { ...running, release() {} }
    }
    if (!this.#entries.has(caller) && !this.#owners.has(session)) this.#owners.set(session, caller)
    if (this.#owners.get(session) === caller) return { ...running, release() {} }
    const lane = await this.#acquire(caller)
    return { ...lane, release: () => this.#release(caller) }
  }

  async #acquire(caller: string): Promise<Lane> {
    if (this.#closed) throw new ClientError('cancelled', 'the gateway is shutting down')
    let entry = this.#entries.get(caller)
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
      this.#entries.set(caller, opened)
      opened.session.then(
        (session) => {
          void session.closed.then(() => this.#drop(caller, opened))
          if (this.#closed) void session.close()
        },
        () => this.#drop(caller, opened),
      )
    }
    entry.active += 1
    entry.lastUsed = Date.now()
    clearTimeout(entry.idleTimer)
    try {
      return { session: await entry.session, callers: entry.callers }
    } catch (error) {
      this.#release(caller)
      throw error
    }
  }

  /** A call of `caller` is done: its session stops after the idle time without calls. */
  #release(caller: string): void {
    const entry = this.#entries.get(caller)
    if (entry === undefined) return
    entry.active = Math.max(0, entry.active - 1)
    if (entry.active > 0) return
    clearTimeout(entry.idleTimer)
    entry.idleTimer = setTimeout(() => this.forget(caller), this.#options.idleMs)
    entry.idleTimer.unref()
  }

  /** Closes the caller's session (it went away, or lost its upstream state). */
  forget(caller: string): void {
    const entry = this.#entries.get(caller)
    if (entry === undefined) return
    this.#drop(caller, entry)
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

  #drop(caller: string, entry: Entry): void {
    if (this.#entries.get(caller) !== entry) return
    clearTimeout(entry.idleTimer)
    this.#entries.delete(caller)
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
        `upstream '${this.#options.name}' has a session for each of ${this.#options.max} callers in calls now; try again shortly`,
      )
    }
    this.forget(idlest[0])
  }
}
