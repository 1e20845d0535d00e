// A stdio transport (the MCP SDK's Transport interface) that runs the server in its own process
// group and session, so wrappers like `npx` and `uv run` leave no grandchildren behind. It shuts
// down in the order the MCP spec gives (close stdin, wait, SIGTERM, wait, SIGKILL), then ends
// what the server started that still runs, also outside its group (process-tree.ts), and has a
// watchdog do the same should this process die without cleaning up (watchdog.ts). It reports a
// crash with the exit code and the last lines of stderr, skips (and reports) garbage on stdout,
// and caps the size of one message. The SDK's own StdioClientTransport cannot signal a group.

import { type ChildProcess, spawn as nodeSpawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import type { JSONRPCMessage } from '@modelcontextprotocol/client'
import type { MessageTransport } from './connection.js'
import { ClientError } from './errors.js'
import { groupRunning, hasProc } from './process-group.js'
import { endTree, type ProcessTree, trackProcessTree } from './process-tree.js'
import { createStdoutMessages } from './stdout-messages.js'
import { startWatchdog, type Watchdog } from './watchdog.js'

export interface ProcessTransportOptions {
  command: string
  args: readonly string[]
  env: Record<string, string>
  cwd?: string
  spawn?: typeof nodeSpawn
  /** Largest message accepted from the server, in bytes (default 16 MiB). */
  maxMessageBytes?: number
  /** How long each shutdown step waits for the server to exit (default 1000 ms). */
  shutdownGraceMs?: number
  /** Every line the server writes to stderr. */
  onStderr?: (line: string) => void
  /** Things worth telling a user with --verbose: skipped stdout lines, signals sent. */
  onDiagnostic?: (message: string) => void
  /**
   * A watchdog process that ends the server's tree should this process die without closing the
   * transport (SIGKILL, out of memory). Default true; not available on Windows.
   */
  watchdog?: boolean
}

export interface ProcessExit {
  code: number | null
  signal: NodeJS.Signals | null
  /** The last lines the server wrote to stderr. */
  stderrTail: string[]
}

const stderrTailLines = 20
const maxStderrLineLength = 1000
const isWindows = process.platform === 'win32'
// How often the server's tree is looked at while it runs, to learn descendants before their
// parent exits and orphans them (a look is a few small reads of /proc).
const treeScanMs = 250

function delay(milliseconds: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, milliseconds))
}

export class ProcessTransport implements MessageTransport {
  onclose?: () => void
  onerror?: (error: Error) => void
  onmessage?: (message: JSONRPCMessage) => void

  readonly #options: ProcessTransportOptions
  readonly #maxMessageBytes: number
  readonly #graceMs: number
  #child: ChildProcess | undefined
  #launched: Promise<void> | undefined
  #exit: ProcessExit | undefined
  #exited: Promise<void> | undefined
  #failure: ClientError | undefined
  #closing: Promise<void> | undefined
  #closedNotified = false
  /** Set once stdin is ended for shutdown: a request from the server can no longer be answered. */
  #stdinEnded = false
  #onStrandedRequest: (method: string) => void = () => {}
  readonly #strandedRequest = new Promise<string>((resolve) => {
    this.#onStrandedRequest = resolve
  })
  #corked = false
  #settle: () => void = () => {}
  readonly #settled = new Promise<void>((resolve) => {
    this.#settle = resolve
  })
  #started = false
  #early: JSONRPCMessage[] = []
  #stderrPartial = ''
  #stderrTail: string[] = []
  #tree: ProcessTree | undefined
  #treeTimer: NodeJS.Timeout | undefined
  #watchdog: Watchdog | undefined

  constructor(options: ProcessTransportOptions) {
    this.#options = options
    this.#maxMessageBytes = options.maxMessageBytes ?? 16 * 1024 * 1024
    this.#graceMs = options.shutdownGraceMs ?? 1000
  }

  /** The process id of the server (the leader of its process group), once launched. */
  get pid(): number | undefined {
    return this.#child?.pid
  }

  /** How the server exited, once it has. */
  get exit(): ProcessExit | undefined {
    return this.#exit
  }

  /** Why the transport failed, when it failed on its own (oversized message, launch error). */
  get failure(): ClientError | undefined {
    return this.#failure
  }

  /** Resolves once the server has exited and its output has been read to the end. */
  settled(): Promise<void> {
    return this.#settled
  }

  /** The last lines of the server's stderr. */
  get stderrTail(): string[] {
    return [...this.#stderrTail]
  }

  /**
   * Spawns the server. Called early by connect() so the server boots while the SDK loads;
   * start() (called by the Connection) only waits for it.
   */
  launch(): Promise<void> {
    this.#launched ??= new Promise<void>((resolve, reject) => {
      const { command, args, env, cwd } = this.#options
      let child: ChildProcess
      try {
        child = (this.#options.spawn ?? nodeSpawn)(command, [...args], {
          env,
          cwd,
          stdio: ['pipe', 'pipe', 'pipe'],
          shell: false,
          // Its own process group (POSIX): the whole tree can be signalled at once.
          detached: !isWindows,
          windowsHide: true,
        })
      } catch (error) {
        reject(this.#launchError(error))
        return
      }
      this.#child = child
      let exitResolve: () => void = () => {}
      this.#exited = new Promise<void>((resolveExit) => {
        exitResolve = resolveExit
      })
      child.once('spawn', () => {
        resolve()
        this.#guard(child)
      })
      child.once('error', (error) => {
        if (child.pid === undefined) {
          const failure = this.#launchError(error)
          this.#failure = failure
          this.#exit = { code: null, signal: null, stderrTail: [] }
          exitResolve()
          reject(failure)
          this.#notifyClosed()
          this.#settle()
        } else {
          this.#options.onDiagnostic?.(`server process error: ${error.message}`)
        }
      })
      child.once('exit', (code, signal) => {
        this.#exit = { code, signal, stderrTail: this.#stderrTail }
        exitResolve()
        // Let stdout and stderr drain first: a server may write its last response (or its last
        // words) and exit at once. A grandchild holding the pipes open does not delay us long.
        const drained = [child.stdout, child.stderr].map((stream) =>
          !stream || stream.readableEnded
            ? Promise.resolve()
            : new Promise<void>((resolve) => stream.once('end', resolve)),
        )
        let timer: NodeJS.Timeout | undefined
        void Promise.race([
          Promise.all(drained),
          new Promise<void>((resolve) => (timer = setTimeout(resolve, 200))),
        ]).then(() => {
          clearTimeout(timer)
          this.#flushStderr()
          this.#notifyClosed()
          this.#settle()
          // The server is gone; anything it started that still runs is an orphan: end it.
          void this.close()
        })
      })
      const onStdout = createStdoutMessages({
        maxMessageBytes: this.#maxMessageBytes,
        onMessage: (message) => this.#deliver(message),
        onOversized: (bytes) => this.#oversized(bytes),
        onDiagnostic: this.#options.onDiagnostic,
      })
      child.stdout?.on('data', onStdout)
      child.stderr?.setEncoding('utf8')
      child.stderr?.on('data', (text: string) => this.#onStderr(text))
      child.stdin?.on('error', () => {
        // EPIPE when the server is gone; its exit is reported through 'exit'.
      })
    })
    return this.#launched
  }

  /** Starts following the server's tree, and tells the watchdog about it. Not on Windows. */
  #guard(child: ChildProcess): void {
    const pid = child.pid
    if (pid === undefined || isWindows || this.#exit || this.#closedNotified) return
    this.#tree = trackProcessTree(pid)
    // Without /proc (macOS) the tree cannot be checked; the server was spawned detached, so it leads its session.
    if (!this.#tree && hasProc) return
    if (this.#options.watchdog !== false) {
      this.#watchdog = startWatchdog(child, { graceMs: this.#graceMs })
      this.#watchdog?.watch({ pid, startTime: this.#tree?.root.startTime, leader: true })
    }
    if (this.#tree) {
      this.#treeTimer = setInterval(() => this.#scanTree(), treeScanMs)
      this.#treeTimer.unref()
    }
  }

  #scanTree(): void {
    if (!this.#tree) return
    for (const member of this.#tree.scan()) this.#watchdog?.watch(member)
  }

  async start(): Promise<void> {
    await this.launch()
    this.#started = true
    const early = this.#early
    this.#early = []
    for (const message of early) this.onmessage?.(message)
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.#child?.stdin
    if (this.#exit) return Promise.reject(new ClientError('server_exited', 'the server process has exited'))
    if (!stdin || stdin.destroyed || stdin.writableEnded) {
      return Promise.reject(new ClientError('connect_failed', 'the server process is not running'))
    }
    // Messages sent in the same tick leave in one write (cork until the next tick): under load,
    // one system call per message was the client's largest cost (tooling/bench, put rows).
    if (!this.#corked) {
      this.#corked = true
      stdin.cork()
      process.nextTick(() => {
        this.#corked = false
        stdin.uncork()
      })
    }
    if (stdin.write(`${JSON.stringify(message)}\n`)) return Promise.resolve()
    return new Promise((resolve) => stdin.once('drain', resolve))
  }

  /** Ends stdin, waits; then SIGTERM to the process group, waits; then SIGKILL. */
  close(): Promise<void> {
    this.#closing ??= this.#shutdown()
    return this.#closing
  }

  async #shutdown(): Promise<void> {
    const child = this.#child
    if (child && !this.#exit && child.pid !== undefined) {
      // Learn the server's children before it exits: its exit would orphan them.
      this.#scanTree()
      child.stdin?.end()
      this.#stdinEnded = true
      // A server that asks something after its stdin closed (server-everything's roots/list,
      // 350 ms after initialize) waits for an answer that cannot come instead of exiting: waiting
      // out the grace period for it would only add that period to every run.
      const exited = await this.#waitForExit(this.#graceMs, this.#strandedRequest)
      if (exited !== true) {
        this.#options.onDiagnostic?.(
          typeof exited === 'string'
            ? `server asked ${exited} after stdin closed, which cannot be answered; sending SIGTERM`
            : `server did not exit ${this.#graceMs} ms after stdin closed; sending SIGTERM`,
        )
        this.#signal('SIGTERM')
        if (!(await this.#waitForExit(this.#graceMs))) {
          this.#options.onDiagnostic?.('server did not exit after SIGTERM; sending SIGKILL')
          this.#signal('SIGKILL')
          await this.#waitForExit(this.#graceMs)
        }
      }
    }
    await this.#reapLeftovers()
    clearInterval(this.#treeTimer)
    this.#tree = undefined
    // Everything it was told about is gone: the watchdog may go too.
    this.#watchdog?.dismiss()
    this.#watchdog = undefined
    this.#notifyClosed()
  }

  /** true once the server exited, false after `milliseconds`, or what `stop` resolves to first. */
  async #waitForExit<T = never>(milliseconds: number, stop?: Promise<T>): Promise<boolean | T> {
    if (this.#exit) return true
    let timer: NodeJS.Timeout | undefined
    const timeout = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), milliseconds)
    })
    const exited = (this.#exited ?? Promise.resolve()).then(() => true as const)
    const result = await Promise.race(stop === undefined ? [exited, timeout] : [exited, timeout, stop])
    clearTimeout(timer)
    return result
  }

  #signal(signal: NodeJS.Signals): void {
    const child = this.#child
    if (!child?.pid) return
    try {
      if (isWindows) child.kill(signal)
      else process.kill(-child.pid, signal)
    } catch {
      // ESRCH: already gone.
    }
  }

  #groupAlive(): boolean {
    const pid = this.#child?.pid
    return pid !== undefined && !isWindows && groupRunning(pid)
  }

  /** After the server itself exited: ends what it left running, in its process group or elsewhere. */
  async #reapLeftovers(): Promise<void> {
    const tree = this.#tree
    if (tree) {
      await endTree(tree, {
        graceMs: this.#graceMs,
        onDiagnostic: this.#options.onDiagnostic,
        // A server that never started anything and whose group is gone left nothing behind.
        quick: () => !tree.branched && !this.#groupAlive(),
      })
      return
    }
    if (!this.#groupAlive()) return
    this.#options.onDiagnostic?.(
      'processes the server started are still running; sending SIGTERM to its process group',
    )
    this.#signal('SIGTERM')
    const deadline = Date.now() + this.#graceMs
    while (this.#groupAlive() && Date.now() < deadline) await delay(20)
    if (this.#groupAlive()) this.#signal('SIGKILL')
  }

  #notifyClosed(): void {
    if (this.#closedNotified) return
    this.#closedNotified = true
    this.#child?.stdout?.removeAllListeners('data')
    this.onclose?.()
  }

  #launchError(error: unknown): ClientError {
    const code = (error as NodeJS.ErrnoException).code
    const command = this.#options.command
    let message = `cannot launch '${command}': ${(error as Error).message}`
    if (code === 'ENOENT') {
      const cwd = this.#options.cwd
      message =
        cwd !== undefined && !existsSync(cwd)
          ? `cannot launch '${command}': the working directory ${cwd} does not exist`
          : `cannot launch '${command}': command not found`
    } else if (code === 'EACCES') message = `cannot launch '${command}': permission denied`
    return new ClientError('launch_failed', message, { details: { command, errno: code }, cause: error })
  }

  #oversized(bytes: number): void {
    if (this.#failure) return
    const limit = this.#maxMessageBytes
    this.#failure = new ClientError(
      'protocol_error',
      `a message from the server is larger than the ${formatBytes(limit)} limit (at least ${formatBytes(bytes)}); raise it with --max-message-size`,
      { details: { limit, bytes } },
    )
    this.onerror?.(this.#failure)
    void this.close()
  }

  #deliver(message: JSONRPCMessage): void {
    if (this.#stdinEnded) {
      const { method, id } = message as { method?: unknown; id?: unknown }
      if (typeof method === 'string' && id !== undefined) this.#onStrandedRequest(method)
    }
    if (!this.#started) this.#early.push(message)
    else this.onmessage?.(message)
  }

  #onStderr(text: string): void {
    const lines = (this.#stderrPartial + text).split('\n')
    this.#stderrPartial = lines.pop() ?? ''
    if (this.#stderrPartial.length > maxStderrLineLength * 4) {
      lines.push(this.#stderrPartial)
      this.#stderrPartial = ''
    }
    for (const line of lines) this.#recordStderr(line)
  }

  #flushStderr(): void {
    if (this.#stderrPartial !== '') this.#recordStderr(this.#stderrPartial)
    this.#stderrPartial = ''
  }

  #recordStderr(raw: string): void {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw
    this.#options.onStderr?.(line)
    this.#stderrTail.push(line.length > maxStderrLineLength ? `${line.slice(0, maxStderrLineLength)}…` : line)
    if (this.#stderrTail.length > stderrTailLines) this.#stderrTail.shift()
  }
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MiB`
  if (bytes >= 1024) return `${Math.round((bytes / 1024) * 10) / 10} KiB`
  return `${bytes} bytes`
}
