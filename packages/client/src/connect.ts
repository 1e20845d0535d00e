// connect(): launches or reaches a server and starts an MCP session in the era it speaks
// (negotiate.ts: 2026-07-28 when the server answers `server/discover`, else a 2025-11-25
// `initialize`). For stdio the server is spawned before anything else loads, so the start-ups
// overlap. For HTTP it tries Streamable HTTP and falls back to legacy SSE when the first POST of
// a 2025 handshake gets 400, 404 or 405.

import type { spawn as nodeSpawn } from 'node:child_process'
import type { LoggingMessageNotification } from '@modelcontextprotocol/client'
import { createOAuthHook, type OAuthHookOptions } from './auth/oauth.js'
import { Connection } from './connection.js'
import { buildEnvironment } from './environment.js'
import { type EraCache, fileEraCache } from './era-cache.js'
import { ClientError } from './errors.js'
import { HttpStatusError } from './http/http-errors.js'
import {
  createSseTransport,
  createStreamableHttpTransport,
  defaultFetch,
  shouldFallBackToSse,
} from './http-transport.js'
import { answerInput, capabilitiesOf, type InputHandler } from './input.js'
import type { MessageTransport } from './message-transport.js'
import { type Negotiated, negotiate, ProbeEndedServer, type ProtocolChoice } from './negotiate.js'
import { ProcessTransport } from './process-transport.js'
import { RpcError } from './rpc-error.js'
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
  /** Largest message accepted from a server, in bytes (default 16 MiB): a stdio line, a JSON body, an SSE event. */
  maxMessageBytes?: number
  /** How long each stdio shutdown step waits (default 1000 ms). */
  shutdownGraceMs?: number
  /**
   * Have a watchdog process end the stdio servers' trees should this process die without closing
   * its sessions (SIGKILL, out of memory). Default true; POSIX only.
   */
  watchdog?: boolean
  onTrace?: (entry: TraceEntry) => void
  redactTraceArguments?: boolean
  onStderr?: (line: string) => void
  onDiagnostic?: (message: string) => void
  onLog?: (message: LoggingMessageNotification['params']) => void
  /** `auto` (default: 2026-07-28 if the server speaks it, else 2025-11-25), or one revision only. */
  protocol?: ProtocolChoice
  /** Answers the server's questions (elicitation, sampling, roots); decides what the client declares. */
  input?: InputHandler
  /** Where era verdicts are remembered between runs (default: a file in the user's cache directory). */
  eraCache?: EraCache
  /** How long the `server/discover` probe waits for an answer (default 10 s, at most the connect limit). */
  probeTimeoutMs?: number
  /**
   * OAuth for HTTP servers that ask for it (401): where credentials are kept, a pre-registered
   * client or a Client ID Metadata Document, and how to log in (an Authorizer; without one a
   * server that needs a login fails with `auth_required`). A static Authorization header wins.
   */
  oauth?: Omit<OAuthHookOptions, 'serverUrl' | 'fetch'>
  /** Injected for tests. */
  spawn?: typeof nodeSpawn
  fetch?: (url: string | URL, init?: RequestInit) => Promise<Response>
}

const defaultClientInfo = { name: 'mcp-kit', version: '0.1.0' }

/** ": <what the server said>" for an HTTP error, one line, short. */
function describeBody(error: unknown, message: string): string {
  const text =
    error instanceof HttpStatusError ? error.body : message.replace(/^(Streamable HTTP|SSE) error: /, '')
  const line = text.replace(/\s+/g, ' ').trim().slice(0, 200)
  return line === '' ? '' : `: ${line}`
}

function describeLimit(milliseconds: number): string {
  return `${Math.round(milliseconds / 100) / 10} s`
}

interface Attempt {
  transport: MessageTransport
  kind: TransportKind
}

interface Initialized {
  connection: Connection
  negotiated: Negotiated
  closed: Promise<void>
  /** Set once the session exists: list changes and refusals reach it. */
  session: { current?: Session }
}

async function initialize(
  attempt: Attempt,
  server: ServerSpec,
  options: ConnectOptions,
  timeoutMs: number,
  eraCache: EraCache,
): Promise<Initialized> {
  // Set before negotiating, so a list_changed arriving early is not lost.
  const session: { current?: Session } = {}
  let resolveClosed: () => void = () => {}
  const closed = new Promise<void>((resolve) => {
    resolveClosed = resolve
  })
  const onLog = options.onLog
  const input = options.input
  const connection = new Connection(attempt.transport, {
    onClose: () => resolveClosed(),
    onError: (error) => options.onDiagnostic?.(`transport: ${error.message}`),
    onNotification: (method, params) => {
      if (method === 'notifications/message' && onLog && params)
        onLog(params as LoggingMessageNotification['params'])
      else session.current?.receiveNotification(method, params)
    },
    // 2025-11-25 server-to-client requests: the same answers as 2026 input rounds.
    onRequest: async (method, params) => {
      try {
        return await answerInput(
          input,
          { method, params },
          { during: undefined, signal: options.signal ?? new AbortController().signal },
        )
      } catch (error) {
        if (ClientError.isInstance(error) && error.code === 'input_required')
          session.current?.failPending(error)
        throw error
      }
    },
  })
  await connection.start()
  const negotiated = await negotiate(connection, attempt.transport as never, {
    choice: options.protocol ?? 'auto',
    clientInfo: options.clientInfo ?? defaultClientInfo,
    capabilities: capabilitiesOf(input),
    timeoutMs,
    // A stdio server that ignores unknown requests is legacy after a short wait; an HTTP server
    // always answers, so there the probe gets the whole connect limit.
    probeTimeoutMs:
      attempt.kind === 'stdio' ? Math.min(options.probeTimeoutMs ?? 10_000, timeoutMs) : timeoutMs,
    signal: options.signal,
    remembered:
      options.protocol === undefined || options.protocol === 'auto' ? eraCache.get(server) : undefined,
    onDiagnostic: options.onDiagnostic,
  })
  if (options.protocol === undefined || options.protocol === 'auto') eraCache.set(server, negotiated.era)
  return { connection, negotiated, closed, session }
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
    return new ClientError('http_error', `${where}: HTTP ${status}${hint}${describeBody(error, message)}`, {
      details: { status },
      cause: error,
    })
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
  const eraCache = options.eraCache ?? fileEraCache()
  let attempt: Attempt | undefined
  let connected: Initialized
  try {
    if (server.transport === 'stdio') {
      const { env } = buildEnvironment({
        parent: options.parentEnv,
        passEnv: options.passEnv,
        set: { ...server.env, ...options.env },
      })
      // What the first start printed, so that a second start repeating it is not shown twice.
      const firstStderr: string[] = []
      let repeated = 0
      let relaunched = false
      const onStderr =
        options.onStderr === undefined
          ? undefined
          : (line: string) => {
              if (!relaunched) firstStderr.push(line)
              else if (repeated < firstStderr.length && firstStderr[repeated] === line) {
                repeated += 1
                return
              } else repeated = firstStderr.length
              options.onStderr?.(line)
            }
      const launch = (): Attempt => {
        const transport = new ProcessTransport({
          command: server.command,
          args: server.args,
          env,
          cwd: server.cwd ?? options.cwd,
          spawn: options.spawn,
          maxMessageBytes: options.maxMessageBytes,
          shutdownGraceMs: options.shutdownGraceMs,
          watchdog: options.watchdog,
          onStderr,
          onDiagnostic: options.onDiagnostic,
        })
        // Spawn now; the rest of the client loads while the server boots. Failures surface from start().
        transport.launch().catch(() => {})
        return { transport, kind: 'stdio' }
      }
      attempt = launch()
      try {
        connected = await initialize(attempt, server, options, timeoutMs, eraCache)
      } catch (error) {
        if (!(error instanceof ProbeEndedServer)) throw error
        // A 2025 server that could not take the probe: start it again and initialize (remembered).
        options.onDiagnostic?.(
          'the server exited after the server/discover probe; starting it again for initialize',
        )
        await attempt.transport.close().catch(() => {})
        eraCache.set(server, 'legacy')
        relaunched = true
        attempt = launch()
        connected = await initialize(
          attempt,
          server,
          {
            ...options,
            protocol:
              options.protocol === 'auto' || options.protocol === undefined ? '2025-11-25' : options.protocol,
          },
          timeoutMs,
          eraCache,
        )
      }
    } else {
      const headers = { ...server.headers, ...options.headers }
      if (options.bearerToken) headers.Authorization = `Bearer ${options.bearerToken}`
      const fetch = options.fetch ?? (await defaultFetch())
      const staticAuthorization = Object.keys(headers).some((name) => name.toLowerCase() === 'authorization')
      const auth =
        options.oauth === undefined || staticAuthorization
          ? undefined
          : createOAuthHook({
              ...options.oauth,
              serverUrl: server.url,
              fetch,
              onDiagnostic: options.onDiagnostic,
            })
      attempt = {
        transport: await createStreamableHttpTransport(server.url, {
          headers,
          fetch,
          maxMessageBytes: options.maxMessageBytes,
          onDiagnostic: options.onDiagnostic,
          auth,
        }),
        kind: 'streamable-http',
      }
      try {
        connected = await initialize(attempt, server, options, timeoutMs, eraCache)
      } catch (error) {
        if (!shouldFallBackToSse(error)) throw error
        options.onDiagnostic?.(
          `${server.url} answered the Streamable HTTP POST with HTTP ${(error as { code: number }).code}; trying legacy SSE`,
        )
        attempt = {
          transport: await createSseTransport(server.url, {
            headers,
            fetch: options.fetch,
            maxMessageBytes: options.maxMessageBytes,
          }),
          kind: 'sse',
        }
        connected = await initialize(
          attempt,
          server,
          { ...options, protocol: '2025-11-25' },
          timeoutMs,
          eraCache,
        )
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
    { server, transportKind: attempt.kind, negotiated: connected.negotiated, closed: connected.closed },
    {
      callTimeoutMs: options.callTimeoutMs ?? 60_000,
      deadline,
      signal: options.signal,
      toolFilter: options.toolFilter ?? null,
      onTrace: options.onTrace,
      redactTraceArguments: options.redactTraceArguments ?? false,
      input: options.input,
      onDiagnostic: options.onDiagnostic,
    },
  )
  connected.session.current = session
  return session
}
