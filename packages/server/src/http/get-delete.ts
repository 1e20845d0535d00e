// GET and DELETE on the MCP endpoint: the requests that only name a 2025 session. GET opens the
// session's standalone SSE stream or resumes one from Last-Event-ID; DELETE ends the session.
// A stateless server has neither (405); a missing session id is 400, an unknown session 404.

import { isLegacyVersion } from '@mcp-kit/core'
import { rpcCodes } from '../errors.js'
import { headerValue } from './answers.js'
import type { Exchange } from './exchange.js'
import type { SessionEntry } from './sessions/table.js'

/** A stateless server has neither GET streams nor sessions to delete: 405, naming what is missing. */
function refusedWhenStateless(exchange: Exchange, missing: string): boolean {
  if (!exchange.endpoint.stateless) return false
  exchange.refuse(405, rpcCodes.transportError, `Method Not Allowed: this server is stateless (${missing})`, [
    'allow',
    'POST, OPTIONS',
  ])
  return true
}

export function handleGet(exchange: Exchange): void {
  if (refusedWhenStateless(exchange, 'no GET stream')) return
  if (!exchange.negotiation.sse) {
    exchange.refuse(406, rpcCodes.transportError, 'Not Acceptable: GET needs Accept: text/event-stream')
    return
  }
  withSession(exchange, (session) => {
    const version = exchange.versionHeader
    if (version !== undefined && !isLegacyVersion(version)) {
      exchange.fail(400, rpcCodes.transportError, 'Bad Request: unsupported MCP-Protocol-Version')
      return
    }
    if (exchange.endpoint.lifecycle.closing) {
      exchange.fail(503, rpcCodes.transportError, 'Service Unavailable: the server is shutting down')
      return
    }
    const lastEventId = headerValue(exchange.request.headers['last-event-id'])
    session.transport.lastActivity = Date.now()
    session.transport.openSharedStream(exchange.response, exchange.headers, lastEventId).then(
      (known) => {
        if (known) return
        const why = 'Bad Request: unknown Last-Event-ID (the events may have expired)'
        exchange.fail(400, rpcCodes.transportError, why)
      },
      (error: unknown) => exchange.storeUnreachable(error),
    )
  })
}

export function handleDelete(exchange: Exchange): void {
  if (refusedWhenStateless(exchange, 'no sessions')) return
  withSession(exchange, (session) => {
    exchange.endpoint.sessions.delete(session).then(
      () => exchange.answerEmpty(200),
      (error: unknown) => exchange.storeUnreachable(error),
    )
  })
}

/** Runs `then` with the live session a GET or DELETE names, after answering 400 (no id) or 404 if none. */
function withSession(exchange: Exchange, then: (session: SessionEntry) => void): void {
  const sessionId = exchange.sessionId
  if (sessionId === undefined) {
    exchange.fail(400, rpcCodes.transportError, 'Bad Request: Mcp-Session-Id header is required')
    return
  }
  const found = (session: SessionEntry | undefined) => {
    if (session === undefined) exchange.fail(404, rpcCodes.sessionNotFound, 'Session not found')
    else then(session)
  }
  const session = exchange.endpoint.sessions.lookup(sessionId, exchange.principal)
  if (session instanceof Promise) session.then(found, (error: unknown) => exchange.storeUnreachable(error))
  else found(session)
}
