// The stdio transport: the server runs in its own process group and session, so wrappers like `npx` and
// `uv run` leave no grandchildren behind (the SDK's StdioClientTransport cannot signal a group).

import { type ChildProcess, spawn as nodeSpawn } from 'node:child_process'
import type { JSONRPCMessage } from '@modelcontextprotocol/client'
import { ClientError } from '../errors.js'
import { messageTooLarge } from '../protocol/message-size.js'
import type { MessageTransport } from '../protocol/message-transport.js'
import { launchError } from './launch-error.js'
import { ProcessGuard, signalGroup } from './process-guard.js'
import { StderrTail } from './stderr-tail.js'
import { createStdoutMessages } from './stdout-messages.js'

export interface ProcessTransportOptions {
  command: string
  args: readonly string[]
  env: Record<string, string>
  cwd?: string | undefined
  spawn?: typeof nodeSpawn | undefined
  /** Largest message accepted from the server, in bytes (default 16 MiB). */
  maxMessageBytes?: number | undefined
  /** How long each shutdown step waits for the server to exit (default 1000 ms). */
  shutdownGraceMs?: number | undefined
  /** Every line the server writes to stderr. */
  onStderr?: ((line: string) => void) | undefined
  /** Things worth telling a user who asks for detail: skipped stdout lines, signals sent. */
  onDiagnostic?: ((message: string) => void) | undefined
  /**
   * A watchdog process that ends the server's tree should this process die without closing the
   * transport (SIGKILL, out of memory). Default true; not available on Windows.
   */
  watchdog?: boolean | undefined
}

export interface ProcessExit {
  code: number | null
  signal: NodeJS.Signals | null
  /** The last lines the server wrote to stderr. */
  stderrTail: string[]
}

const isWindows = process.platform === 'win32'

/**
 * Shuts the server down as the MCP spec says (close stdin, wait, SIGTERM, wait, SIGKILL), then ends
 * what it started that still runs; reports a crash with its exit code and last lines of stderr.
 */
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
  readonly #stderr: StderrTail
  readonly #tree = new ProcessGuard()

  constructor(options: ProcessTransportOptions) {
    this.#options = options
    this.#maxMessageBytes = options.maxMessageBytes ?? 16 * 1024 * 1024
    this.#graceMs = options.shutdownGraceMs ?? 1000
    this.#stderr = new StderrTail(options)
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
    return [...this.#stderr.lines]
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
        reject(launchError(error, this.#options.command, this.#options.cwd))
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
          const failure = launchError(error, this.#options.command, this.#options.cwd)
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
        this.#exit = { code, signal, stderrTail: this.#stderr.lines }
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
          this.#stderr.flush()
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
      child.stderr?.on('data', (text: string) => this.#stderr.push(text))
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
    this.#tree.follow(child, pid, this.#graceMs, this.#options.watchdog)
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
      this.#tree.scan()
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
        signalGroup(child, 'SIGTERM')
        if (!(await this.#waitForExit(this.#graceMs))) {
          this.#options.onDiagnostic?.('server did not exit after SIGTERM; sending SIGKILL')
          signalGroup(child, 'SIGKILL')
          await this.#waitForExit(this.#graceMs)
        }
      }
    }
    await this.#tree.end(this.#child, this.#graceMs, this.#options.onDiagnostic)
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

  #notifyClosed(): void {
    if (this.#closedNotified) return
    this.#closedNotified = true
    this.#child?.stdout?.removeAllListeners('data')
    this.onclose?.()
  }

  #oversized(bytes: number): void {
    if (this.#failure) return
    this.#failure = messageTooLarge(this.#maxMessageBytes, bytes)
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
}
