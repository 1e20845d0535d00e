// A stdio transport (the MCP SDK's Transport interface) that runs the server in its own process
// group, so wrappers like `npx` and `uv run` leave no grandchildren behind. It shuts down in the
// order the MCP spec gives (close stdin, wait, SIGTERM, wait, SIGKILL), reports a crash with the
// exit code and the last lines of stderr, skips (and reports) garbage on stdout, and caps the
// size of one message. The SDK's own StdioClientTransport cannot signal a process group.

import { type ChildProcess, spawn as nodeSpawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'
import { ClientError } from './errors.js'
import { groupRunning } from './process-group.js'

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

function delay(milliseconds: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, milliseconds))
}

export class ProcessTransport implements Transport {
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
  #corked = false
  #settle: () => void = () => {}
  readonly #settled = new Promise<void>((resolve) => {
    this.#settle = resolve
  })
  #started = false
  #early: JSONRPCMessage[] = []
  #stdoutChunks: Buffer[] = []
  #stdoutPendingBytes = 0
  #stderrPartial = ''
  #stderrTail: string[] = []

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
      child.once('spawn', () => resolve())
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
      child.stdout?.on('data', (chunk: Buffer) => this.#onStdout(chunk))
      child.stderr?.setEncoding('utf8')
      child.stderr?.on('data', (text: string) => this.#onStderr(text))
      child.stdin?.on('error', () => {
        // EPIPE when the server is gone; its exit is reported through 'exit'.
      })
    })
    return this.#launched
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
    if (!stdin || stdin.destroyed || stdin.writableEnded || this.#exit) {
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
      child.stdin?.end()
      if (!(await this.#waitForExit(this.#graceMs))) {
        this.#options.onDiagnostic?.(
          `server did not exit ${this.#graceMs} ms after stdin closed; sending SIGTERM`,
        )
        this.#signal('SIGTERM')
        if (!(await this.#waitForExit(this.#graceMs))) {
          this.#options.onDiagnostic?.('server did not exit after SIGTERM; sending SIGKILL')
          this.#signal('SIGKILL')
          await this.#waitForExit(this.#graceMs)
        }
      }
    }
    await this.#reapGroup()
    this.#notifyClosed()
  }

  async #waitForExit(milliseconds: number): Promise<boolean> {
    if (this.#exit) return true
    let timer: NodeJS.Timeout | undefined
    const timeout = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), milliseconds)
    })
    const exited = (this.#exited ?? Promise.resolve()).then(() => true as const)
    const result = await Promise.race([exited, timeout])
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

  /** After the server itself exited: ends what its wrapper left running in its process group. */
  async #reapGroup(): Promise<void> {
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

  #onStdout(chunk: Buffer): void {
    let start = 0
    let newline = chunk.indexOf(10)
    while (newline !== -1) {
      const piece = chunk.subarray(start, newline)
      const line = this.#stdoutChunks.length === 0 ? piece : Buffer.concat([...this.#stdoutChunks, piece])
      this.#stdoutChunks = []
      this.#stdoutPendingBytes = 0
      if (line.length > this.#maxMessageBytes) {
        this.#oversized(line.length)
        return
      }
      this.#onLine(line.toString('utf8'))
      start = newline + 1
      newline = chunk.indexOf(10, start)
    }
    if (start < chunk.length) {
      const rest = start === 0 ? chunk : chunk.subarray(start)
      this.#stdoutPendingBytes += rest.length
      if (this.#stdoutPendingBytes > this.#maxMessageBytes) {
        this.#oversized(this.#stdoutPendingBytes)
        return
      }
      this.#stdoutChunks.push(rest)
    }
  }

  #oversized(bytes: number): void {
    this.#stdoutChunks = []
    this.#stdoutPendingBytes = 0
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

  #onLine(text: string): void {
    const line = text.endsWith('\r') ? text.slice(0, -1) : text
    if (line.trim() === '') return
    let parsed: unknown
    try {
      parsed = JSON.parse(line)
    } catch {
      this.#skip(line, 'not JSON')
      return
    }
    for (const item of Array.isArray(parsed) ? parsed : [parsed]) {
      if (typeof item === 'object' && item !== null && (item as { jsonrpc?: unknown }).jsonrpc === '2.0') {
        this.#deliver(item as JSONRPCMessage)
      } else {
        this.#skip(line, 'not a JSON-RPC 2.0 message')
      }
    }
  }

  #deliver(message: JSONRPCMessage): void {
    if (!this.#started) this.#early.push(message)
    else this.onmessage?.(message)
  }

  #skip(line: string, why: string): void {
    const shown = line.length > 200 ? `${line.slice(0, 200)}…` : line
    this.#options.onDiagnostic?.(`skipped a line on the server's stdout (${why}): ${shown}`)
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
