// connect(): launches or reaches a server and initializes an MCP session. For stdio the server
// is spawned before the SDK is loaded, so the two start-ups overlap. For HTTP it tries Streamable
// HTTP and falls back to legacy SSE when the first POST gets 400, 404 or 405.

import type { spawn as nodeSpawn } from 'node:child_process'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { InitializeResult, LoggingMessageNotification } from '@modelcontextprotocol/sdk/types.js'
import { Connection, RpcError } from './connection.js'
import { buildEnvironment } from './environment.js'
import { ClientError } from './errors.js'
import { createSseTransport, createStreamableHttpTransport, shouldFallBackToSse } from './http-transport.js'
import { ProcessTransport } from './process-transport.js'
import type { ServerSpec } from './server-spec.js'
import { describeExit, Session, type ToolFilter, type TransportKind } from './session.js'
import type { TraceEntry } from './trace.js'

export interface ConnectOptions {
  /** How this client introduces itself (default mcp-kit). */
  clientInfo?: { name: string; version: string }
  /** Launch + initialize limit in ms (default 30 000: npx and uvx may download first). */
  connectTimeoutMs?: number
  /** Per-call limit in ms, reset by progress (default 60 000). */
  callTimeoutMs?: number
  /** Limit for the whole session in ms, connect included (`--max-time`). */
  totalTimeoutMs?: number
  signal?: AbortSignal
  toolFilter?: ToolFilter
  /** Extra environment for stdio servers (`--env`); wins over the spec's `env`. */
  env?: Record<string, string>
  /** The environment stdio servers inherit from (default process.env); only a minimal set is passed. */
  parentEnv?: Readonly<Record<string, string | undefined>>
  /** Parent variables (names or `*` globs) to pass to stdio servers (`--pass-env`). */
  passEnv?: readonly string[]
  /** Extra HTTP headers (`--header`); win over the spec's `headers`. */
  headers?: Record<string, string>
  /** Sent as `Authorization: Bearer …`. */
  bearerToken?: string
  cwd?: string
  /** Largest message accepted from a stdio server, in bytes (default 16 MiB). */
  maxMessageBytes?: number
  /** How long each stdio shutdown step waits (default 1000 ms). */
  shutdownGraceMs?: number
  onTrace?: (entry: TraceEntry) => void
  redactTraceArguments?: boolean
  onStderr?: (line: string) => void
  onDiagnostic?: (message: string) => void
  onLog?: (message: LoggingMessageNotification['params']) => void
  /** Injected for tests. */
  spawn?: typeof nodeSpawn
  fetch?: (url: string | URL, init?: RequestInit) => Promise<Response>
}

const defaultClientInfo = { name: 'mcp-kit', version: '0.1.0' }

function describeLimit(milliseconds: number): string {
  return `${Math.round(milliseconds / 100) / 10} s`
}

interface Attempt {
  transport: Transport
  kind: TransportKind
}

interface Initialized {
  connection: Connection
  initialize: InitializeResult
  closed: Promise<void>
  toolsChanged: { handler?: () => void }
}

async function initialize(
  attempt: Attempt,
  options: ConnectOptions,
  timeoutMs: number,
): Promise<Initialized> {
  // Set before initializing, so a list_changed arriving early is not lost; the session wires it up.
  const toolsChanged: { handler?: () => void } = {}
  let resolveClosed: () => void = () => {}
  const closed = new Promise<void>((resolve) => {
    resolveClosed = resolve
  })
  const onLog = options.onLog
  const connection = new Connection(attempt.transport, {
    onClose: () => resolveClosed(),
    onError: (error) => options.onDiagnostic?.(`transport: ${error.message}`),
    onNotification: (method, params) => {
      if (method === 'notifications/tools/list_changed') toolsChanged.handler?.()
      else if (method === 'notifications/message' && onLog && params)
        onLog(params as LoggingMessageNotification['params'])
    },
  })
  await connection.start()
  const result = await connection.initialize(
    options.clientInfo ?? defaultClientInfo,
    timeoutMs,
    options.signal,
  )
  return { connection, initialize: result, closed, toolsChanged }
}

async function connectError(
  error: unknown,
  server: ServerSpec,
  attempt: Attempt | undefined,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<ClientError> {
  const where = server.transport === 'stdio' ? `'${server.command}'` : server.url
  const rpcCode = error instanceof RpcError ? error.code : undefined
  if (signal?.aborted)
    return new ClientError('cancelled', `connecting to ${where} was cancelled`, { cause: error })
  const process = attempt?.kind === 'stdio' ? (attempt.transport as ProcessTransport) : undefined
  if (process?.failure) return process.failure
  if (process?.exit) {
    // The exit is the real story, whatever failed first; read the server's last words before telling it.
    await Promise.race([process.settled(), new Promise((resolve) => setTimeout(resolve, 500))])
    const exit = process.exit
    return new ClientError(
      'connect_failed',
      `${where}: ${describeExit(exit, 'before it finished initializing')}`,
      {
        details: { exitCode: exit.code, signal: exit.signal, stderr: exit.stderrTail },
        cause: error,
      },
    )
  }
  if (ClientError.isInstance(error) && error.code === 'timeout') {
    return new ClientError(
      'timeout',
      `${where} did not finish initializing within ${describeLimit(timeoutMs)} (--connect-timeout)`,
      {
        details: { limit: 'connect', timeoutMs },
        cause: error,
      },
    )
  }
  if (ClientError.isInstance(error)) return error
  if (error instanceof RpcError) {
    return new ClientError(
      'protocol_error',
      `${where} refused to initialize: ${error.message} (JSON-RPC ${error.code})`,
      {
        details: { rpcCode: error.code, data: error.data },
        cause: error,
      },
    )
  }
  const status = (error as { code?: unknown }).code
  const message = (error as Error)?.message ?? String(error)
  if (typeof status === 'number' && rpcCode === undefined) {
    const hint = status === 401 || status === 403 ? " (does it need --header 'Authorization: Bearer …'?)" : ''
    return new ClientError(
      'http_error',
      `${where}: HTTP ${status}${hint}: ${message.replace(/^(Streamable HTTP|SSE) error: /, '')}`,
      {
        details: { status },
        cause: error,
      },
    )
  }
  const cause = (error as { cause?: { code?: string; message?: string } }).cause
  if (server.transport === 'http' && (cause?.code || /fetch failed/.test(message))) {
    const reason = cause?.code === 'ECONNREFUSED' ? 'connection refused' : (cause?.message ?? message)
    return new ClientError('connect_failed', `cannot connect to ${where}: ${reason}`, {
      details: { errno: cause?.code },
      cause: error,
    })
  }
  return new ClientError('connect_failed', `${where}: ${message}`, { cause: error })
}

/**
 * Connects to a server and initializes an MCP session. Errors are ClientErrors: launch_failed,
 * connect_failed, timeout (limit "connect"), cancelled, http_error, protocol_error.
 */
export async function connect(server: ServerSpec, options: ConnectOptions = {}): Promise<Session> {
  const connectTimeoutMs = options.connectTimeoutMs ?? 30_000
  const deadline = options.totalTimeoutMs === undefined ? undefined : Date.now() + options.totalTimeoutMs
  const timeoutMs =
    deadline === undefined
      ? connectTimeoutMs
      : Math.min(connectTimeoutMs, options.totalTimeoutMs ?? connectTimeoutMs)
  let attempt: Attempt | undefined
  let connected: Initialized
  try {
    if (server.transport === 'stdio') {
      const { env } = buildEnvironment({
        parent: options.parentEnv,
        passEnv: options.passEnv,
        set: { ...server.env, ...options.env },
      })
      const transport = new ProcessTransport({
        command: server.command,
        args: server.args,
        env,
        cwd: server.cwd ?? options.cwd,
        spawn: options.spawn,
        maxMessageBytes: options.maxMessageBytes,
        shutdownGraceMs: options.shutdownGraceMs,
        onStderr: options.onStderr,
        onDiagnostic: options.onDiagnostic,
      })
      attempt = { transport, kind: 'stdio' }
      // Spawn now; the rest of the client loads while the server boots. Failures surface from start().
      transport.launch().catch(() => {})
      connected = await initialize(attempt, options, timeoutMs)
    } else {
      const headers = { ...server.headers, ...options.headers }
      if (options.bearerToken) headers.Authorization = `Bearer ${options.bearerToken}`
      attempt = {
        transport: await createStreamableHttpTransport(server.url, { headers, fetch: options.fetch }),
        kind: 'streamable-http',
      }
      try {
        connected = await initialize(attempt, options, timeoutMs)
      } catch (error) {
        if (!shouldFallBackToSse(error)) throw error
        options.onDiagnostic?.(
          `${server.url} answered the Streamable HTTP POST with HTTP ${(error as { code: number }).code}; trying legacy SSE`,
        )
        attempt = {
          transport: await createSseTransport(server.url, { headers, fetch: options.fetch }),
          kind: 'sse',
        }
        connected = await initialize(attempt, options, timeoutMs)
      }
    }
  } catch (error) {
    const failure = await connectError(error, server, attempt, timeoutMs, options.signal)
    await attempt?.transport.close().catch(() => {})
    throw failure
  }
  const session = new Session(
    connected.connection,
    attempt.transport,
    { server, transportKind: attempt.kind, initialize: connected.initialize, closed: connected.closed },
    {
      callTimeoutMs: options.callTimeoutMs ?? 60_000,
      deadline,
      signal: options.signal,
      toolFilter: options.toolFilter ?? null,
      onTrace: options.onTrace,
      redactTraceArguments: options.redactTraceArguments ?? false,
    },
  )
  connected.toolsChanged.handler = () => session.invalidateTools()
  return session
}
