// Serves a registry over stdio: newline-delimited JSON-RPC on stdin/stdout. Nothing but protocol
// may reach stdout, so while serving on the process's own stdout anything else written there
// (a handler's console.log, a chatty library) is sent to stderr instead. Serving ends when
// stdin closes or the signal aborts (after in-flight calls finish, within the grace period).

import type { Readable, Writable } from 'node:stream'
import type { RpcMessage } from '../protocol/rpc.js'
import type { ToolRegistry } from '../registry/registry.js'
import { createRuntime, type Runtime, type RuntimeOptions } from '../runtime/runtime.js'
import type { ProtocolServerOptions } from '../server/core.js'
import { createProtocolServer } from '../server/protocol-server.js'
import { StdioLineTransport } from './transport.js'

export interface StdioServeOptions extends ProtocolServerOptions, RuntimeOptions {
  stdin?: Readable | undefined
  stdout?: Writable | undefined
  /** Where stray stdout writes go while serving on process.stdout (default process.stderr). */
  stderr?: Writable | undefined
  /** Ends serving: waits up to `shutdownGraceMs` for in-flight requests, then closes. */
  signal?: AbortSignal | undefined
  /** How long a shutdown waits for in-flight requests (default 10 000 ms). */
  shutdownGraceMs?: number | undefined
  /** Serve this runtime instead of a new one over `registry`. */
  runtime?: Runtime | undefined
}

/** Serves until stdin ends or `signal` aborts; resolves once the session is closed. */
export async function serveStdio(registry: ToolRegistry, options: StdioServeOptions = {}): Promise<void> {
  const runtime = options.runtime ?? createRuntime(registry, options)
  const stdin = (options.stdin ?? process.stdin) as NodeJS.ReadStream
  const stdout = options.stdout ?? process.stdout
  const restoreStdout = stdout === process.stdout ? divertStdout(options.stderr ?? process.stderr) : undefined
  const protocolOut = restoreStdout === undefined ? stdout : restoreStdout.protocolStream
  let closedResolve!: () => void
  const closed = new Promise<void>((resolve) => {
    closedResolve = resolve
  })
  const server = createProtocolServer(runtime, { ...options, onClose: () => closedResolve() })
  const transport = new StdioLineTransport(stdin, protocolOut)

  // Counts requests that have not been answered, so a shutdown can wait for them.
  const inFlight = new Set<string | number>()
  let drained: (() => void) | undefined
  const connect = server.connect(transport)
  const onmessage = transport.onmessage
  transport.onmessage = (message: RpcMessage) => {
    if ('method' in message) {
      if ('id' in message) inFlight.add(message.id)
      else if (message.method === 'notifications/cancelled') {
        // The SDK sends nothing for a cancelled request: stop waiting for it.
        const requestId = (message.params as { requestId?: string | number } | undefined)?.requestId
        if (requestId !== undefined) settle(requestId)
      }
    }
    onmessage?.(message)
  }
  const send = transport.send.bind(transport)
  // Answers of one tick leave in one write (corked until the next tick), not a system call each:
  // a client with many requests in flight gets their answers in few writes.
  const output = (restoreStdout === undefined ? stdout : process.stdout) as Writable
  let corked = false
  const flush = () => {
    if (!corked) return
    corked = false
    output.uncork()
  }
  transport.send = async (message: RpcMessage) => {
    if (!corked && typeof output.cork === 'function') {
      corked = true
      output.cork()
      process.nextTick(flush)
    }
    try {
      await send(message)
    } finally {
      const id = 'method' in message ? undefined : (message as { id?: string | number }).id
      if (id !== undefined) settle(id)
    }
  }
  function settle(id: string | number): void {
    if (inFlight.delete(id) && inFlight.size === 0) drained?.()
  }
  const close = () => void server.close().catch(() => {})
  // Stdin closing (the client is done sending) and the signal both let answers in flight go out
  // first: a client that writes its requests and closes stdin (`echo '…' | node server.js`) gets its answers.
  let stopping = false
  const shutdown = () => {
    if (stopping) return
    stopping = true
    if (inFlight.size === 0) return close()
    const timer = setTimeout(close, options.shutdownGraceMs ?? 10_000)
    timer.unref()
    drained = () => {
      clearTimeout(timer)
      close()
    }
  }
  // A vanished reader (EPIPE) ends serving instead of crashing the process.
  const onOutputError = () => close()
  stdout.on('error', onOutputError)
  stdin.once('end', shutdown)
  stdin.once('close', shutdown)
  if (options.signal?.aborted) shutdown()
  else options.signal?.addEventListener('abort', shutdown, { once: true })
  try {
    await connect
    await closed
  } finally {
    options.signal?.removeEventListener('abort', shutdown)
    stdin.off('end', shutdown)
    stdin.off('close', shutdown)
    stdout.off('error', onOutputError)
    flush() // what is still corked goes out before serving is over
    restoreStdout?.restore()
  }
}

/**
 * Sends everything written to process.stdout to `target` until restored, and returns a stream
 * that still writes to the real stdout, for the protocol.
 */
function divertStdout(target: Writable): { protocolStream: Writable; restore: () => void } {
  const real = process.stdout
  const originalWrite = real.write
  // The stdio transport only writes and waits for 'drain'.
  const protocolStream = {
    write: originalWrite.bind(real),
    once: (event: string, listener: () => void) => real.once(event, listener),
  } as unknown as Writable
  real.write = ((chunk: unknown, ...rest: unknown[]) =>
    (target.write as (...args: unknown[]) => boolean).call(target, chunk, ...rest)) as typeof real.write
  return {
    protocolStream,
    restore: () => {
      real.write = originalWrite
    },
  }
}
