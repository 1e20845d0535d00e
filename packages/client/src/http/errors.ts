// What the Streamable HTTP transport reports when HTTP goes wrong: an answer that is no JSON-RPC message,
// a JSON-RPC error with an error status, a token refused after a login, no server, a broken or bad response.

import { isRecord } from '@mcp-kit/core'
import type { JSONRPCMessage } from '@modelcontextprotocol/client'
import { ClientError } from '../errors.js'
import { messageTooLarge } from '../protocol/message-size.js'
import { MessageTooLarge, readBounded } from './sse-reader.js'

const errorBodyLimit = 64 * 1024

/** An HTTP answer that is not a JSON-RPC message: its status decides what the client does. */
export class HttpStatusError extends Error {
  override readonly name = 'HttpStatusError'
  readonly status: number
  readonly code: number
  readonly body: string
  readonly headers: Headers
  constructor(status: number, body: string, headers: Headers) {
    super(`HTTP ${status}${body ? `: ${body.slice(0, 200)}` : ''}`)
    this.status = status
    this.code = status
    this.body = body
    this.headers = headers
  }
}

function isJsonRpcError(value: unknown): value is { id: string | number; error: unknown } {
  return isRecord(value) && value.jsonrpc === '2.0' && isRecord(value.error) && 'id' in value
}

/**
 * Reads an HTTP error answer to the message with `id`: resolves with the JSON-RPC error it
 * carries, else throws (auth_required when refused again after a login, else HttpStatusError).
 */
export async function errorAnswer(
  response: Response,
  id: unknown,
  url: URL,
  afterLogin: boolean,
): Promise<JSONRPCMessage> {
  const text = await readBounded(response.body, errorBodyLimit).catch(() => '')
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    parsed = undefined
  }
  // A JSON-RPC error answer (2026: 400/404 with -32020, -32021, -32022, -32601) is the answer.
  if (isJsonRpcError(parsed) && parsed.id === id && id !== undefined) {
    return parsed as unknown as JSONRPCMessage
  }
  if ((response.status === 401 || response.status === 403) && afterLogin) {
    // Refused again right after a login or refresh: another login would not help.
    const said = isJsonRpcError(parsed) ? (parsed.error as { message?: unknown }).message : undefined
    const reason = typeof said === 'string' ? said : text.slice(0, 200)
    throw new ClientError(
      'auth_required',
      `${url.href} refused the token its authorization server issued (HTTP ${response.status}${reason ? `: ${reason}` : ''})`,
      { details: { status: response.status } },
    )
  }
  throw new HttpStatusError(response.status, text, response.headers)
}

/** A server that cannot be reached is connect_failed, as at connect time. */
export function unreachable(url: URL, error: unknown): ClientError {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause
  const reason =
    cause?.code === 'ECONNREFUSED' ? 'connection refused' : (cause?.message ?? (error as Error).message)
  return new ClientError('connect_failed', `cannot connect to ${url.href}: ${reason}`, {
    details: { errno: cause?.code },
    cause: error,
  })
}

/** Why reading a response failed: a message over `limit`, something not JSON, or a broken stream. */
export function streamFailure(error: unknown, limit: number): ClientError {
  return error instanceof MessageTooLarge
    ? messageTooLarge(limit, error.bytes)
    : error instanceof SyntaxError
      ? new ClientError('protocol_error', `the server sent something that is not JSON: ${error.message}`)
      : ClientError.isInstance(error)
        ? error
        : new ClientError(
            'connect_failed',
            `the response stream broke: ${(error as Error)?.message ?? String(error)}`,
            { cause: error },
          )
}
