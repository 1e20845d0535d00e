// How whatever a request ran into (a JSON-RPC error, a limit, a lost connection, an HTTP status) becomes
// one ClientError whose message names the request and says what happened.

import { ClientError, type ClientErrorCode } from '../errors.js'
import { RpcError } from '../protocol/rpc-error.js'
import type { ProcessTransport } from '../stdio/process-transport.js'

export function seconds(milliseconds: number): string {
  return `${Math.round(milliseconds / 100) / 10} s`
}

/** Puts the request's name in front of a limit's message. */
export function describeLimit(reason: ClientError, what: string, timeoutMs: number): ClientError {
  if (reason.code === 'timeout' && reason.details?.limit === 'call') {
    return new ClientError('timeout', `${what}: no response within ${seconds(timeoutMs)} (--timeout)`, {
      details: reason.details,
      cause: reason,
    })
  }
  return new ClientError(reason.code, `${what}: ${reason.message}`, {
    details: reason.details,
    cause: reason,
  })
}

/** The 2026-07-28 protocol errors, explained. */
function modernExplanation(error: RpcError): string | undefined {
  const data = error.data as Record<string, unknown> | undefined
  switch (error.code) {
    case -32020:
      return `the server refused the request's headers (${error.message})`
    case -32021: {
      const required = data?.requiredCapabilities
      const names =
        typeof required === 'object' && required !== null ? Object.keys(required).join(', ') : 'a capability'
      return `the server needs the client to support ${names}, which this client did not declare (${error.message})`
    }
    case -32022: {
      const supported = Array.isArray(data?.supported)
        ? (data.supported as unknown[]).join(', ')
        : 'other versions'
      return `the server does not speak this protocol version; it speaks ${supported}`
    }
    default:
      return undefined
  }
}

export interface NormalizeContext {
  what: string
  timeoutMs: number
  signal: AbortSignal | undefined
  process: ProcessTransport | undefined
  connectionClosed: boolean
  lostConnection: () => ClientError
}

/** Turns whatever the connection, the transport or the network threw into a ClientError. */
export function normalizeError(error: unknown, context: NormalizeContext): ClientError {
  const { what, timeoutMs, signal, process } = context
  if (process?.failure) return process.failure
  if (signal?.aborted && error === signal.reason)
    return new ClientError('cancelled', `${what}: cancelled`, { cause: error })
  if (ClientError.isInstance(error)) {
    if (error.code === 'timeout' || error.code === 'cancelled') return describeLimit(error, what, timeoutMs)
    // A request that could not be sent because the server is gone: say how it went.
    if (error.code === 'server_exited' && process?.exit && error.details === undefined)
      return prefixed(context.lostConnection(), what, error)
    if (
      (error.code === 'connect_failed' ||
        error.code === 'server_exited' ||
        error.code === 'input_required') &&
      !error.message.startsWith(what)
    ) {
      return new ClientError(error.code, `${what}: ${error.message}`, {
        details: error.details,
        cause: error,
      })
    }
    return error
  }
  if (error instanceof RpcError) {
    const code = error.code
    const byCode: Record<number, ClientErrorCode> = {
      [-32602]: 'invalid_arguments',
      [-32601]: 'server_error',
      [-32020]: 'protocol_error',
      [-32022]: 'protocol_error',
    }
    // Servers answer an unknown tool with -32602 "Tool x not found" or "Unknown tool: x".
    if (code === -32602 && /unknown tool|tool\b.*\bnot found/i.test(error.message))
      byCode[-32602] = 'tool_not_found'
    const explanation =
      modernExplanation(error) ??
      (code === -32601 ? `the server does not support this request (${error.message})` : error.message)
    return new ClientError(byCode[code] ?? 'server_error', `${what}: ${explanation}`, {
      details: { rpcCode: code, data: error.data },
      cause: error,
    })
  }
  const message = (error as Error)?.message ?? String(error)
  const status = (error as { status?: unknown; code?: unknown }).status ?? (error as { code?: unknown }).code
  if (typeof status === 'number' && status >= 400 && status < 600) {
    return new ClientError(
      'http_error',
      `${what}: HTTP ${status}: ${message.replace(/^Streamable HTTP error: /, '')}`,
      {
        details: { status },
        cause: error,
      },
    )
  }
  if (context.connectionClosed || process?.exit) return prefixed(context.lostConnection(), what, error)
  return new ClientError('internal', `${what}: ${message}`, { cause: error })
}

function prefixed(lost: ClientError, what: string, cause: unknown): ClientError {
  return new ClientError(lost.code, `${what}: ${lost.message}`, { details: lost.details, cause })
}

/** "the server exited with code 1 <when>; its last stderr lines: …" */
export function describeExit(
  exit: { code: number | null; signal: NodeJS.Signals | null; stderrTail: string[] },
  when = '',
): string {
  const how = `${exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`}${when ? ` ${when}` : ''}`
  const tail = exit.stderrTail.filter((line) => line.trim() !== '').slice(-5)
  return tail.length === 0
    ? `the server ${how}`
    : `the server ${how}; its last stderr lines:\n  ${tail.join('\n  ')}`
}
