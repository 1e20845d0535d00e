// GET and DELETE on the MCP endpoint: the requests that only name a session. GET opens the
// session's standalone SSE stream or resumes one from Last-Event-ID; DELETE ends the session.

import type { IncomingMessage, ServerResponse } from 'node:http'
import { rpcCodes } from '../errors.js'
import { isLegacyVersion } from '../protocol/versions.js'
import { headerValue, refuse, sendError, storeUnreachable } from './answers.js'
import { negotiate } from './content-negotiation.js'
import type { HttpEndpoint } from './endpoint.js'
import type { Admission } from './guard/admission.js'
import type { SessionEntry } from './sessions/table.js'

/** A stateless server has neither GET streams nor sessions to delete: 405, naming what is missing. */
function refusedWhenStateless(
  endpoint: HttpEndpoint,
  request: IncomingMessage,
  response: ServerResponse,
  headers: Admission['headers'],
  missing: string,
): boolean {
  if (!endpoint.stateless) return false
  refuse(
    request,
    response,
    405,
    rpcCodes.transportError,
    `Method Not Allowed: this server is stateless (${missing})`,
    [...headers, 'allow', 'POST, OPTIONS'],
  )
  return true
}

export function handleGet(
  endpoint: HttpEndpoint,
  request: IncomingMessage,
  response: ServerResponse,
  admission: Admission,
): void {
  const headers = admission.headers
  if (refusedWhenStateless(endpoint, request, response, headers, 'no GET stream')) return
  if (!negotiate(request.headers.accept).sse) {
    refuse(
      request,
      response,
      406,
      rpcCodes.transportError,
      'Not Acceptable: GET needs Accept: text/event-stream',
      headers,
    )
    return
  }
  withSession(endpoint, request, response, admission, (session) => {
    const version = headerValue(request.headers['mcp-protocol-version'])
    if (version !== undefined && !isLegacyVersion(version)) {
      sendError(
        response,
        400,
        rpcCodes.transportError,
        'Bad Request: unsupported MCP-Protocol-Version',
        headers,
      )
      return
    }
    if (endpoint.closing) {
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
    const unknown = () =>
      sendError(
        response,
        400,
        rpcCodes.transportError,
        'Bad Request: unknown Last-Event-ID (the events may have expired)',
        headers,
      )
    const opened = session.transport.openSharedStream(response, headers, lastEventId)
    opened.then(
      (known) => {
        if (!known) unknown()
      },
      (error: unknown) => storeUnreachable(endpoint, response, headers, error),
    )
  })
}

export function handleDelete(
  endpoint: HttpEndpoint,
  request: IncomingMessage,
  response: ServerResponse,
  admission: Admission,
): void {
  const headers = admission.headers
  if (refusedWhenStateless(endpoint, request, response, headers, 'no sessions')) return
  withSession(endpoint, request, response, admission, (session) => {
    endpoint.endSession(session).then(
      () => {
        response.writeHead(200, headers as string[])
        response.end()
      },
      (error: unknown) => storeUnreachable(endpoint, response, headers, error),
    )
  })
}

/** Runs `then` with the live session a GET or DELETE names, after answering 400 (no id) or 404 if none. */
function withSession(
  endpoint: HttpEndpoint,
  request: IncomingMessage,
  response: ServerResponse,
  admission: Admission,
  then: (session: SessionEntry) => void,
): void {
  const headers = admission.headers
  const sessionId = headerValue(request.headers['mcp-session-id'])
  if (sessionId === undefined) {
    sendError(
      response,
      400,
      rpcCodes.transportError,
      'Bad Request: Mcp-Session-Id header is required',
      headers,
    )
    return
  }
  const found = (session: SessionEntry | undefined) => {
    if (session === undefined)
      sendError(response, 404, rpcCodes.sessionNotFound, 'Session not found', headers)
    else then(session)
  }
  const session = endpoint.session(sessionId, admission)
  if (session instanceof Promise)
    session.then(found, (error: unknown) => storeUnreachable(endpoint, response, headers, error))
  else found(session)
}
