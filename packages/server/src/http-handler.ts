// The Streamable HTTP endpoint (MCP spec 2025-11-25) as a node:http request handler: the secure
// defaults of DESIGN.md "HTTP server defaults" (Host/Origin checks, bearer token, body limit),
// sessions (random ids, idle expiry, a cap), a stateless mode, /healthz, and graceful close.
// Bodies are read straight from node:http and answered by HttpSessionTransport, so a plain
// tools/call costs one JSON.parse, the SDK's dispatch and one JSON.stringify.

import { randomUUID } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js'
import type { Server } from '@modelcontextprotocol/sdk/server/index.js'
import {
  DEFAULT_NEGOTIATED_PROTOCOL_VERSION,
  JSONRPCErrorResponseSchema,
  type JSONRPCMessage,
  JSONRPCNotificationSchema,
  JSONRPCRequestSchema,
  JSONRPCResultResponseSchema,
  type RequestId,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/sdk/types.js'
import { negotiate } from './content-negotiation.js'
import { rpcCodes } from './errors.js'
import { HttpSessionTransport, keepAliveComment, type SessionHub } from './http-session.js'
import { createProtocolServer, type ProtocolServerOptions } from './protocol-server.js'
import type { ToolRegistry } from './registry.js'
import { createRequestGuard, type GuardOptions } from './request-guard.js'
import { createRuntime, errorMessage, type Runtime, type RuntimeOptions } from './runtime.js'

export interface HttpHandlerOptions extends ProtocolServerOptions, RuntimeOptions, GuardOptions {
  /** The MCP endpoint's path (default `/mcp`). `/healthz` answers 200 besides. */
  path?: string
  /** No sessions: every POST is served by a fresh protocol server; GET and DELETE answer 405. */
  stateless?: boolean
  /** Live sessions allowed at once; initialize beyond it gets 503 (default 1000). */
  maxSessions?: number
  /** A session without requests or open streams for this long is closed (default 600 000 ms). */
  sessionIdleMs?: number
  /** Largest request body in bytes; larger gets 413 (default 4 MiB). */
  bodyLimitBytes?: number
  /** Interval of SSE keep-alive comments; calls running longer switch to SSE to get them (default 15 000 ms). */
  keepAliveMs?: number
  /** The SSE `retry:` hint: how long a client waits before reconnecting (default 1000 ms). */
  retryMs?: number
  /** SSE events a session keeps for Last-Event-ID replay (default 1000, and at most 8 MiB). */
  eventLogSize?: number
  /** Serve this runtime instead of a new one over the registry. */
  runtime?: Runtime
  /** Diagnostics for the operator (never sent to clients). */
  onError?: (error: Error) => void
  /** Session id generator (default crypto.randomUUID). */
  createSessionId?: () => string
}

export interface HttpHandlerStats {
  sessions: number
  /** Requests being answered now. */
  inFlight: number
  /** Open SSE responses. */
  streams: number
}

export interface HttpHandler {
  /** The node:http request listener: `createServer(handler.handle)`. */
  readonly handle: (request: IncomingMessage, response: ServerResponse) => void
  readonly runtime: Runtime
  stats(): HttpHandlerStats
  /**
   * Graceful close: new work gets 503, in-flight requests get up to `graceMs` (default 10 000)
   * to finish, then every session is closed and every stream ended.
   */
  close(options?: { graceMs?: number }): Promise<void>
}

interface Session {
  transport: HttpSessionTransport
  server: Server
}

type Kind = 'request' | 'notification' | 'response'

const supportedVersions = new Set<string>(SUPPORTED_PROTOCOL_VERSIONS)
const mebibyte = 1024 * 1024

// The SDK's Protocol silently drops a message its schemas reject (extra keys, params that are
// not an object, a fractional id…): a request would then never be answered. So each message is
// checked here with the SDK's own schema first (about 1 µs) and refused with 400 instead.
function classify(value: unknown): Kind | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined
  const message = value as Record<string, unknown>
  if (typeof message.method === 'string') {
    if (!('id' in message))
      return JSONRPCNotificationSchema.safeParse(value).success ? 'notification' : undefined
    return JSONRPCRequestSchema.safeParse(value).success ? 'request' : undefined
  }
  if ('result' in message)
    return JSONRPCResultResponseSchema.safeParse(value).success ? 'response' : undefined
  if ('error' in message) return JSONRPCErrorResponseSchema.safeParse(value).success ? 'response' : undefined
  return undefined
}

function sendError(
  response: ServerResponse,
  status: number,
  code: number,
  message: string,
  headers: readonly string[] = [],
  id: RequestId | null = null,
): void {
  if (response.headersSent) {
    response.end()
    return
  }
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id })
  response.writeHead(status, [
    'content-type',
    'application/json',
    'content-length',
    String(Buffer.byteLength(body)),
    ...headers,
  ])
  response.end(body)
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value
}

function describeLimit(bytes: number): string {
  return bytes % mebibyte === 0 ? `${bytes / mebibyte} MiB` : `${bytes} bytes`
}

/** Creates the request handler; `registry` is served by one runtime shared by all sessions. */
export function createHttpHandler(registry: ToolRegistry, options: HttpHandlerOptions = {}): HttpHandler {
  const runtime = options.runtime ?? createRuntime(registry, options)
  const path = options.path ?? '/mcp'
  const stateless = options.stateless === true
  const maxSessions = options.maxSessions ?? 1000
  const sessionIdleMs = options.sessionIdleMs ?? 600_000
  const bodyLimit = options.bodyLimitBytes ?? 4 * mebibyte
  const keepAliveMs = options.keepAliveMs ?? 15_000
  const createSessionId = options.createSessionId ?? randomUUID
  const guard = createRequestGuard(options)
  const protocolOptions: ProtocolServerOptions = {
    name: options.name,
    version: options.version,
    instructions: options.instructions,
  }
  const onError = options.onError
  const sessions = new Map<string, Session>()
  // Stateless mode's per-request servers, so a shutdown can end calls that outlive the grace.
  const statelessServers = new Set<Server>()
  let inFlight = 0
  let closing = false
  let closed: Promise<void> | undefined
  let drained: (() => void) | undefined

  const hub: SessionHub = {
    retryMs: options.retryMs ?? 1000,
    maximumLoggedEvents: options.eventLogSize ?? 1000,
    maximumLoggedBytes: 8 * mebibyte,
    liveStreams: new Set(),
    exchangeEnded() {
      inFlight -= 1
      if (inFlight === 0) drained?.()
    },
    now: Date.now,
  }

  const keepAliveTimer = setInterval(() => {
    const olderThan = Date.now() - keepAliveMs
    for (const session of sessions.values()) session.transport.upgradeSlowExchanges(olderThan)
    for (const stream of hub.liveStreams) if (!stream.destroyed) stream.write(keepAliveComment)
  }, keepAliveMs)
  keepAliveTimer.unref()
  const sweepTimer = setInterval(sweepIdleSessions, Math.min(Math.max(sessionIdleMs / 2, 50), 60_000))
  sweepTimer.unref()

  function sweepIdleSessions(): void {
    const idleSince = Date.now() - sessionIdleMs
    for (const session of sessions.values()) {
      const transport = session.transport
      if (
        transport.exchanges.size === 0 &&
        transport.openStreams === 0 &&
        transport.lastActivity <= idleSince
      ) {
        closeSession(session)
      }
    }
  }

  function closeSession(session: Session): void {
    if (session.transport.sessionId !== undefined) sessions.delete(session.transport.sessionId)
    session.server.close().catch((error: unknown) => onError?.(error as Error))
  }

  function report(error: unknown): void {
    onError?.(error instanceof Error ? error : new Error(errorMessage(error)))
  }

  function corsHeaders(origin: string | undefined): readonly string[] {
    if (origin === undefined) return []
    return [
      'access-control-allow-origin',
      origin,
      'access-control-expose-headers',
      'mcp-session-id, www-authenticate',
      'vary',
      'origin',
    ]
  }

  async function openSession(): Promise<Session> {
    const id = createSessionId()
    const transport = new HttpSessionTransport(id, DEFAULT_NEGOTIATED_PROTOCOL_VERSION, hub)
    const server = createProtocolServer(runtime, {
      ...protocolOptions,
      onClose: () => {
        if (sessions.get(id)?.transport === transport) sessions.delete(id)
      },
    })
    transport.onerror = report
    const session = { transport, server }
    sessions.set(id, session)
    await server.connect(transport)
    return session
  }

  async function serveStateless(
    message: JSONRPCMessage & { id: RequestId; method: string },
    request: IncomingMessage,
    response: ServerResponse,
    headers: readonly string[],
    authInfo: AuthInfo | undefined,
  ): Promise<void> {
    const version =
      headerValue(request.headers['mcp-protocol-version']) ?? DEFAULT_NEGOTIATED_PROTOCOL_VERSION
    const transport = new HttpSessionTransport(undefined, version, hub)
    const server = createProtocolServer(runtime, protocolOptions)
    transport.onerror = report
    await server.connect(transport)
    statelessServers.add(server)
    response.once('close', () => {
      statelessServers.delete(server)
      server.close().catch(report)
    })
    transport.dispatchRequest(
      message,
      response,
      negotiate(request.headers.accept),
      headers,
      request.headers,
      authInfo,
    )
  }

  function handlePost(
    request: IncomingMessage,
    response: ServerResponse,
    headers: readonly string[],
    authInfo: AuthInfo | undefined,
  ): void {
    const contentType = request.headers['content-type']
    if (contentType === undefined || !/^application\/json\s*(;|$)/i.test(contentType)) {
      request.resume()
      sendError(
        response,
        415,
        rpcCodes.transportError,
        'Unsupported Media Type: Content-Type must be application/json',
        headers,
      )
      return
    }
    const negotiation = negotiate(request.headers.accept)
    if (!negotiation.json && !negotiation.sse) {
      request.resume()
      sendError(
        response,
        406,
        rpcCodes.transportError,
        'Not Acceptable: accept application/json or text/event-stream',
        headers,
      )
      return
    }
    const declaredLength = Number(request.headers['content-length'])
    if (declaredLength > bodyLimit) {
      tooLarge(request, response, headers)
      return
    }
    const chunks: Buffer[] = []
    let size = 0
    let aborted = false
    request.on('data', (chunk: Buffer) => {
      if (aborted) return
      size += chunk.length
      if (size > bodyLimit) {
        aborted = true
        chunks.length = 0
        tooLarge(request, response, headers)
        return
      }
      chunks.push(chunk)
    })
    request.on('end', () => {
      if (aborted) return
      const body = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size)
      let parsed: unknown
      try {
        parsed = JSON.parse(body.toString('utf8'))
      } catch {
        sendError(response, 400, rpcCodes.parseError, 'Parse error: the body is not valid JSON', headers)
        return
      }
      try {
        handleMessage(parsed, request, response, headers, authInfo)
      } catch (error) {
        report(error)
        sendError(response, 500, rpcCodes.internalError, 'Internal error', headers)
      }
    })
  }

  function tooLarge(request: IncomingMessage, response: ServerResponse, headers: readonly string[]): void {
    // Stop reading the rest and close the connection once the answer is out.
    request.pause()
    sendError(
      response,
      413,
      rpcCodes.transportError,
      `Payload Too Large: the request body exceeds ${describeLimit(bodyLimit)}`,
      [...headers, 'connection', 'close'],
    )
  }

  function handleMessage(
    parsed: unknown,
    request: IncomingMessage,
    response: ServerResponse,
    headers: readonly string[],
    authInfo: AuthInfo | undefined,
  ): void {
    if (Array.isArray(parsed)) {
      sendError(
        response,
        400,
        rpcCodes.invalidRequest,
        'Invalid Request: JSON-RPC batches are not supported',
        headers,
      )
      return
    }
    const kind = classify(parsed)
    if (kind === undefined) {
      const id = (parsed as { id?: unknown } | null)?.id
      sendError(
        response,
        400,
        rpcCodes.invalidRequest,
        'Invalid Request: not a valid JSON-RPC 2.0 message for MCP',
        headers,
        typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id)) ? id : null,
      )
      return
    }
    const message = parsed as JSONRPCMessage
    const isInitialize = kind === 'request' && (message as { method: string }).method === 'initialize'
    if (!isInitialize) {
      const version = headerValue(request.headers['mcp-protocol-version'])
      if (version !== undefined && !supportedVersions.has(version)) {
        sendError(
          response,
          400,
          rpcCodes.transportError,
          `Bad Request: unsupported MCP-Protocol-Version ${JSON.stringify(version.slice(0, 40))} (supported: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`,
          headers,
        )
        return
      }
    }
    if (closing && kind === 'request') {
      sendError(response, 503, rpcCodes.transportError, 'Service Unavailable: the server is shutting down', [
        ...headers,
        'retry-after',
        '1',
      ])
      return
    }
    if (stateless) {
      if (kind !== 'request') {
        response.writeHead(202, headers as string[])
        response.end()
        return
      }
      inFlight += 1
      serveStateless(
        message as JSONRPCMessage & { id: RequestId; method: string },
        request,
        response,
        headers,
        authInfo,
      ).catch((error: unknown) => {
        hub.exchangeEnded()
        report(error)
        sendError(response, 500, rpcCodes.internalError, 'Internal error', headers)
      })
      return
    }
    const sessionId = headerValue(request.headers['mcp-session-id'])
    if (sessionId === undefined) {
      if (!isInitialize) {
        sendError(
          response,
          400,
          rpcCodes.transportError,
          'Bad Request: Mcp-Session-Id header is required',
          headers,
        )
        return
      }
      if (sessions.size >= maxSessions) sweepIdleSessions()
      if (sessions.size >= maxSessions) {
        sendError(
          response,
          503,
          rpcCodes.transportError,
          `Service Unavailable: too many sessions (limit ${maxSessions})`,
          [...headers, 'retry-after', '5'],
        )
        return
      }
      inFlight += 1
      openSession().then(
        (session) =>
          session.transport.dispatchRequest(
            message as JSONRPCMessage & { id: RequestId; method: string },
            response,
            negotiate(request.headers.accept),
            headers,
            request.headers,
            authInfo,
          ),
        (error: unknown) => {
          hub.exchangeEnded()
          report(error)
          sendError(response, 500, rpcCodes.internalError, 'Internal error', headers)
        },
      )
      return
    }
    const session = sessions.get(sessionId)
    if (session === undefined || session.transport.closed) {
      sendError(response, 404, rpcCodes.sessionNotFound, 'Session not found', headers)
      return
    }
    if (isInitialize) {
      sendError(
        response,
        400,
        rpcCodes.invalidRequest,
        'Invalid Request: the session is already initialized',
        headers,
      )
      return
    }
    const transport = session.transport
    if (kind === 'request') {
      const id = (message as { id: RequestId }).id
      if (transport.exchanges.has(id)) {
        sendError(
          response,
          400,
          rpcCodes.invalidRequest,
          `Invalid Request: request id ${JSON.stringify(id)} is already in use`,
          headers,
          id,
        )
        return
      }
      inFlight += 1
      transport.dispatchRequest(
        message as JSONRPCMessage & { id: RequestId; method: string },
        response,
        negotiate(request.headers.accept),
        headers,
        request.headers,
        authInfo,
      )
      return
    }
    transport.dispatchOther(message, request.headers, authInfo)
    response.writeHead(202, headers as string[])
    response.end()
  }

  function handleGet(request: IncomingMessage, response: ServerResponse, headers: readonly string[]): void {
    if (stateless) {
      sendError(
        response,
        405,
        rpcCodes.transportError,
        'Method Not Allowed: this server is stateless (no GET stream)',
        [...headers, 'allow', 'POST, OPTIONS'],
      )
      return
    }
    if (!negotiate(request.headers.accept).sse) {
      sendError(
        response,
        406,
        rpcCodes.transportError,
        'Not Acceptable: GET needs Accept: text/event-stream',
        headers,
      )
      return
    }
    const session = requireSession(request, response, headers)
    if (session === undefined) return
    const version = headerValue(request.headers['mcp-protocol-version'])
    if (version !== undefined && !supportedVersions.has(version)) {
      sendError(
        response,
        400,
        rpcCodes.transportError,
        'Bad Request: unsupported MCP-Protocol-Version',
        headers,
      )
      return
    }
    if (closing) {
      sendError(
        response,
        503,
        rpcCodes.transportError,
        'Service Unavailable: the server is shutting down',
        headers,
      )
      return
    }
    const lastEventId = headerValue(request.headers['last-event-id'])
    session.transport.lastActivity = Date.now()
    if (!session.transport.openStream(response, headers, lastEventId)) {
      sendError(
        response,
        400,
        rpcCodes.transportError,
        'Bad Request: unknown Last-Event-ID (the events may have expired)',
        headers,
      )
    }
  }

  /** The live session a GET or DELETE names, or undefined after answering 400 (no id) or 404. */
  function requireSession(request: IncomingMessage, response: ServerResponse, headers: readonly string[]) {
    const sessionId = headerValue(request.headers['mcp-session-id'])
    if (sessionId === undefined) {
      sendError(
        response,
        400,
        rpcCodes.transportError,
        'Bad Request: Mcp-Session-Id header is required',
        headers,
      )
      return undefined
    }
    const session = sessions.get(sessionId)
    if (session === undefined || session.transport.closed) {
      sendError(response, 404, rpcCodes.sessionNotFound, 'Session not found', headers)
      return undefined
    }
    return session
  }

  function handleDelete(
    request: IncomingMessage,
    response: ServerResponse,
    headers: readonly string[],
  ): void {
    if (stateless) {
      sendError(
        response,
        405,
        rpcCodes.transportError,
        'Method Not Allowed: this server is stateless (no sessions)',
        [...headers, 'allow', 'POST, OPTIONS'],
      )
      return
    }
    const session = requireSession(request, response, headers)
    if (session === undefined) return
    closeSession(session)
    response.writeHead(200, headers as string[])
    response.end()
  }

  function route(request: IncomingMessage, response: ServerResponse): void {
    const url = request.url ?? '/'
    const queryAt = url.indexOf('?')
    const pathname = queryAt === -1 ? url : url.slice(0, queryAt)
    if (pathname !== path) {
      if (pathname === '/healthz' && (request.method === 'GET' || request.method === 'HEAD')) {
        const body = '{"status":"ok"}'
        response.writeHead(200, ['content-type', 'application/json', 'content-length', String(body.length)])
        response.end(request.method === 'HEAD' ? undefined : body)
        return
      }
      request.resume()
      sendError(response, 404, rpcCodes.transportError, `Not Found: the MCP endpoint is ${path}`)
      return
    }
    const requestHeaders = request.headers
    if (!guard.hostAllowed(requestHeaders.host)) {
      request.resume()
      sendError(
        response,
        403,
        rpcCodes.transportError,
        `Forbidden: Host ${JSON.stringify(String(requestHeaders.host ?? '').slice(0, 100))} is not allowed`,
      )
      return
    }
    const origin = headerValue(requestHeaders.origin)
    if (!guard.originAllowed(origin)) {
      request.resume()
      sendError(
        response,
        403,
        rpcCodes.transportError,
        `Forbidden: Origin ${JSON.stringify(String(origin).slice(0, 100))} is not allowed`,
      )
      return
    }
    const headers = corsHeaders(origin)
    if (request.method === 'OPTIONS') {
      request.resume()
      response.writeHead(204, [
        ...headers,
        'access-control-allow-methods',
        'GET, POST, DELETE, OPTIONS',
        'access-control-allow-headers',
        'content-type, authorization, mcp-session-id, mcp-protocol-version, last-event-id',
        'access-control-max-age',
        '600',
        'allow',
        'GET, POST, DELETE, OPTIONS',
      ])
      response.end()
      return
    }
    const verdict = guard.checkToken(headerValue(requestHeaders.authorization))
    if (verdict !== 'ok') {
      request.resume()
      const challenge =
        verdict === 'invalid' ? 'Bearer realm="mcp", error="invalid_token"' : 'Bearer realm="mcp"'
      sendError(response, 401, rpcCodes.transportError, 'Unauthorized: a valid bearer token is required', [
        ...headers,
        'www-authenticate',
        challenge,
      ])
      return
    }
    const authInfo = options.token === undefined ? undefined : tokenAuthInfo
    switch (request.method) {
      case 'POST':
        handlePost(request, response, headers, authInfo)
        return
      case 'GET':
        request.resume()
        handleGet(request, response, headers)
        return
      case 'DELETE':
        request.resume()
        handleDelete(request, response, headers)
        return
      default:
        request.resume()
        sendError(response, 405, rpcCodes.transportError, 'Method Not Allowed', [
          ...headers,
          'allow',
          stateless ? 'POST, OPTIONS' : 'GET, POST, DELETE, OPTIONS',
        ])
        return
    }
  }

  const tokenAuthInfo: AuthInfo | undefined =
    options.token === undefined
      ? undefined
      : Object.freeze({ token: options.token, clientId: 'bearer', scopes: [] })

  return {
    runtime,
    handle(request, response) {
      try {
        route(request, response)
      } catch (error) {
        // Hostile or unexpected input must never take the process down or leak a stack.
        report(error)
        try {
          sendError(response, 500, rpcCodes.internalError, 'Internal error')
        } catch {
          response.destroy()
        }
      }
    },
    stats() {
      return { sessions: sessions.size, inFlight, streams: hub.liveStreams.size }
    },
    close(closeOptions = {}) {
      if (closed !== undefined) return closed
      closing = true
      clearInterval(keepAliveTimer)
      clearInterval(sweepTimer)
      const graceMs = closeOptions.graceMs ?? 10_000
      closed = new Promise<void>((resolve) => {
        let timer: NodeJS.Timeout | undefined
        const finish = () => {
          if (timer !== undefined) clearTimeout(timer)
          drained = undefined
          for (const session of [...sessions.values()]) closeSession(session)
          for (const server of statelessServers) server.close().catch(report)
          statelessServers.clear()
          for (const stream of hub.liveStreams) stream.end()
          hub.liveStreams.clear()
          resolve()
        }
        if (inFlight <= 0) {
          finish()
          return
        }
        drained = finish
        timer = setTimeout(finish, graceMs)
        timer.unref()
      })
      return closed
    },
  }
}
