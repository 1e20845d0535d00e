// The daemon's warm sessions: one connected session per launch identity (launch-key.ts), started
// by the first command that asks for it and shared by the commands after it. Each command gets
// its own view of the session (Session.borrow) with its flags' limits, its Ctrl-C, its traces and
// its answers to questions; a session stops once no command has used it for its keep-alive time
// (the latest command's), when `mcp-kit sessions stop` says so, or when its server goes away.
// The server's questions (asked on that command's terminal), logs, stderr and logins go to the
// command that is using it (the latest, when several are).

import { readdirSync, readFileSync } from 'node:fs'
import { ClientError, connect, fileEraCache, type Session } from '@mcp-kit/client'
import { defaultEraCachePath } from '@mcp-kit/client/internal'
import { describeServer } from '@mcp-kit/profiles'
import { exitCodes } from '../base/exit-codes.js'
import type { Io, WarmRequest, WarmSessions } from '../base/io.js'
import { CallSlots } from './call-slots.js'
import { type Caller, routedAuthorizer, routedInput, routedTrace } from './current-caller.js'
import { launchKey } from './launch-key.js'

interface Entry {
  id: string
  key: string
  reference: string
  transport: 'stdio' | 'http'
  startedAt: number
  lastUsedAt: number
  keepAliveMs: number
  calls: number
  /** Commands that used it so far. */
  uses: number
  callers: Caller[]
  ready: Promise<Session>
  session?: Session
  idleTimer?: NodeJS.Timeout
  slots: CallSlots
  stopping?: Promise<void>
}

/** What `mcp-kit sessions` shows of one warm session. */
export interface WarmSessionInfo {
  id: string
  reference: string
  transport: 'stdio' | 'http'
  pid: number | null
  protocolVersion: string | null
  startedAt: string
  ageMs: number
  /** Commands using it now. */
  users: number
  idleMs: number
  /** When it stops unless used again (null while in use). */
  stopsInMs: number | null
  calls: number
  /** Resident memory of the server's processes (stdio), in bytes. */
  memoryBytes: number | null
}

/** The resident memory of a process and the processes of its session (a server leads its own). */
function sessionMemory(leader: number): number | null {
  const rss = (pid: number | string) => {
    try {
      const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
      return match ? Number(match[1]) * 1024 : 0
    } catch {
      return 0
    }
  }
  let entries: string[]
  try {
    entries = readdirSync('/proc').filter((name) => /^\d+$/.test(name))
  } catch {
    return null
  }
  let total = 0
  for (const pid of entries) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      if (Number(fields[3]) === leader) total += rss(pid)
    } catch {
      // gone meanwhile
    }
  }
  return total
}

function waitFor<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new ClientError('cancelled', 'cancelled'))
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(new ClientError('cancelled', 'connecting was cancelled'))
    signal.addEventListener('abort', onAbort, { once: true })
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort)
        resolve(value)
      },
      (error) => {
        signal.removeEventListener('abort', onAbort)
        reject(error)
      },
    )
  })
}

export class WarmSessionPool {
  readonly #entries = new Map<string, Entry>()
  readonly #onChange: () => void
  readonly #log: (line: string) => void

  /** `onChange`: a session stopped (the daemon may be done). */
  constructor(options: { onChange: () => void; log: (line: string) => void }) {
    this.#onChange = options.onChange
    this.#log = options.log
  }

  get size(): number {
    return this.#entries.size
  }

  /**
   * The warm sessions one command uses; `release(exitCode)` once it is done. A command that could
   * not reach its server (exit code 3: a lost connection, an expired HTTP session) leaves no warm
   * session behind: the next command starts afresh.
   */
  forCommand(io: Io): WarmSessions & { release(exitCode: number): void } {
    const leases: { entry: Entry; caller: Caller }[] = []
    return {
      open: async (request: WarmRequest) => {
        const { entry, caller } = this.#lease(request, io)
        leases.push({ entry, caller })
        return this.#view(entry, caller, request, io)
      },
      release: (exitCode) => {
        for (const { entry, caller } of leases.splice(0)) {
          this.#release(entry, caller)
          if (exitCode === exitCodes.connect) void this.#stop(entry, 'a command could not reach its server')
        }
      },
    }
  }

  list(): WarmSessionInfo[] {
    const now = Date.now()
    return [...this.#entries.values()].map((entry) => {
      const pid = entry.session?.process?.pid ?? null
      const users = entry.callers.length
      const idleMs = users > 0 ? 0 : now - entry.lastUsedAt
      return {
        id: entry.id,
        reference: entry.reference,
        transport: entry.transport,
        pid,
        protocolVersion: entry.session?.protocolVersion ?? null,
        startedAt: new Date(entry.startedAt).toISOString(),
        ageMs: now - entry.startedAt,
        users,
        idleMs,
        stopsInMs: users > 0 ? null : Math.max(0, entry.keepAliveMs - idleMs),
        calls: entry.calls,
        memoryBytes: pid === null ? null : sessionMemory(pid),
      }
    })
  }

  /** Stops the sessions `target` names (an id or its prefix, a pid, or a reference), or all. */
  async stop(target: string | undefined): Promise<WarmSessionInfo[]> {
    const listed = this.list()
    const chosen = listed.filter(
      (info) =>
        target === undefined ||
        info.id.startsWith(target) ||
        String(info.pid) === target ||
        info.reference === target,
    )
    await Promise.all(
      chosen.map((info) => {
        const entry = [...this.#entries.values()].find((candidate) => candidate.id === info.id)
        return entry === undefined ? undefined : this.#stop(entry, 'stopped by `mcp-kit sessions stop`')
      }),
    )
    return chosen
  }

  async stopAll(why: string): Promise<void> {
    await Promise.all([...this.#entries.values()].map((entry) => this.#stop(entry, why)))
  }

  #lease(request: WarmRequest, io: Io): { entry: Entry; caller: Caller } {
    const { resolved, options } = request
    const key = launchKey(resolved.server, options, {
      cwd: io.cwd,
      env: io.env,
      toolFilter: options.toolFilter ?? null,
    })
    let entry = this.#entries.get(key)
    const lost = entry?.session !== undefined && entry.stopping === undefined && isGone(entry.session)
    if (entry === undefined || entry.stopping !== undefined || lost) {
      if (entry !== undefined) void this.#stop(entry, 'its server went away')
      entry = this.#start(key, request, io)
    }
    const caller: Caller = { options, failed: new AbortController() }
    entry.callers.push(caller)
    entry.uses += 1
    entry.keepAliveMs = request.keepAliveMs
    clearTimeout(entry.idleTimer)
    entry.idleTimer = undefined
    return { entry, caller }
  }

  async #view(entry: Entry, caller: Caller, request: WarmRequest, io: Io): Promise<Session> {
    const { options } = request
    const started = Date.now()
    const session = await waitFor(entry.ready, io.signal)
    const spent = Date.now() - started
    const total = options.totalTimeoutMs
    const view = session.borrow({
      callTimeoutMs: options.callTimeoutMs,
      totalTimeoutMs: total === undefined ? undefined : Math.max(1, total - spent),
      // Its calls end with Ctrl-C, or with the error of a question it could not answer.
      signal: AbortSignal.any([io.signal, caller.failed.signal]),
      onTrace: (trace) => {
        entry.calls += 1
        options.onTrace?.(trace)
      },
      redactTraceArguments: options.redactTraceArguments,
      input: options.input,
      inputTimeoutMs: options.inputTimeoutMs ?? options.callTimeoutMs ?? 60_000,
      onDiagnostic: options.onDiagnostic,
      // A remote server is shared by its users anyway; a local one gets only the calls allowed.
      schedule: entry.transport === 'stdio' ? entry.slots.scheduler(request.concurrency) : undefined,
    })
    caller.view = view
    options.onDiagnostic?.(
      `warm session ${entry.id} (${entry.uses === 1 ? 'started' : `reused, use ${entry.uses}`}; kept ${entry.keepAliveMs / 1000} s after use; server pid ${session.process?.pid ?? '-'})`,
    )
    return view
  }

  #start(key: string, request: WarmRequest, io: Io): Entry {
    const { resolved, options } = request
    const now = Date.now()
    const entry: Entry = {
      id: key.slice(0, 12),
      key,
      reference:
        resolved.reference.type === 'profile'
          ? `@${resolved.reference.profile}`
          : resolved.server.transport === 'http'
            ? `mcp+${resolved.server.url}`
            : describeServer(resolved.server),
      transport: resolved.server.transport,
      startedAt: now,
      lastUsedAt: now,
      keepAliveMs: request.keepAliveMs,
      calls: 0,
      uses: 0,
      callers: [],
      ready: Promise.resolve() as unknown as Promise<Session>,
      slots: new CallSlots(),
    }
    const current = () => entry.callers.at(-1)
    entry.ready = connect(resolved.server, {
      ...options,
      // The session outlives this command: its limits, signal and traces are each view's.
      signal: undefined,
      totalTimeoutMs: undefined,
      callTimeoutMs: undefined,
      // Sampling outside a call (2025-11-25 over stdio) is traced by the command using the session.
      onTrace: (entry) => routedTrace(current(), entry),
      redactTraceArguments: false,
      // The capabilities are the launch key's, so every command sharing the session declares them.
      input: routedInput(current, options.input),
      // Each command's own limit applies (routedInput).
      inputTimeoutMs: 0,
      onDiagnostic: (message) => current()?.options.onDiagnostic?.(message),
      onStderr: (line) => current()?.options.onStderr?.(line),
      onLog: (log) => current()?.options.onLog?.(log),
      oauth:
        options.oauth === undefined ? undefined : { ...options.oauth, authorizer: routedAuthorizer(current) },
      eraCache: fileEraCache(defaultEraCachePath(io.env)),
    })
    entry.ready.then(
      (session) => {
        entry.session = session
        this.#log(`started ${entry.id} ${entry.reference} (pid ${session.process?.pid ?? '-'})`)
        void session.closed.then(() => {
          if (this.#entries.get(key) === entry) void this.#stop(entry, 'its server went away')
        })
      },
      (error) => {
        this.#log(`could not start ${entry.reference}: ${(error as Error).message}`)
        if (this.#entries.get(key) === entry) {
          this.#entries.delete(key)
          this.#onChange()
        }
      },
    )
    this.#entries.set(key, entry)
    return entry
  }

  #release(entry: Entry, caller: Caller): void {
    const index = entry.callers.indexOf(caller)
    if (index !== -1) entry.callers.splice(index, 1)
    void caller.view?.close()
    entry.lastUsedAt = Date.now()
    if (entry.callers.length > 0 || entry.stopping !== undefined || this.#entries.get(entry.key) !== entry)
      return
    clearTimeout(entry.idleTimer)
    entry.idleTimer = setTimeout(() => {
      if (entry.callers.length === 0) void this.#stop(entry, 'idle')
    }, entry.keepAliveMs)
  }

  #stop(entry: Entry, why: string): Promise<void> {
    entry.stopping ??= (async () => {
      clearTimeout(entry.idleTimer)
      if (this.#entries.get(entry.key) === entry) this.#entries.delete(entry.key)
      const session = await entry.ready.catch(() => undefined)
      await session?.close()
      this.#log(`stopped ${entry.id} ${entry.reference}: ${why}`)
      this.#onChange()
    })()
    return entry.stopping
  }
}

function isGone(session: Session): boolean {
  const process = session.process
  return process !== undefined && process.exit !== undefined
}
