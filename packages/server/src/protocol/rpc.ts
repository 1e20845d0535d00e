// JSON-RPC shapes the protocol layer reads and writes, and RpcFailure: an error that becomes a
// JSON-RPC error response as it is (code, one-line message, data), with the HTTP status the
// 2026-07-28 transport wants for it.

import { rpcCodes } from '../errors.js'

export type RequestId = string | number

export interface RpcRequest {
  jsonrpc: '2.0'
  id: RequestId
  method: string
  params?: Record<string, unknown>
}

export interface RpcNotification {
  jsonrpc: '2.0'
  method: string
  params?: Record<string, unknown>
}

export interface RpcResultResponse {
  jsonrpc: '2.0'
  id: RequestId
  result: Record<string, unknown>
}

export interface RpcErrorResponse {
  jsonrpc: '2.0'
  id: RequestId | null
  error: { code: number; message: string; data?: unknown }
}

export type RpcResponse = RpcResultResponse | RpcErrorResponse
export type RpcMessage = RpcRequest | RpcNotification | RpcResponse

export class RpcFailure extends Error {
  override readonly name = 'RpcFailure'
  readonly code: number
  readonly data: unknown
  /** The HTTP status of the answer when it is the whole answer (2026-07-28 transport rules). */
  readonly httpStatus: number

  constructor(code: number, message: string, options: { data?: unknown; httpStatus?: number } = {}) {
    super(message)
    this.code = code
    this.data = options.data
    this.httpStatus = options.httpStatus ?? 200
  }
}

export function invalidParams(message: string, httpStatus = 200): RpcFailure {
  return new RpcFailure(rpcCodes.invalidParams, `Invalid params: ${message}`, { httpStatus })
}

export function methodNotFound(method: string, httpStatus = 200): RpcFailure {
  return new RpcFailure(rpcCodes.methodNotFound, `Method not found: ${printable(method)}`, { httpStatus })
}

export function errorResponse(id: RequestId | null, failure: RpcFailure): RpcErrorResponse {
  const error: RpcErrorResponse['error'] = { code: failure.code, message: failure.message }
  if (failure.data !== undefined) error.data = failure.data
  return { jsonrpc: '2.0', id, error }
}

/**
 * A short, single-line rendering of a client-provided string for an error message: the client
 * may send megabytes, and error messages and traces must not echo them.
 */
export function printable(value: string, limit = 80): string {
  const text = JSON.stringify(value.length > limit ? `${value.slice(0, limit)}…` : value)
  return text.slice(1, -1)
}

/** A request id for an error message: a number as it is, a string quoted and shortened. */
export function quotedId(id: RequestId): string {
  return typeof id === 'string' ? `"${printable(id)}"` : String(id)
}
