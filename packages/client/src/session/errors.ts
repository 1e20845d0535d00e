// How whatever a request ran into (a JSON-RPC error, a limit, a lost connection, an HTTP status) becomes
// one ClientError whose message names the request and says what happened.

import { rpcCodes } from '@mcp-kit/core'
import { ClientError, type ClientErrorCode } from '../errors.js'
import { noSampler } from '../protocol/input.js'
import { RpcError } from '../protocol/rpc-error.js'
import type { ProcessTransport } from '../stdio/process-transport.js'

export function seconds(milliseconds: number): string {
  return `${Math.round(milliseconds / 100) / 10} s`
}

/** Which option set a request's limit: the call's own `timeoutMs`, else the session's `callTimeoutMs`. */
export function limitOption(options: { timeoutMs?: number | undefined }): string {
  return options.timeoutMs === undefined ? 'callTimeoutMs' : 'timeoutMs'
}

/**
 * Puts the request's name in front of a limit's message. A call's limit is named by the option
 * that set it, in parentheses, as the client's other limits are (an application may say more).
 */
export function describeLimit(
  reason: ClientError,
  what: string,
  timeoutMs: number,
  option = 'callTimeoutMs',
): ClientError {
  if (reason.code === 'timeout' && reason.details?.limit === 'call') {
    return new ClientError('timeout', `${what}: no response within ${seconds(timeoutMs)} (${option})`, {
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
    case rpcCodes.headerMismatch:
      return `the server refused the request's headers (${error.message})`
    case rpcCodes.missingClientCapability: {
      const names = requiredCapabilities(error)
      const said = `the server needs the client to support ${names.join(', ') || 'a capability'}, which this client did not declare (${error.message})`
      return names.includes('sampling') ? `${said} ${noSampler}` : said
    }
    case rpcCodes.unsupportedProtocolVersion: {
      const supported = Array.isArray(data?.supported)
        ? (data.supported as unknown[]).join(', ')
        : 'other versions'
      return `the server does not speak this protocol version; it speaks ${supported}`
    }
    default:
      return undefined
  }
}

/** The capabilities a -32021 (missing client capability) error names. */
function requiredCapabilities(error: RpcError): string[] {
  const required = (error.data as Record<string, unknown> | undefined)?.requiredCapabilities
  return typeof required === 'object' && required !== null ? Object.keys(required) : []
}

/** The capabilities that answer a server's questions: one missing means input nobody here gives. */
const questionCapabilities = new Set(['sampling', 'elicitation', 'roots'])

/**
 * A missing resource: -32002 (2025-11-25 servers), or -32602 with only the URI as its data (the
 * 2026-07-28 form, as the SDK reads it) or a message that says so ("Resource … not found").
 */
function isResourceNotFound(error: RpcError): boolean {
  if (error.code === rpcCodes.resourceNotFound) return true
  if (error.code !== rpcCodes.invalidParams) return false
  const data = error.data
  const onlyUri =
    typeof data === 'object' &&
    data !== null &&
    typeof (data as { uri?: unknown }).uri === 'string' &&
    Object.keys(data).length === 1
  return onlyUri || /^(unknown resource|resource\b.*\bnot found)/i.test(error.message)
}

export interface NormalizeContext {
  what: string
  timeoutMs: number
  /** The option that set `timeoutMs` (default `callTimeoutMs`). */
  timeoutOption?: string
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
    if (error.code === 'timeout' || error.code === 'cancelled')
      return describeLimit(error, what, timeoutMs, context.timeoutOption)
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
      [rpcCodes.invalidParams]: 'invalid_arguments',
      [rpcCodes.methodNotFound]: 'server_error',
      [rpcCodes.headerMismatch]: 'protocol_error',
      [rpcCodes.unsupportedProtocolVersion]: 'protocol_error',
    }
    // Servers answer an unknown tool with -32602 "Tool x not found" or "Unknown tool: x".
    if (code === rpcCodes.invalidParams && /unknown tool|tool\b.*\bnot found/i.test(error.message))
      byCode[rpcCodes.invalidParams] = 'tool_not_found'
    if (isResourceNotFound(error)) byCode[code] = 'resource_not_found'
    // A server that needs a question answered this client cannot answer (2026-07-28 -32021).
    if (
      code === rpcCodes.missingClientCapability &&
      requiredCapabilities(error).some((name) => questionCapabilities.has(name))
    )
      byCode[code] = 'input_required'
    const explanation =
      modernExplanation(error) ??
      (code === rpcCodes.methodNotFound
        ? `the server does not support this request (${error.message})`
        : error.message)
    return new ClientError(byCode[code] ?? 'server_error', `${what}: ${explanation}`, {
      details: { rpcCode: code, data: error.data },
      cause: error,
    })
  }
  const message = (error as Error)?.message ?? String(error)
  const status = (error as { status?: unknown; code?: unknown }).status ?? (error as { code?: unknown }).code
  if (typeof status === 'number' && status >= 400 && status < 600) {
    // The status once: transports' prefixes and a message that only repeats it are dropped.
    const said = message
      .replace(/^(Streamable HTTP|SSE) error: /, '')
      .replace(/^(HTTP \d+|Non-200 status code \(\d+\))(: |$)/, '')
    return new ClientError('http_error', `${what}: HTTP ${status}${said === '' ? '' : `: ${said}`}`, {
      details: { status },
      cause: error,
    })
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
