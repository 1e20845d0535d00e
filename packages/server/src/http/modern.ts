// One MCP 2026-07-28 request over Streamable HTTP: no session, no event ids, no resumability.
// The answer is one JSON body when nothing has to reach the client first, or an SSE stream as
// soon as a request-scoped notification (progress, a log message, a subscription event) must go
// out, or the call runs long enough to need keep-alives. The client closing the response is the
// cancellation (spec 2026-07-28 streamable-http "Cancellation").

import type { IncomingMessage, ServerResponse } from 'node:http'
import type { AuthInfo } from '../context.js'
import type { RpcNotification, RpcRequest } from '../protocol/rpc.js'
import type { ServerCore } from '../server/core.js'
import type { Negotiation } from './content-negotiation.js'
import { sseHeaders } from './sessions/event-log.js'

/** What the handler tracks of an open 2026-07-28 exchange (for keep-alives and shutdown). */
export interface ModernExchange {
  startedAt: number
  /** Switches to SSE (if the client accepts it) so keep-alive comments can flow. */
  upgrade(): void
  /** The SSE response, once the exchange streams. */
  readonly stream: ServerResponse | undefined
  /** Ends the exchange now (shutdown after the grace period): the handler is cancelled. */
  close(): void
}

export interface ModernServeOptions {
  core: ServerCore
  request: IncomingMessage
  response: ServerResponse
  negotiation: Negotiation
  /** Extra headers (CORS) for the answer. */
  headers: readonly string[]
  authInfo: AuthInfo | undefined
  exchanges: Set<ModernExchange>
  /** Called once when the exchange is over (answered or abandoned). */
  onEnd(): void
}

export function serveModern(message: RpcRequest, options: ModernServeOptions): void {
  const { core, request, response, negotiation, headers } = options
  const controller = new AbortController()
  let streaming = false
  let ended = false
  const exchange: ModernExchange = {
    startedAt: Date.now(),
    upgrade: () => startStream(),
    get stream() {
      return streaming ? response : undefined
    },
    close() {
      controller.abort()
      if (streaming) response.end()
      else response.destroy()
    },
  }
  options.exchanges.add(exchange)
  const end = () => {
    if (ended) return
    ended = true
    options.exchanges.delete(exchange)
    options.onEnd()
  }
  response.once('close', () => {
    if (!response.writableFinished) controller.abort()
    end()
  })

  function startStream(): boolean {
    if (streaming) return true
    if (!negotiation.sse || response.headersSent || response.destroyed) return false
    streaming = true
    response.writeHead(200, headers.length === 0 ? sseHeaders : [...sseHeaders, ...headers])
    response.flushHeaders()
    return true
  }

  const notify = async (notification: RpcNotification): Promise<void> => {
    if (controller.signal.aborted || response.destroyed) return
    // A client that only takes JSON cannot get request-scoped notifications.
    if (!startStream()) return
    response.write(`data: ${JSON.stringify(notification)}\n\n`)
  }

  const header = (name: string): string | undefined => {
    const value = request.headers[name]
    return Array.isArray(value) ? value[0] : value
  }

  if (message.method === 'subscriptions/listen' && !negotiation.sse) {
    // A subscription is a stream; a JSON-only client cannot have one.
    response.writeHead(406, ['content-type', 'application/json', ...headers])
    response.end(
      JSON.stringify({
        jsonrpc: '2.0',
        id: message.id,
        error: {
          code: -32600,
          message: 'Not Acceptable: subscriptions/listen needs Accept: text/event-stream',
        },
      }),
    )
    end()
    return
  }

  core.modern
    .handle(message, { header, authInfo: options.authInfo, signal: controller.signal, notify })
    .then(({ response: answer, httpStatus }) => {
      if (response.destroyed || controller.signal.aborted) return
      const text = JSON.stringify(answer)
      if (streaming) {
        response.end(`data: ${text}\n\n`)
      } else if (negotiation.json && !negotiation.prefersSse) {
        response.writeHead(httpStatus, [
          'content-type',
          'application/json',
          'content-length',
          String(Buffer.byteLength(text)),
          ...headers,
        ])
        response.end(text)
      } else {
        // An error status cannot ride on an SSE stream; a success can.
        if (httpStatus !== 200) {
          response.writeHead(httpStatus, ['content-type', 'application/json', ...headers])
          response.end(text)
        } else {
          startStream()
          response.end(`data: ${text}\n\n`)
        }
      }
    })
    .catch((error: unknown) => {
      core.report?.(error as Error)
      if (!response.headersSent) {
        response.writeHead(500, ['content-type', 'application/json', ...headers])
        response.end(
          JSON.stringify({
            jsonrpc: '2.0',
            id: message.id,
            error: { code: -32603, message: 'Internal error' },
          }),
        )
      } else response.end()
    })
    .finally(end)
}
