// One MCP 2026-07-28 request over Streamable HTTP: no session, no event ids, no resumability.
// The answer is one JSON body when nothing has to reach the client first, or an SSE stream as
// soon as a request-scoped notification (progress, a log message, a subscription event) must go
// out, or the call runs long enough to need keep-alives. The client closing the response is the
// cancellation (spec 2026-07-28 streamable-http "Cancellation").

import { rpcCodes } from '../errors.js'
import type { RpcNotification, RpcRequest } from '../protocol/rpc.js'
import { headerValue } from './answers.js'
import type { PostedExchange } from './exchange.js'
import type { ModernExchange } from './lifecycle.js'
import { sseHeaders } from './sessions/event-log.js'

/** Serves a 2026-07-28 request, counted in flight already (post.ts); the lifecycle tracks it until it ends. */
export function serveModern(exchange: PostedExchange): void {
  const { request, response, headers, negotiation, endpoint } = exchange
  const message = exchange.message as RpcRequest
  const { core, lifecycle } = endpoint
  const controller = new AbortController()
  let streaming = false
  let ended = false
  const tracked: ModernExchange = {
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
  lifecycle.modernExchanges.add(tracked)
  const end = () => {
    if (ended) return
    ended = true
    lifecycle.modernExchanges.delete(tracked)
    lifecycle.exchangeEnded()
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

  const header = (name: string): string | undefined => headerValue(request.headers[name])

  if (message.method === 'subscriptions/listen' && !negotiation.sse) {
    // A subscription is a stream; a JSON-only client cannot have one.
    const why = 'Not Acceptable: subscriptions/listen needs Accept: text/event-stream'
    exchange.fail(406, rpcCodes.invalidRequest, why, undefined, message.id)
    end()
    return
  }

  core.modern
    .handle(message, { header, authInfo: exchange.authInfo, signal: controller.signal, notify })
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
      exchange.fail(500, rpcCodes.internalError, 'Internal error', undefined, message.id)
    })
    .finally(end)
}
