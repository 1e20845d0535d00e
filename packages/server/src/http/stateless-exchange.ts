// Stateless mode: each POSTed request gets its own transport and protocol server, which close
// when its answer is done (or its connection drops). Shutdown can end those still running.

import type { IncomingMessage, ServerResponse } from 'node:http'
import type { RequestMessage } from '../protocol/message.js'
import { defaultLegacyVersion } from '../protocol/versions.js'
import { headerValue } from './answers.js'
import { negotiate } from './content-negotiation.js'
import type { Admission } from './guard/admission.js'
import type { ConnectProtocol } from './protocol-binding.js'
import { HttpSessionTransport, type SessionHub } from './sessions/session.js'

export interface StatelessExchanges {
  /** Serves one request; its answer goes to `response`. */
  serve(
    message: RequestMessage,
    request: IncomingMessage,
    response: ServerResponse,
    admission: Admission,
  ): Promise<void>
  /** Ends every exchange still running (their protocol servers close). */
  closeAll(): void
}

export function createStatelessExchanges(
  hub: SessionHub,
  connectProtocol: ConnectProtocol,
  report: (error: unknown) => void,
): StatelessExchanges {
  const running = new Set<HttpSessionTransport>()
  return {
    async serve(message, request, response, admission) {
      const version = headerValue(request.headers['mcp-protocol-version']) ?? defaultLegacyVersion
      const transport = new HttpSessionTransport(undefined, version, hub)
      transport.onerror = report
      await connectProtocol(transport)
      running.add(transport)
      response.once('close', () => {
        running.delete(transport)
        transport.close().catch(report)
      })
      transport.dispatchRequest(
        message,
        response,
        negotiate(request.headers.accept),
        admission.headers,
        request.headers,
        admission.authInfo,
      )
    },
    closeAll() {
      for (const transport of running) transport.close().catch(report)
      running.clear()
    },
  }
}
