// The standard headers of a 2026-07-28 request over Streamable HTTP (SEP-2243): `Mcp-Method`
// must be the body's method, and `Mcp-Name` the body's name-shaped field — a tool or prompt name,
// a resource URI, or (the tasks extension, SEP-2663) a task id — so that intermediaries can route
// on them. A missing or disagreeing header is -32020 HeaderMismatch with HTTP 400.

import { decodeHeaderValue, mcpNameField, rpcCodes } from '@mcp-kit/core'
import { printable, RpcFailure, type RpcRequest } from './rpc.js'

export const headerMismatch = (message: string) =>
  new RpcFailure(rpcCodes.headerMismatch, `Header mismatch: ${message}`, { httpStatus: 400 })

export function checkStandardHeaders(
  request: RpcRequest,
  params: Record<string, unknown>,
  header: (name: string) => string | undefined,
): void {
  const method = header('mcp-method')
  if (method === undefined) throw headerMismatch('the Mcp-Method header is required')
  if (method !== request.method) {
    throw headerMismatch(
      `Mcp-Method '${printable(method)}' does not match the body's method '${printable(request.method)}'`,
    )
  }
  const field = mcpNameField(request.method)
  if (field === undefined) return
  const raw = header('mcp-name')
  if (raw === undefined) throw headerMismatch(`the Mcp-Name header is required for ${request.method}`)
  const name = decodeHeaderValue(raw)
  if (name === undefined) throw headerMismatch('the Mcp-Name header value is not validly encoded')
  if (typeof params[field] === 'string' && name !== params[field]) {
    throw headerMismatch(`Mcp-Name does not match the body's ${field}`)
  }
}
