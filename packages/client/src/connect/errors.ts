// How a failed connect becomes one ClientError that says what happened: cancelled, a launch failure or
// an exit (with the last stderr lines), the connect limit, a refused initialize, an HTTP status, no server.

import { ClientError } from '../errors.js'
import { HttpStatusError } from '../http/errors.js'
import { RpcError } from '../protocol/rpc-error.js'
import type { ServerSpec } from '../server-spec.js'
import { describeExit } from '../session/errors.js'
import type { ProcessTransport } from '../stdio/process-transport.js'
import type { Attempt } from './handshake.js'

/**
 * ": <what the server said>" for an HTTP error, one line, short; nothing when all there is to say
 * is the status again (the legacy SSE transport's "Non-200 status code (404)").
 */
function describeBody(error: unknown, message: string): string {
  const text =
    error instanceof HttpStatusError
      ? error.body
      : message.replace(/^(Streamable HTTP|SSE) error: /, '').replace(/^Non-200 status code \(\d+\)$/, '')
  const line = text.replace(/\s+/g, ' ').trim().slice(0, 200)
  return line === '' ? '' : `: ${line}`
}

/** Why a redirect answer is an error: which redirects the transport follows (http/redirects.ts). */
function redirectHint(error: unknown, status: number, url: string): string {
  if (status < 300 || status > 399 || !(error instanceof HttpStatusError)) return ''
  const location = error.headers.get('location')
  if (location === null) return ''
  let target = location
  try {
    target = new URL(location, url).href
  } catch {
    // Not a URL: shown as the server sent it.
  }
  return ` (a redirect to ${target.slice(0, 200)}, not followed: a POST follows only 307 and 308 redirects within the same origin, at most 5 in a row; use the new address if you trust it)`
}

function describeLimit(milliseconds: number): string {
  return `${Math.round(milliseconds / 100) / 10} s`
}

/** The connect limit and the option that set it (`connectTimeoutMs`, or a shorter `totalTimeoutMs`). */
export interface ConnectLimit {
  timeoutMs: number
  option: 'connectTimeoutMs' | 'totalTimeoutMs'
}

export async function connectError(
  error: unknown,
  server: ServerSpec,
  attempt: Attempt | undefined,
  limit: ConnectLimit,
  signal?: AbortSignal,
): Promise<ClientError> {
  const { timeoutMs } = limit
  const where = server.transport === 'stdio' ? `'${server.command}'` : server.url
  const rpcCode = error instanceof RpcError ? error.code : undefined
  if (signal?.aborted)
    return new ClientError('cancelled', `connecting to ${where} was cancelled`, { cause: error })
  const process = attempt?.kind === 'stdio' ? (attempt.transport as ProcessTransport) : undefined
  if (process?.failure) return process.failure
  if (process?.exit) {
    // The exit is the real story, whatever failed first; read the server's last words before telling it.
    await Promise.race([process.settled(), new Promise((resolve) => setTimeout(resolve, 500))])
    const exit = process.exit
    return new ClientError(
      'connect_failed',
      `${where}: ${describeExit(exit, 'before it finished initializing')}`,
      {
        details: { exitCode: exit.code, signal: exit.signal, stderr: exit.stderrTail },
        cause: error,
      },
    )
  }
  if (ClientError.isInstance(error) && error.code === 'timeout') {
    return new ClientError(
      'timeout',
      `${where} did not finish initializing within ${describeLimit(timeoutMs)} (${limit.option})`,
      {
        details: { limit: 'connect', timeoutMs },
        cause: error,
      },
    )
  }
  if (ClientError.isInstance(error)) return error
  if (error instanceof RpcError) {
    return new ClientError(
      'protocol_error',
      `${where} refused to initialize: ${error.message} (JSON-RPC ${error.code})`,
      {
        details: { rpcCode: error.code, data: error.data },
        cause: error,
      },
    )
  }
  const status = (error as { code?: unknown }).code
  const message = (error as Error)?.message ?? String(error)
  if (typeof status === 'number' && rpcCode === undefined) {
    const hint =
      status === 401 || status === 403
        ? ' (does it need a token? set bearerToken, or an Authorization header in headers)'
        : redirectHint(error, status, where)
    return new ClientError('http_error', `${where}: HTTP ${status}${hint}${describeBody(error, message)}`, {
      details: { status },
      cause: error,
    })
  }
  const cause = (error as { cause?: { code?: string; message?: string } }).cause
  if (server.transport === 'http' && (cause?.code || /fetch failed/.test(message))) {
    const reason = cause?.code === 'ECONNREFUSED' ? 'connection refused' : (cause?.message ?? message)
    return new ClientError('connect_failed', `cannot connect to ${where}: ${reason}`, {
      details: { errno: cause?.code },
      cause: error,
    })
  }
  return new ClientError('connect_failed', `${where}: ${message}`, { cause: error })
}
