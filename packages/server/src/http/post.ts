// POST to the MCP endpoint: media types (415, 406), the body (guard/body-reader.ts), JSON and
// JSON-RPC validity (400), the protocol version header, then the message goes to its session,
// to a new session (initialize), or to a stateless exchange.

import type { IncomingMessage, ServerResponse } from 'node:http'
import { rpcCodes } from '../errors.js'
import { classify, echoableId, type MessageKind, type RequestMessage } from '../protocol/message.js'
import { quotedId, type RpcMessage, type RpcRequest } from '../protocol/rpc.js'
import { isLegacyVersion, isModernVersion, legacyVersions } from '../protocol/versions.js'
import { claimsModern } from '../server/protocol-server.js'
import { headerValue, refuse, sendError, storeUnreachable } from './answers.js'
import { negotiate } from './content-negotiation.js'
import type { HttpEndpoint } from './endpoint.js'
import { type Admission, refuseVerdict } from './guard/admission.js'
import { readBody } from './guard/body-reader.js'
import type { SessionEntry } from './sessions/table.js'

export function handlePost(
  endpoint: HttpEndpoint,
  request: IncomingMessage,
  response: ServerResponse,
  admission: Admission,
): void {
  const headers = admission.headers
  const contentType = request.headers['content-type']
  if (contentType === undefined || !/^application\/json\s*(;|$)/i.test(contentType)) {
    refuse(
      request,
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
    refuse(
      request,
      response,
      406,
      rpcCodes.transportError,
      'Not Acceptable: accept application/json or text/event-stream',
      headers,
    )
    return
  }
  readBody(request, response, headers, endpoint.bodyLimits, (body) => {
    let parsed: unknown
    try {
      parsed = JSON.parse(body.toString('utf8'))
    } catch {
      sendError(response, 400, rpcCodes.parseError, 'Parse error: the body is not valid JSON', headers)
      return
    }
    try {
      handleMessage(endpoint, parsed, request, response, admission)
    } catch (error) {
      endpoint.report(error)
      sendError(response, 500, rpcCodes.internalError, 'Internal error', headers)
    }
  })
}

function handleMessage(
  endpoint: HttpEndpoint,
  parsed: unknown,
  request: IncomingMessage,
  response: ServerResponse,
  admission: Admission,
): void {
  const headers = admission.headers
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
    sendError(
      response,
      400,
      rpcCodes.invalidRequest,
      'Invalid Request: not a valid JSON-RPC 2.0 message for MCP',
      headers,
      echoableId(parsed),
    )
    return
  }
  const message = parsed as RpcMessage
  const versionHeader = headerValue(request.headers['mcp-protocol-version'])
  // 2026-07-28: a request claims the per-request era in its _meta (or, without a claim, by
  // naming a modern version in the header: then it is refused for the missing envelope).
  const modern =
    kind !== 'response' &&
    (claimsModern((message as { params?: unknown }).params) ||
      (versionHeader !== undefined && isModernVersion(versionHeader)))
  if (kind === 'request') {
    const refusal = endpoint.scopeRefusal(message as RpcRequest, admission)
    if (refusal !== undefined) {
      refuseVerdict(request, response, refusal, headers)
      return
    }
  }
  if (endpoint.closing && kind === 'request') {
    sendError(response, 503, rpcCodes.transportError, 'Service Unavailable: the server is shutting down', [
      ...headers,
      'retry-after',
      '1',
    ])
    return
  }
  if (modern) {
    if (kind === 'notification') {
      // 2026-07-28 defines no client notifications over HTTP (closing a stream cancels).
      response.writeHead(202, headers as string[])
      response.end()
      return
    }
    endpoint.exchangeStarted()
    endpoint.serveModern(message as RpcRequest, request, response, admission)
    return
  }
  const isInitialize = kind === 'request' && (message as RequestMessage).method === 'initialize'
  if (!isInitialize && versionHeader !== undefined && !isLegacyVersion(versionHeader)) {
    sendError(
      response,
      400,
      rpcCodes.transportError,
      `Bad Request: unsupported MCP-Protocol-Version ${JSON.stringify(versionHeader.slice(0, 40))} (supported: 2026-07-28, ${legacyVersions.join(', ')})`,
      headers,
    )
    return
  }
  if (endpoint.stateless) {
    serveStateless(endpoint, kind, message, request, response, admission)
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
    initializeSession(endpoint, message as RequestMessage, request, response, admission)
    return
  }
  const found = endpoint.session(sessionId, admission)
  if (found instanceof Promise) {
    found.then(
      (session) => toSession(endpoint, session, kind, message, isInitialize, request, response, admission),
      (error: unknown) => storeUnreachable(endpoint, response, headers, error),
    )
    return
  }
  toSession(endpoint, found, kind, message, isInitialize, request, response, admission)
}

/** Hands a message to its session (404 when there is none). */
function toSession(
  endpoint: HttpEndpoint,
  session: SessionEntry | undefined,
  kind: MessageKind,
  message: RpcMessage,
  isInitialize: boolean,
  request: IncomingMessage,
  response: ServerResponse,
  admission: Admission,
): void {
  const headers = admission.headers
  if (session === undefined) {
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
    const id = (message as RequestMessage).id
    if (transport.exchanges.has(id)) {
      sendError(
        response,
        400,
        rpcCodes.invalidRequest,
        `Invalid Request: request id ${quotedId(id)} is already in use`,
        headers,
        id,
      )
      return
    }
    endpoint.exchangeStarted()
    transport.dispatchRequest(
      message as RequestMessage,
      response,
      negotiate(request.headers.accept),
      headers,
      request.headers,
      admission.authInfo,
    )
    return
  }
  transport.dispatchOther(message, request.headers, admission.authInfo)
  response.writeHead(202, headers as string[])
  response.end()
}

function serveStateless(
  endpoint: HttpEndpoint,
  kind: MessageKind,
  message: RpcMessage,
  request: IncomingMessage,
  response: ServerResponse,
  admission: Admission,
): void {
  if (kind !== 'request') {
    response.writeHead(202, admission.headers as string[])
    response.end()
    return
  }
  endpoint.exchangeStarted()
  endpoint.statelessExchanges
    .serve(message as RequestMessage, request, response, admission)
    .catch((error: unknown) => {
      endpoint.hub.exchangeEnded()
      endpoint.report(error)
      sendError(response, 500, rpcCodes.internalError, 'Internal error', admission.headers)
    })
}

function initializeSession(
  endpoint: HttpEndpoint,
  message: RequestMessage,
  request: IncomingMessage,
  response: ServerResponse,
  admission: Admission,
): void {
  const clientKey = endpoint.clientKey(request, admission)
  const refusal = endpoint.sessions.refusal(clientKey)
  if (refusal !== undefined) {
    sendError(response, 503, rpcCodes.transportError, refusal.message, [
      ...admission.headers,
      'retry-after',
      String(refusal.retryAfterSeconds),
    ])
    return
  }
  endpoint.exchangeStarted()
  endpoint.openSession(clientKey, admission.clientIdentity).then(
    (session) =>
      session.transport.dispatchRequest(
        message,
        response,
        negotiate(request.headers.accept),
        admission.headers,
        request.headers,
        admission.authInfo,
      ),
    (error: unknown) => {
      endpoint.hub.exchangeEnded()
      endpoint.report(error)
      sendError(response, 500, rpcCodes.internalError, 'Internal error', admission.headers)
    },
  )
}
