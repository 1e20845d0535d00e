// One request to the MCP endpoint and its answer, as it goes through the stages after admission
// (routes.ts → post.ts or get-delete.ts → modern.ts, stateless-exchange.ts or a session). Made
// once per admitted request, it carries whatever a stage needs — the endpoint, the request and
// its response, the CORS headers, the caller, and once a POST's body is read its message, the
// message's kind and its era — so no stage takes a train of parameters or calls back into the
// handler. Every error a stage answers goes through fail() (answers.ts's sendError).

import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Era } from '@mcp-kit/core'
import type { AuthInfo } from '../context.js'
import { rpcCodes } from '../errors.js'
import type { MessageKind } from '../protocol/message.js'
import type { RequestId, RpcMessage } from '../protocol/rpc.js'
import { headerValue, refuse, sendError } from './answers.js'
import { type Negotiation, negotiate } from './content-negotiation.js'
import type { HttpEndpoint } from './endpoint.js'
import type { Admission } from './guard/admission.js'

/** An exchange whose POSTed message has been read and classified (post.ts's readMessage). */
export type PostedExchange = Exchange & { message: RpcMessage; kind: MessageKind; era: Era }

export class Exchange {
  readonly endpoint: HttpEndpoint
  readonly request: IncomingMessage
  readonly response: ServerResponse
  /** Extra headers (CORS) every answer to this request gets. */
  readonly headers: readonly string[]
  /** The verified token, when the server requires one. */
  readonly authInfo: AuthInfo | undefined
  /** Who the client is (auth/principal.ts) when authentication tells clients apart; undefined for a shared token. */
  readonly principal: string | undefined
  /** A POST's message, once read. */
  message: RpcMessage | undefined = undefined
  kind: MessageKind | undefined = undefined
  /** The message's era, classified once when it is read (protocol/era.ts). */
  era: Era | undefined = undefined
  #negotiation: Negotiation | undefined = undefined

  constructor(
    endpoint: HttpEndpoint,
    request: IncomingMessage,
    response: ServerResponse,
    admission: Admission,
  ) {
    this.endpoint = endpoint
    this.request = request
    this.response = response
    this.headers = admission.headers
    this.authInfo = admission.authInfo
    this.principal = admission.clientIdentity
  }

  /** What the Accept header allows the answer to be (JSON, SSE) and which the client prefers. */
  get negotiation(): Negotiation {
    this.#negotiation ??= negotiate(this.request.headers.accept)
    return this.#negotiation
  }

  /** The MCP-Protocol-Version header. */
  get versionHeader(): string | undefined {
    return headerValue(this.request.headers['mcp-protocol-version'])
  }

  /** The Mcp-Session-Id header. */
  get sessionId(): string | undefined {
    return headerValue(this.request.headers['mcp-session-id'])
  }

  /** Answers `status` with a JSON-RPC error body; `extraHeaders` go after the CORS headers. */
  fail(
    status: number,
    code: number,
    message: string,
    extraHeaders?: readonly string[],
    id: RequestId | null = null,
  ): void {
    const headers = extraHeaders === undefined ? this.headers : [...this.headers, ...extraHeaders]
    sendError(this.response, status, code, message, headers, id)
  }

  /** fail(), and the connection closes once the answer is out, the rest of the body unread. */
  refuse(status: number, code: number, message: string, extraHeaders?: readonly string[]): void {
    const headers = extraHeaders === undefined ? this.headers : [...this.headers, ...extraHeaders]
    refuse(this.request, this.response, status, code, message, headers)
  }

  /** An empty answer: 202 for a notification or response taken, 200 for a session ended. */
  answerEmpty(status: 200 | 202): void {
    this.response.writeHead(status, this.headers as string[])
    this.response.end()
  }

  /** The 500 for what went wrong inside the server; the error goes to the operator only. */
  internalError(error: unknown): void {
    this.endpoint.report(error)
    this.fail(500, rpcCodes.internalError, 'Internal error')
  }

  /** The 503 for a request whose session the store could not be asked about (it is away). */
  storeUnreachable(error: unknown): void {
    this.endpoint.report(error)
    this.fail(503, rpcCodes.transportError, 'Service Unavailable: the session store cannot be reached', [
      'retry-after',
      '1',
    ])
  }
}
