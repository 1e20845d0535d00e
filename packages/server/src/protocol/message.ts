// Which kind of JSON-RPC message a parsed POST body is. A message that is not a valid JSON-RPC
// 2.0 envelope (extra keys, params that are not an object, a fractional id…) is refused with 400
// here, never handed on to be silently dropped (the envelope rules live in stdio-transport.ts).

import { envelopeProblem } from '../stdio/transport.js'
import type { RequestId, RpcMessage } from './rpc.js'

export type MessageKind = 'request' | 'notification' | 'response'

export type RequestMessage = RpcMessage & { id: RequestId; method: string }

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
  return typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id)) ? id : null
}
