// The JSON-RPC 2.0 envelope as MCP uses it, checked by hand for every transport: why a parsed
// value is not a message (stdio answers -32600, HTTP refuses with 400), and which kind it is.

import { isRecord } from '@mcp-kit/core'
import type { RequestId, RpcMessage } from './rpc.js'

export type MessageKind = 'request' | 'notification' | 'response'

export type RequestMessage = RpcMessage & { id: RequestId; method: string }

/** A JSON-RPC id MCP allows: a string or an integer. */
export function isRequestId(value: unknown): value is RequestId {
  return typeof value === 'string' || (typeof value === 'number' && Number.isInteger(value))
}

/** Why a parsed value is not a JSON-RPC 2.0 message, or undefined when it is one. */
export function envelopeProblem(value: unknown): string | undefined {
  if (!isRecord(value)) return 'a message must be a JSON object'
  if (value.jsonrpc !== '2.0') return '\'jsonrpc\' must be "2.0"'
  if ('method' in value) {
    if (typeof value.method !== 'string') return "'method' must be a string"
    if ('id' in value && !isRequestId(value.id)) return "'id' must be a string or an integer"
    if ('params' in value && value.params !== undefined && !isRecord(value.params))
      return "'params' must be an object"
    return undefined
  }
  if (!isRequestId(value.id)) return "a response needs an 'id'"
  if ('result' in value === 'error' in value) return "a response has either 'result' or 'error'"
  if ('result' in value && !isRecord(value.result)) return "'result' must be an object"
  if ('error' in value && !isRecord(value.error)) return "'error' must be an object"
  return undefined
}

/** The message's kind, or undefined when it is not a valid JSON-RPC 2.0 message for MCP. */
export function classify(value: unknown): MessageKind | undefined {
  if (envelopeProblem(value) !== undefined) return undefined
  const message = value as Record<string, unknown>
  if (typeof message.method === 'string') return 'id' in message ? 'request' : 'notification'
  return 'response'
}

/** The id of an invalid message, when it is one an error answer may echo (else null). */
export function echoableId(value: unknown): RequestId | null {
  const id = (value as { id?: unknown } | null)?.id
  return isRequestId(id) ? id : null
}
