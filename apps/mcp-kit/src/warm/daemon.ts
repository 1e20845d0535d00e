// The warm-session daemon (`mcp-kit __daemon`, started by the first command route.ts sends warm):
// one per user, listening on a socket in the user's own runtime directory. Each connection is one
// command of a CLI process, run here in-process with that process's arguments, environment,
// working directory and terminal flags, its stdout and stderr sent back as they are written, its
// stdin read only when the command reads it, its questions asked on the CLI's terminal, and its
// Ctrl-C passed on; the CLI exits with the command's exit code. Sessions opened with a keep-alive stay in the pool (warm-sessions.ts).
//
// Servers never outlive their rules: stdio servers run in their own process groups under the
// client's watchdog, so a daemon that dies (even by SIGKILL) takes them with it; a daemon with no
// sessions and no commands exits; SIGTERM closes every session first. The daemon serves only CLIs
// of its own build: another build's CLI makes it retire (stop listening, finish its commands,
// close its sessions) and starts its own.

import { appendFileSync, chmodSync, closeSync, unlinkSync, writeFileSync, writeSync } from 'node:fs'
import { createServer, connect as netConnect, type Server, type Socket } from 'node:net'
import { Readable, Writable } from 'node:stream'
import type { Io } from '../base/io.js'
import { createFrameReader, encodeFrame, frameTypes } from './frames.js'
import { remotePrompts } from './remote-prompt.js'
import { type RuntimePaths, runtimePaths, statSocket } from './runtime-directory.js'
import type { DaemonHello } from './warm-client.js'
import { buildIdentity } from './warm-client.js'
import { WarmSessionPool } from './warm-sessions.js'

/** How long a daemon with nothing to do waits before it exits. */
const lingerMs = 2000
/** How long a connection may take to say what it wants. */
const helloTimeoutMs = 10_000

/** Tells the CLI that started this daemon how the start went (file descriptor 3, when there is one). */
function report(message: string): void {
  try {
    writeSync(3, `${message}\n`)
    closeSync(3)
  } catch {
    // Started by hand: nobody is waiting.
  }
}

function listen(server: Server, path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(path, () => {
      server.off('error', reject)
      resolve()
    })
  })
}

/** True when a daemon answers on `path`. */
function answering(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = netConnect(path)
    socket.once('connect', () => {
      socket.destroy()
      resolve(true)
    })
    socket.once('error', () => resolve(false))
  })
}

/** A stream that sends what is written to it as frames of one type, waiting while the socket is full. */
function frameWriter(socket: Socket, type: string): Writable {
  const waiting = new Set<() => void>()
  socket.once('close', () => {
    for (const callback of waiting) callback()
    waiting.clear()
  })
  const send = (payload: Buffer, callback: (error?: Error | null) => void) => {
    // A CLI that went away (Ctrl-C twice, a closed pipe) reads nothing more: drop the output. An
    // empty write only waits for the writes before it (remote-prompt.ts).
    if (socket.destroyed || payload.length === 0) return callback()
    if (socket.write(encodeFrame(type, payload))) return callback()
    const done = () => {
      waiting.delete(done)
      socket.off('drain', done)
      callback()
    }
    waiting.add(done)
    socket.once('drain', done)
  }
  return new Writable({
    write(chunk: Buffer, _encoding, callback) {
      send(chunk, callback)
    },
    writev(chunks, callback) {
      send(Buffer.concat(chunks.map(({ chunk }) => chunk as Buffer)), callback)
    },
  })
}

/**
 * The CLI's program (program/run.ts), loaded when first needed: the daemon runs each command it
 * is handed with it. Passed in by the executable (bin.ts), which sits above both, so warm/
 * imports no command.
 */
export type LoadCommands = () => Promise<{ run(argv: string[], io: Io): Promise<number> }>

class Daemon {
  readonly #paths: RuntimePaths
  readonly #loadCommands: LoadCommands
  readonly #build = buildIdentity()
  readonly #pool: WarmSessionPool
  readonly #server: Server
  readonly #sockets = new Set<Socket>()
  #commands = 0
  #inode: bigint | undefined
  #retiring = false
  #exiting = false
  #lingerTimer: NodeJS.Timeout | undefined

  constructor(paths: RuntimePaths, loadCommands: LoadCommands) {
    this.#paths = paths
    this.#loadCommands = loadCommands
    this.#pool = new WarmSessionPool({ onChange: () => this.#checkIdle(), log: (line) => this.log(line) })
    this.#server = createServer((socket) => this.#accept(socket))
  }

  log(line: string): void {
    try {
      appendFileSync(this.#paths.log, `${new Date().toISOString()} [${process.pid}] ${line}\n`, {
        mode: 0o600,
      })
    } catch {
      // Logging is a convenience.
    }
  }

  async start(): Promise<'listening' | 'other'> {
    const path = this.#paths.socket
    try {
      await listen(this.#server, path)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error
      // Another daemon answers: it serves this user. A socket nobody answers on is left over.
      if (await answering(path)) return 'other'
      unlinkSync(path)
      await listen(this.#server, path)
    }
    // The directory is the guard; the socket's own mode is a second one.
    chmodSync(path, 0o600)
    this.#inode = statSocket(path).ino
    this.#checkIdle()
    return 'listening'
  }

  #accept(socket: Socket): void {
    this.#sockets.add(socket)
    clearTimeout(this.#lingerTimer)
    let hello: DaemonHello | undefined
    let onFrame: ((type: string, payload: Buffer) => void) | undefined
    const timer = setTimeout(() => socket.destroy(), helloTimeoutMs)
    const read = createFrameReader((type, payload) => {
      if (hello !== undefined) return onFrame?.(type, payload)
      clearTimeout(timer)
      if (type !== frameTypes.hello) return socket.destroy()
      try {
        hello = JSON.parse(payload.toString('utf8')) as DaemonHello
      } catch {
        return socket.destroy()
      }
      onFrame = this.#dispatch(socket, hello)
    })
    socket.on('data', (chunk) => {
      try {
        read(chunk)
      } catch {
        socket.destroy()
      }
    })
    socket.on('error', () => {})
    socket.on('close', () => {
      clearTimeout(timer)
      this.#sockets.delete(socket)
      this.#checkIdle()
    })
  }

  /** Starts what the hello asks for; returns the handler of the frames that follow. */
  #dispatch(socket: Socket, hello: DaemonHello): ((type: string, payload: Buffer) => void) | undefined {
    switch (hello.kind) {
      case 'list':
        this.#answer(socket, { daemon: this.#describe(), sessions: this.#pool.list() })
        return undefined
      case 'stop':
        void this.#pool.stop(hello.all ? undefined : hello.target).then(async (stopped) => {
          const last = this.#pool.size === 0
          this.#answer(socket, {
            daemon: this.#describe(),
            stopped,
            daemonStopped: hello.all === true && last,
          })
          if (hello.all === true && last) await this.shutdown('stopped by `mcp-kit sessions stop --all`')
        })
        return undefined
      case 'run':
        if (hello.build !== this.#build) {
          // An upgrade or another installation: make room for a daemon of its build.
          this.#retire(`a CLI of another build asked (${hello.build})`)
          socket.end(encodeFrame(frameTypes.otherBuild))
          return undefined
        }
        return this.#run(socket, hello)
    }
  }

  #describe() {
    return { pid: process.pid, build: this.#build, socket: this.#paths.socket, commands: this.#commands }
  }

  #answer(socket: Socket, value: unknown): void {
    socket.end(encodeFrame(frameTypes.answer, JSON.stringify(value)))
  }

  #run(socket: Socket, hello: DaemonHello & { kind: 'run' }): (type: string, payload: Buffer) => void {
    const controller = new AbortController()
    let askedForStdin = false
    const stdin = new Readable({
      read() {
        if (askedForStdin) return
        askedForStdin = true
        if (!socket.destroyed) socket.write(encodeFrame(frameTypes.readStdin))
      },
    })
    const stdout = frameWriter(socket, frameTypes.stdout)
    const stderr = Object.assign(frameWriter(socket, frameTypes.stderr), { columns: hello.columns })
    const prompts = remotePrompts(socket, stderr)
    const io: Io = {
      stdin,
      stdout,
      stderr,
      env: hello.env,
      cwd: hello.cwd,
      stdoutIsTTY: hello.stdoutIsTTY,
      stderrIsTTY: hello.stderrIsTTY,
      signal: controller.signal,
      openPrompt: prompts.open,
    }
    const warm = this.#pool.forCommand(io)
    io.warm = warm
    socket.once('close', () => {
      if (!controller.signal.aborted) controller.abort(new Error('the mcp-kit process went away'))
      stdin.push(null)
    })
    this.#commands += 1
    void (async () => {
      let code = 1
      try {
        const decided = hello.ifKeepAlive === undefined ? 'warm' : await this.#decide(hello.ifKeepAlive, io)
        if (decided === 'not-warm') {
          // Not a warm command after all: the CLI runs it itself.
          if (!socket.destroyed) socket.end(encodeFrame(frameTypes.notWarm))
          return
        }
        if (typeof decided === 'number') code = decided
        else {
          const { run } = await this.#loadCommands()
          code = await run(hello.argv, io)
        }
      } catch (error) {
        this.log(`command failed: ${(error as Error)?.stack ?? String(error)}`)
        stderr.write(`mcp-kit: internal error in the warm-session daemon: ${(error as Error)?.message}\n`)
      } finally {
        warm.release(code)
        this.#commands -= 1
      }
      if (socket.writableEnded) return this.#checkIdle()
      // Output first (the streams write in order), then the exit code.
      await new Promise<void>((resolve) => stdout.end(() => stderr.end(() => resolve())))
      if (!socket.destroyed) socket.end(encodeFrame(frameTypes.exit, JSON.stringify({ code })))
      this.#checkIdle()
    })()
    return (type, payload) => {
      if (type === frameTypes.stdin) stdin.push(payload)
      else if (type === frameTypes.stdinEnd) stdin.push(null)
      else if (type === frameTypes.typed) prompts.typed(payload)
      else if (type === frameTypes.signal && !controller.signal.aborted)
        controller.abort(new Error(`interrupted by ${payload.toString('latin1')}`))
    }
  }

  /**
   * Whether a command on `reference` runs here, by the rule of session/warm-choice.ts (the CLI
   * asks only without --keep-alive, so the profile decides). A reference that does not resolve
   * is 'not-warm': the CLI says what is wrong. A profile whose `keepAlive` breaks the rule is
   * reported here, and its exit code returned.
   */
  async #decide(reference: string, io: Io): Promise<'warm' | 'not-warm' | number> {
    const [{ resolveForCli }, { keepAliveOf }] = await Promise.all([
      import('../session/reference.js'),
      import('../session/warm-choice.js'),
    ])
    const resolved = await resolveForCli(reference, io).catch(() => undefined)
    if (resolved === undefined) return 'not-warm'
    try {
      return keepAliveOf(undefined, resolved.profile) === undefined ? 'not-warm' : 'warm'
    } catch (error) {
      const { reportError } = await import('../output/report-error.js')
      return reportError(error, io, false)
    }
  }

  /** Stops taking commands here (the socket is left to a new daemon); exits once the last one ends. */
  #retire(why: string): void {
    if (this.#retiring) return
    this.#retiring = true
    this.log(`retiring: ${why}`)
    this.#server.close()
    this.#unlinkSocket()
    this.#checkIdle()
  }

  #unlinkSocket(): void {
    try {
      if (this.#inode !== undefined && statSocket(this.#paths.socket).ino === this.#inode)
        unlinkSync(this.#paths.socket)
    } catch {
      // Already gone, or replaced by another daemon's.
    }
  }

  #checkIdle(): void {
    clearTimeout(this.#lingerTimer)
    if (this.#exiting || this.#commands > 0) return
    if (this.#retiring) {
      void this.shutdown('retired')
      return
    }
    if (this.#pool.size > 0 || this.#sockets.size > 0) return
    this.#lingerTimer = setTimeout(() => {
      if (this.#pool.size === 0 && this.#sockets.size === 0 && this.#commands === 0)
        void this.shutdown('idle')
    }, lingerMs)
  }

  /** Closes every session (their servers shut down the MCP way), removes the socket and exits. */
  async shutdown(why: string, exitCode = 0): Promise<void> {
    if (this.#exiting) return
    this.#exiting = true
    this.log(`shutting down: ${why}`)
    this.#server.close()
    this.#unlinkSocket()
    await this.#pool.stopAll(why)
    for (const socket of this.#sockets) socket.destroy()
    process.exit(exitCode)
  }
}

/** The daemon's entry point (`mcp-kit __daemon`). */
export async function runDaemon(loadCommands: LoadCommands): Promise<void> {
  let paths: RuntimePaths
  try {
    paths = runtimePaths(process.env)
  } catch (error) {
    report(`error: ${(error as Error).message}`)
    process.exitCode = 1
    return
  }
  process.title = 'mcp-kit-daemon'
  const daemon = new Daemon(paths, loadCommands)
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
    process.on(signal, () => void daemon.shutdown(`got ${signal}`))
  }
  process.on('uncaughtException', (error) => {
    daemon.log(`uncaught: ${error.stack ?? error.message}`)
    void daemon.shutdown('an internal error', 1)
  })
  process.on('unhandledRejection', (reason) => {
    daemon.log(`unhandled rejection: ${(reason as Error)?.stack ?? String(reason)}`)
  })
  let started: 'listening' | 'other'
  try {
    started = await daemon.start()
  } catch (error) {
    report(`error: cannot listen on ${paths.socket}: ${(error as Error).message}`)
    process.exit(1)
  }
  report('ready')
  if (started === 'other') process.exit(0)
  writeFileSync(paths.log, `${new Date().toISOString()} [${process.pid}] listening on ${paths.socket}\n`, {
    mode: 0o600,
  })
  // Load the command code now, while the CLI that started the daemon connects.
  void loadCommands().catch(() => {})
}
