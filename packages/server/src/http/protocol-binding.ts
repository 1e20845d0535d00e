// The seam between HTTP mechanics and what answers a message. Everything else in the HTTP
// handler (routing, guards, bodies, the session table, SSE framing, keep-alives) deals only with
// HttpSessionTransport; this module is the one place that puts a protocol server behind one.
// A session's protocol server lives as long as its transport: closing the transport closes it.

import type { ServerCore } from '../server/core.js'
import { ProtocolServer } from '../server/protocol-server.js'
import type { HttpSessionTransport } from './sessions/session.js'

/**
 * Connects a fresh protocol server (never shared between clients) to `transport`; `onClosed`
 * runs when it closes, whoever closed it. Resolves once it is listening.
 */
export type ConnectProtocol = (transport: HttpSessionTransport, onClosed?: () => void) => Promise<void>

export function createProtocolBinding(core: ServerCore): ConnectProtocol {
  return async (transport, onClosed) => {
    const server = new ProtocolServer(core, onClosed)
    await server.connect(transport)
  }
}
