// Stateless mode: each POSTed 2025 request gets its own transport and protocol server, which
// close when its answer is done (or its connection drops); the lifecycle holds those still
// running, so that shutdown can end them. Notifications and responses are taken (202) and dropped.

import { defaultLegacyVersion } from '@mcp-kit/core'
import { rpcCodes } from '../errors.js'
import type { RequestMessage } from '../protocol/message.js'
import type { PostedExchange } from './exchange.js'
import { HttpSessionTransport } from './sessions/session.js'

export function serveStateless(exchange: PostedExchange): void {
  if (exchange.kind !== 'request') {
    exchange.answerEmpty(202)
    return
  }
  const { endpoint } = exchange
  endpoint.lifecycle.exchangeStarted()
  serve(exchange).catch((error: unknown) => {
    endpoint.lifecycle.exchangeEnded()
    endpoint.report(error)
    exchange.fail(500, rpcCodes.internalError, 'Internal error')
  })
}

async function serve(exchange: PostedExchange): Promise<void> {
  const { endpoint, response } = exchange
  const running = endpoint.lifecycle.statelessTransports
  const transport = new HttpSessionTransport(
    undefined,
    exchange.versionHeader ?? defaultLegacyVersion,
    endpoint.hub,
  )
  transport.onerror = endpoint.report
  await endpoint.connect(transport)
  running.add(transport)
  response.once('close', () => {
    running.delete(transport)
    transport.close().catch(endpoint.report)
  })
  transport.dispatchRequest(exchange.message as RequestMessage, exchange)
}
