// One upstream server of a gateway: a client session started on first use (or at once), its
// discovery, and its life — list changes and cache hints refresh it (upstream-lists.ts), a crash
// restarts it with backoff while the other upstreams keep serving, idleness may stop it, and a 2025
// HTTP server that forgot its session is reconnected. A 2025 upstream serves each caller on a
// session of its own (user-sessions.ts), and what no call is named in goes by callers.ts. Stdio
// upstreams are client sessions, so the client package's process-group hygiene (and its
// watchdog) keeps them from outliving the gateway.

import {
  ClientError,
  type ConnectOptions,
  connect,
  type InputHandler,
  type Root,
  type Session,
} from '@mcp-kit/client'
import type { Discovery, DiscoveryCache, GatewayEvent, UpstreamOptions, UpstreamState } from '../types.js'
import { type Caller, Callers } from './callers.js'
import { isLoginLost } from './upstream-auth.js'
import { ListFollower, listEverything } from './upstream-lists.js'
import { UserSessions } from './user-sessions.js'

export type { Caller }

export interface UpstreamRuntime {
  connect: ConnectOptions
  idleStopMs: number | undefined
  /** Sessions per upstream that keeps state per session, one per caller in calls. */
  maxUserSessions: number
  restartDelayMs: number
  maxRestartDelayMs: number
  cache: DiscoveryCache | undefined
  /** The roots upstreams are given (none declared when undefined). */
  roots: readonly Root[] | undefined
  emit(event: GatewayEvent): void
  /** Called with fresh lists whenever they were (re)discovered. */
  discovered(upstream: Upstream, discovery: Discovery): void
}

/** The key discovery is remembered under: the launch spec, without secrets' values. */
export function cacheKey(options: UpstreamOptions): string {
  const server = options.server
  if (server.transport === 'http') return `http ${server.url}`
  return JSON.stringify([server.command, server.args, Object.keys(server.env ?? {}).sort(), server.cwd ?? ''])
}

export class Upstream {
  readonly name: string
  readonly options: UpstreamOptions
  state: UpstreamState = 'idle'
  /** The last failure, for /healthz and error messages. */
  lastError: string | undefined
  restarts = 0
  readonly #runtime: UpstreamRuntime
  #session: Promise<Session> | undefined
  #discovering: Promise<Discovery> | undefined
  #current: Session | undefined
  #lists: ListFollower | undefined
  #idleTimer: NodeJS.Timeout | undefined
  #restartTimer: NodeJS.Timeout | undefined
  #restartDelay: number
  #closed = false
  #active = 0
  /** The calls on the running session. */
  #callers = new Callers()
  readonly #users: UserSessions

  constructor(options: UpstreamOptions, runtime: UpstreamRuntime) {
    this.name = options.name
    this.options = options
    this.#runtime = runtime
    this.#restartDelay = runtime.restartDelayMs
    this.#users = new UserSessions({
      name: options.name,
      open: (callers) => this.#open(callers),
      idleMs: runtime.idleStopMs ?? userSessionIdleMs,
      max: runtime.maxUserSessions,
    })
  }

  get pid(): number | undefined {
    return this.#current?.process?.pid
  }

  get protocolVersion(): string | undefined {
    return this.#current?.protocolVersion
  }

  /** The running session, started if need be. Failures are ClientErrors naming the upstream. */
  session(): Promise<Session> {
    if (this.#closed) return Promise.reject(new ClientError('cancelled', `the gateway is shutting down`))
    this.#session ??= this.#start()
    return this.#session
  }

  /**
   * Runs `work` with a session of the caller (its lane), on behalf of `caller`. A 2025 HTTP
   * upstream that lost its session (404) or an upstream that went away before answering is
   * reconnected and asked once more.
   */
  async use<T>(caller: Caller, work: (session: Session) => Promise<T>): Promise<T> {
    this.#active += 1
    clearTimeout(this.#idleTimer)
    try {
      for (let attempt = 1; ; attempt++) {
        const running = { session: await this.session(), callers: this.#callers }
        const lane = await this.#users.lane(caller.key, running)
        const leave = lane.callers.enter(caller)
        try {
          return await work(lane.session)
        } catch (error) {
          const shared = lane.session === running.session
          // Only a new login helps: the upstream fails (reported, retried), as at its start.
          if (isLoginLost(error)) {
            if (shared) this.#lost(lane.session, error.message)
            else this.#users.forget(caller.key)
          }
          if (attempt > 1 || !this.#lostBeforeAnswer(error, lane.session)) throw error
          if (shared) this.#forget(lane.session)
          else this.#users.forget(caller.key)
        } finally {
          leave()
          lane.release()
        }
      }
    } finally {
      this.#active -= 1
      this.#armIdleStop()
    }
  }

  /** The lists of the running upstream (starting it if need be). */
  async refresh(): Promise<Discovery> {
    await this.session()
    return this.#discovering as Promise<Discovery>
  }

  /** Follows one resource upstream (2025 `resources/subscribe`, 2026 `subscriptions/listen`). */
  async watchResource(uri: string, onUpdate: () => void): Promise<() => void> {
    const session = await this.session()
    const stop = new AbortController()
    this.#lists?.signal.addEventListener('abort', () => stop.abort(), { once: true })
    void session
      .watch(
        (notification) => {
          if (notification.method === 'notifications/resources/updated' && notification.params?.uri === uri)
            onUpdate()
        },
        { lists: false, resources: [uri], signal: stop.signal },
      )
      .catch(() => {})
    return () => stop.abort()
  }

  /** Stops the upstream for good (gateway shutdown). */
  async close(): Promise<void> {
    this.#closed = true
    clearTimeout(this.#idleTimer)
    clearTimeout(this.#restartTimer)
    const session = this.#current
    this.#current = undefined
    this.#lists?.stop()
    await this.#users.close()
    if (session !== undefined) {
      await session.close()
      this.#runtime.emit({ type: 'stopped', upstream: this.name, reason: 'shutdown' })
    }
    this.state = 'stopped'
  }

  async #start(): Promise<Session> {
    this.state = this.restarts > 0 ? 'restarting' : 'starting'
    const started = performance.now()
    let session: Session
    const callers = new Callers()
    this.#callers = callers
    try {
      session = await this.#open(callers)
    } catch (error) {
      this.#session = undefined
      this.state = 'failed'
      this.lastError = error instanceof Error ? error.message : String(error)
      this.#scheduleRestart()
      throw new ClientError(
        ClientError.isInstance(error) ? error.code : 'connect_failed',
        `upstream '${this.name}' did not start: ${this.lastError}`,
        { cause: error },
      )
    }
    if (this.#closed) {
      await session.close()
      throw new ClientError('cancelled', 'the gateway is shutting down')
    }
    this.#current = session
    this.state = 'running'
    this.lastError = undefined
    this.#restartDelay = this.#runtime.restartDelayMs
    this.#runtime.emit({
      type: 'started',
      upstream: this.name,
      pid: session.process?.pid,
      protocolVersion: session.protocolVersion,
      ms: Math.round(performance.now() - started),
    })
    void session.closed.then(() => this.#lost(session))
    // Lists are taken at every start: a restarted or lazily started upstream may offer other
    // things than before (and a client is told when it does).
    this.#lists = new ListFollower(session, (listed) => this.#discover(listed))
    this.#discovering = this.#lists.start()
    this.#discovering.catch(() => {})
    this.#armIdleStop()
    return session
  }

  async #discover(session: Session): Promise<Discovery> {
    const discovery = await listEverything(session)
    this.#runtime.cache?.set(cacheKey(this.options), discovery)
    this.#runtime.discovered(this, discovery)
    return discovery
  }

  #lost(session: Session, reason?: string): void {
    if (this.#current !== session) return
    this.#forget(session)
    if (this.#closed || this.state === 'idle') return
    const exit = session.process?.exit
    this.state = 'failed'
    this.lastError =
      reason ??
      (exit === undefined
        ? 'the connection was lost'
        : `it exited (${exit.signal ?? `code ${exit.code}`})${exit.stderrTail.length > 0 ? `: ${exit.stderrTail.at(-1)}` : ''}`)
    this.#scheduleRestart()
  }

  #forget(session: Session): void {
    if (this.#current === session) {
      this.#current = undefined
      this.#lists?.stop()
    }
    this.#session = undefined
    void session.close()
  }

  #scheduleRestart(): void {
    if (this.#closed || this.#restartTimer !== undefined) return
    const delay = this.#restartDelay
    this.#restartDelay = Math.min(this.#restartDelay * 2, this.#runtime.maxRestartDelayMs)
    this.#runtime.emit({
      type: 'failed',
      upstream: this.name,
      message: this.lastError ?? 'failed',
      retryInMs: delay,
    })
    this.#restartTimer = setTimeout(() => {
      this.#restartTimer = undefined
      if (this.#closed || this.#current !== undefined) return
      this.restarts += 1
      this.session().catch(() => {})
    }, delay)
    this.#restartTimer.unref()
  }

  #armIdleStop(): void {
    const idleMs = this.#runtime.idleStopMs
    clearTimeout(this.#idleTimer)
    if (idleMs === undefined || this.#active > 0 || this.#current === undefined) return
    this.#idleTimer = setTimeout(() => {
      const session = this.#current
      if (session === undefined || this.#active > 0) return
      this.state = 'idle'
      this.#forget(session)
      this.#runtime.emit({ type: 'stopped', upstream: this.name, reason: 'idle' })
    }, idleMs)
    this.#idleTimer.unref()
  }

  /** True when the upstream went away without answering, so asking again is safe. */
  #lostBeforeAnswer(error: unknown, session: Session): boolean {
    if (!ClientError.isInstance(error) || this.#closed) return false
    if (error.code === 'http_error' && error.details?.status === 404 && session.era === 'legacy') return true
    return error.code === 'connect_failed' && session.transportKind !== 'stdio'
  }

  /**
   * A session whose questions and log messages that name no call go by `callers` (callers.ts);
   * those that name one reach that call's own handlers (forward.ts).
   */
  #open(callers: Callers): Promise<Session> {
    const roots = this.#runtime.roots
    const input: InputHandler = {
      ...callers.input(this.name),
      // Roots only when the gateway has some to give: declaring them makes servers such as
      // server-filesystem ask at once, outside any call, and replace their own directories.
      ...(roots === undefined ? {} : { roots: async () => [...roots] }),
    }
    return connect(this.options.server, {
      ...this.#runtime.connect,
      ...this.options.connect,
      input,
      onLog: ({ level, data, logger }) =>
        callers.log(level, data, logger, () =>
          this.#runtime.emit({ type: 'log', upstream: this.name, level, data }),
        ),
    })
  }
}

/** A user's session of a 2025 upstream stops after this long without calls, unless `idleStopMs` says otherwise. */
const userSessionIdleMs = 10 * 60_000
