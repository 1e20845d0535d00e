// POST to the MCP endpoint: a short chain of stages over one Exchange (exchange.ts). Each stage
// answers (and the chain ends there) or hands the exchange on; the message is read and its kind
// and era classified once, by readMessage, and every later stage reads them off the exchange.
//
//   media types (415, 406) → the body (guard/body-reader.ts: 413, 408) → readMessage (400) →
//   admitMessage (403 scopes, 503 closing) → 2026-07-28: modern.ts
//                                          → 2025: the version header (400), then stateless
//                                            (stateless-exchange.ts), a new session at
//                                            initialize (503 at the cap), or its session (400, 404)

import { isLegacyVersion, protocolVersions } from '@mcp-kit/core'
import { rpcCodes } from '../errors.js'
import { eraOf } from '../protocol/era.js'
import { classify, echoableId, type RequestMessage } from '../protocol/message.js'
import { quotedId, type RpcRequest } from '../protocol/rpc.js'
import type { Exchange, PostedExchange } from './exchange.js'
import { refuseVerdict } from './guard/admission.js'
import { readBody } from './guard/body-reader.js'
import { serveModern } from './modern.js'
import type { SessionEntry } from './sessions/table.js'
import { serveStateless } from './stateless-exchange.js'

export function handlePost(exchange: Exchange): void {
  if (!acceptsMediaTypes(exchange)) return
  const { request, response, headers, endpoint } = exchange
  readBody(request, response, headers, endpoint.bodyLimits, (body) => {
    try {
      if (!readMessage(exchange, body) || !admitMessage(exchange)) return
      if (exchange.era === 'modern') toModern(exchange)
      else toLegacy(exchange)
    } catch (error) {
      exchange.internalError(error)
    }
  })
}

/** 415 unless the body is JSON, 406 unless the client takes JSON or SSE. */
function acceptsMediaTypes(exchange: Exchange): boolean {
  const contentType = exchange.request.headers['content-type']
  if (contentType === undefined || !/^application\/json\s*(;|$)/i.test(contentType)) {
    exchange.refuse(
      415,
      rpcCodes.transportError,
      'Unsupported Media Type: Content-Type must be application/json',
    )
    return false
  }
  const negotiation = exchange.negotiation
  if (!negotiation.json && !negotiation.sse) {
    exchange.refuse(
      406,
      rpcCodes.transportError,
      'Not Acceptable: accept application/json or text/event-stream',
    )
    return false
  }
  return true
}

/** Parses the body into one JSON-RPC message and classifies its kind and era (400 when it is none). */
function readMessage(exchange: Exchange, body: Buffer): exchange is PostedExchange {
  let parsed: unknown
  try {
    parsed = JSON.parse(body.toString('utf8'))
  } catch {
    exchange.fail(400, rpcCodes.parseError, 'Parse error: the body is not valid JSON')
    return false
  }
  if (Array.isArray(parsed)) {
    exchange.fail(400, rpcCodes.invalidRequest, 'Invalid Request: JSON-RPC batches are not supported')
    return false
  }
  const kind = classify(parsed)
  if (kind === undefined) {
    const why = 'Invalid Request: not a valid JSON-RPC 2.0 message for MCP'
    exchange.fail(400, rpcCodes.invalidRequest, why, undefined, echoableId(parsed))
    return false
  }
  exchange.message = parsed as PostedExchange['message']
  exchange.kind = kind
  exchange.era = eraOf(kind, (parsed as { params?: unknown }).params, exchange.versionHeader)
  return true
}

/** A request needs the scopes its tool asks for (403) and a server not shutting down (503). */
function admitMessage(exchange: PostedExchange): boolean {
  if (exchange.kind !== 'request') return true
  const refusal = exchange.endpoint.scopeRefusal(exchange.message as RpcRequest, exchange.authInfo)
  if (refusal !== undefined) {
    refuseVerdict(exchange.request, exchange.response, refusal, exchange.headers)
    return false
  }
  if (exchange.endpoint.lifecycle.closing) {
    const why = 'Service Unavailable: the server is shutting down'
    exchange.fail(503, rpcCodes.transportError, why, ['retry-after', '1'])
    return false
  }
  return true
}

function toModern(exchange: PostedExchange): void {
  // 2026-07-28 defines no client notifications over HTTP (closing a stream cancels).
  if (exchange.kind === 'notification') {
    exchange.answerEmpty(202)
    return
  }
  exchange.endpoint.lifecycle.exchangeStarted()
  serveModern(exchange)
}

function isInitialize(exchange: PostedExchange): boolean {
  return exchange.kind === 'request' && (exchange.message as RequestMessage).method === 'initialize'
}

function toLegacy(exchange: PostedExchange): void {
  const version = exchange.versionHeader
  if (version !== undefined && !isLegacyVersion(version) && !isInitialize(exchange)) {
    const why = `Bad Request: unsupported MCP-Protocol-Version ${JSON.stringify(version.slice(0, 40))} (supported: ${protocolVersions.join(', ')})`
    exchange.fail(400, rpcCodes.transportError, why)
    return
  }
  if (exchange.endpoint.stateless) {
    serveStateless(exchange)
    return
  }
  const sessionId = exchange.sessionId
  if (sessionId === undefined) {
    if (isInitialize(exchange)) openSession(exchange)
    else exchange.fail(400, rpcCodes.transportError, 'Bad Request: Mcp-Session-Id header is required')
    return
  }
  const found = exchange.endpoint.sessions.lookup(sessionId, exchange.principal)
  if (found instanceof Promise) {
    found.then(
      (session) => toSession(exchange, session),
      (error: unknown) => exchange.storeUnreachable(error),
    )
    return
  }
  toSession(exchange, found)
}

/** Hands a message to its session (404 when there is none). */
function toSession(exchange: PostedExchange, session: SessionEntry | undefined): void {
  if (session === undefined) {
    exchange.fail(404, rpcCodes.sessionNotFound, 'Session not found')
    return
  }
  if (isInitialize(exchange)) {
    exchange.fail(400, rpcCodes.invalidRequest, 'Invalid Request: the session is already initialized')
    return
  }
  const transport = session.transport
  if (exchange.kind !== 'request') {
    transport.dispatchOther(exchange.message, exchange)
    exchange.answerEmpty(202)
    return
  }
  const message = exchange.message as RequestMessage
  if (transport.exchanges.has(message.id)) {
    const why = `Invalid Request: request id ${quotedId(message.id)} is already in use`
    exchange.fail(400, rpcCodes.invalidRequest, why, undefined, message.id)
    return
  }
  exchange.endpoint.lifecycle.exchangeStarted()
  transport.dispatchRequest(message, exchange)
}

/** Initialize without a session: a new one, unless the client or the server is at its cap (503). */
function openSession(exchange: PostedExchange): void {
  const { endpoint } = exchange
  const clientKey = endpoint.sessions.clientKey(exchange.request, exchange.authInfo, exchange.principal)
  const refusal = endpoint.sessions.refusal(clientKey)
  if (refusal !== undefined) {
    exchange.fail(503, rpcCodes.transportError, refusal.message, [
      'retry-after',
      String(refusal.retryAfterSeconds),
    ])
    return
  }
  endpoint.lifecycle.exchangeStarted()
  endpoint.sessions.create(clientKey, exchange.principal).then(
    (session) => session.transport.dispatchRequest(exchange.message as RequestMessage, exchange),
    (error: unknown) => {
      endpoint.lifecycle.exchangeEnded()
      exchange.internalError(error)
    },
  )
}
