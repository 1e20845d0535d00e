// What the request pipeline of one Streamable HTTP endpoint shares: built once by
// createHttpHandler (handler.ts) and handed to the POST, GET and DELETE handlers.

import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Refusal } from '../auth/oauth-resource.js'
import type { RpcRequest } from '../protocol/rpc.js'
import type { Admission } from './guard/admission.js'
import type { BodyLimits } from './guard/body-reader.js'
import type { SessionHub } from './sessions/session.js'
import type { SessionEntry, SessionTable } from './sessions/table.js'
import type { StatelessExchanges } from './stateless-exchange.js'

export interface HttpEndpoint {
  /** No sessions: every POST is served on its own. */
  readonly stateless: boolean
  /** True once close() began: new requests get 503. */
  readonly closing: boolean
  readonly bodyLimits: BodyLimits
  readonly sessions: SessionTable
  readonly hub: SessionHub
  readonly statelessExchanges: StatelessExchanges
  /** Who the client of a request is, for the per-client session cap. */
  clientKey(request: IncomingMessage, admission: Admission): string
  /** Opens a session for `clientKey`; it is in the table before this resolves. */
  openSession(clientKey: string, owner: string | undefined): Promise<SessionEntry>
  /**
   * The live session `id`, when the request's client may use it (the identity that opened it).
   * A promise when sessions are shared by several instances (the store is asked every time).
   */
  session(id: string, admission: Admission): SessionEntry | undefined | Promise<SessionEntry | undefined>
  /** Ends a session (DELETE), on every instance when shared. */
  endSession(entry: SessionEntry): Promise<void>
  /** Serves a 2026-07-28 request (stateless, per request: modern.ts); counted already. */
  serveModern(
    message: RpcRequest,
    request: IncomingMessage,
    response: ServerResponse,
    admission: Admission,
  ): void
  /** The 403 for a call the caller's OAuth token lacks the scopes for (tools' `scopes`). */
  scopeRefusal(message: RpcRequest, admission: Admission): Refusal | undefined
  /** Counts a request handed to the protocol side (the hub's exchangeEnded counts it back). */
  exchangeStarted(): void
  /** Diagnostics for the operator (never sent to clients). */
  report(error: unknown): void
}
