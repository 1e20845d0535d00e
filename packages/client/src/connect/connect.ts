// connect(): launches or reaches a server and opens a session in the era it speaks. A stdio server is
// spawned before the rest loads, so the start-ups overlap; HTTP falls back to legacy SSE on 400/404/405.

import { latestLegacyVersion } from '@mcp-kit/core'
import { createOAuthHook } from '../auth/oauth.js'
import {
  createSseTransport,
  createStreamableHttpTransport,
  defaultFetch,
  shouldFallBackToSse,
} from '../http/transports.js'
import { ProbeEndedServer } from '../protocol/negotiate.js'
import type { ServerSpec } from '../server-spec.js'
import { type Session, sessionInternals } from '../session/session.js'
import { buildEnvironment } from '../stdio/environment.js'
import { emptyProjectDirectory, npxArguments } from '../stdio/npx-prefix.js'
import { ProcessTransport } from '../stdio/process-transport.js'
import { processEraCache } from './era-cache.js'
import { type ConnectLimit, connectError } from './errors.js'
import { type Attempt, type Initialized, initialize } from './handshake.js'
import type { ConnectOptions } from './options.js'

function httpStatus(error: unknown): unknown {
  return (error as { code?: unknown } | null)?.code
}

/**
 * Connects to a server and initializes an MCP session. Errors are ClientErrors: launch_failed,
 * connect_failed, timeout (limit "connect"), cancelled, http_error, protocol_error.
 */
export async function connect(server: ServerSpec, options: ConnectOptions = {}): Promise<Session> {
  const connectTimeoutMs = options.connectTimeoutMs ?? 30_000
  const deadline = options.totalTimeoutMs === undefined ? undefined : Date.now() + options.totalTimeoutMs
  const limit: ConnectLimit =
    options.totalTimeoutMs !== undefined && options.totalTimeoutMs < connectTimeoutMs
      ? { timeoutMs: options.totalTimeoutMs, option: 'totalTimeoutMs' }
      : { timeoutMs: connectTimeoutMs, option: 'connectTimeoutMs' }
  const timeoutMs = limit.timeoutMs
  const eraCache = options.eraCache ?? processEraCache
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
      const args = npxArguments(server.command, server.args, options.npxPrefix ?? emptyProjectDirectory)
      if (args !== server.args)
        options.onDiagnostic?.(
          `npx gets --prefix ${args[1]}: the package comes from npm's cache, not from a project around the working directory`,
        )
      const launch = (): Attempt => {
        const transport = new ProcessTransport({
          command: server.command,
          args,
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
        relaunched = true
        attempt = launch()
        connected = await initialize(
          attempt,
          server,
          {
            ...options,
            protocol:
              options.protocol === 'auto' || options.protocol === undefined
                ? latestLegacyVersion
                : options.protocol,
          },
          timeoutMs,
          eraCache,
        )
        // Remembered only once the relaunched server did initialize: a server that crashed at
        // start (and crashes again) is probed afresh next time, not taken for a 2025 one for good.
        if (options.protocol === 'auto' || options.protocol === undefined) eraCache.set(server, 'legacy')
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
            onDiagnostic: options.onDiagnostic,
          }),
          kind: 'sse',
        }
        try {
          connected = await initialize(
            attempt,
            server,
            { ...options, protocol: latestLegacyVersion },
            timeoutMs,
            eraCache,
          )
        } catch (sseError) {
          // The same status again: the POST's answer says it with the server's own words.
          throw httpStatus(sseError) === httpStatus(error) ? error : sseError
        }
      }
    }
  } catch (error) {
    const failure = await connectError(error, server, attempt, limit, options.signal)
    await attempt?.transport.close().catch(() => {})
    throw failure
  }
  const session = sessionInternals.open(
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
      inputTimeoutMs: options.inputTimeoutMs ?? options.callTimeoutMs ?? 60_000,
      onDiagnostic: options.onDiagnostic,
    },
  )
  connected.session.current = session
  return session
}
