// The 2025-11-25 side of a Connection: what a server's initialize answer must hold to be used, and the
// answers to the server's own requests (ping, and the questions the owner's handler answers).

import { isRecord, legacyProtocolVersions, rpcCodes } from '@mcp-kit/core'
import type { InitializeResult, JSONRPCMessage } from '@modelcontextprotocol/client'
import { ClientError } from '../errors.js'

/** Throws protocol_error for an invalid initialize result or a version this client does not speak. */
export function checkInitializeResult(result: InitializeResult): void {
  if (!isRecord(result) || typeof result.protocolVersion !== 'string') {
    throw new ClientError('protocol_error', 'the server sent an invalid initialize result')
  }
  // Tolerated: hand-written servers that leave out capabilities or serverInfo.
  if (!isRecord(result.capabilities)) (result as { capabilities: object }).capabilities = {}
  if (!isRecord(result.serverInfo))
    (result as { serverInfo: object }).serverInfo = { name: 'unknown', version: '' }
  if (!(legacyProtocolVersions as readonly string[]).includes(result.protocolVersion)) {
    throw new ClientError(
      'protocol_error',
      `the server speaks MCP ${result.protocolVersion}, which this client does not support (it speaks ${legacyProtocolVersions.join(', ')})`,
    )
  }
}

/** Requests from the server (2025-11-25): ping, and the questions the owner's handler answers. */
export async function answerServerRequest(
  transport: { send(message: JSONRPCMessage): Promise<void> },
  events: {
    onRequest?: (
      method: string,
      params: Record<string, unknown> | undefined,
    ) => Promise<Record<string, unknown>>
  },
  id: unknown,
  method: string,
  params: Record<string, unknown> | undefined,
): Promise<void> {
  let response: Record<string, unknown>
  if (method === 'ping') response = { jsonrpc: '2.0', id, result: {} }
  else if (events.onRequest === undefined) {
    response = {
      jsonrpc: '2.0',
      id,
      error: {
        code: rpcCodes.methodNotFound,
        message: `Method not found: this client does not offer ${method}`,
      },
    }
  } else {
    try {
      response = { jsonrpc: '2.0', id, result: await events.onRequest(method, params) }
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error)
      // A refusal with a code of its own keeps it (sampling declined by the user: -1).
      const code = (error as { details?: { rpcCode?: unknown } } | undefined)?.details?.rpcCode
      response = {
        jsonrpc: '2.0',
        id,
        error: { code: Number.isInteger(code) ? (code as number) : rpcCodes.internalError, message },
      }
    }
  }
  await transport.send(response as JSONRPCMessage).catch(() => {})
}
