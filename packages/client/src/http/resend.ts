// A request whose pooled keep-alive connection closed before any answer (a server's idle close met its
// reuse): sent once more on a connection of its own when it is safe to repeat, else a clear error.

import { ClientError } from '../errors.js'
import type { FetchLike } from './transport-options.js'

/** undici's "other side closed", a reset, a broken pipe: the connection went away under the request. */
const droppedCodes: ReadonlySet<string> = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE'])

function causeOf(error: unknown): { code?: unknown; message?: unknown } | undefined {
  return (error as { cause?: { code?: unknown; message?: unknown } } | null)?.cause
}

/**
 * True when fetch failed because its connection closed or reset before an answer: fetch rejects
 * only before the answer's headers are in. A refused connection, a timeout, an abort or an HTTP
 * status is not this.
 */
export function droppedBeforeAnswer(error: unknown): boolean {
  const code = causeOf(error)?.code
  return error instanceof TypeError && typeof code === 'string' && droppedCodes.has(code)
}

/**
 * Runs `send` with a fetch whose requests go out on a new connection: a one-off undici agent
 * (honouring the proxy variables, as the pooled one does), handed to fetch as its `dispatcher`
 * (Node's fetch and undici's use it), and closed once the answer has been read.
 */
export async function onNewConnection(
  fetch: FetchLike,
  send: (fetch: FetchLike) => Promise<Response>,
): Promise<Response> {
  const { EnvHttpProxyAgent } = await import('undici')
  const dispatcher = new EnvHttpProxyAgent()
  try {
    const response = await send((url, init) => fetch(url, { ...init, dispatcher } as unknown as RequestInit))
    // close() lets the answer (a stream, too) finish first.
    dispatcher.close().catch(() => {})
    return response
  } catch (error) {
    dispatcher.destroy().catch(() => {})
    throw error
  }
}

/** How a request is named in messages, and whether it may be sent twice. */
export interface ResendRule {
  /** The endpoint, for messages. */
  url: URL
  /** What was sent (`tools/call`, `GET`), for messages. */
  what: string
  repeatable: boolean
  onDiagnostic?: ((message: string) => void) | undefined
}

/**
 * Runs `send` through `fetch`; when its connection closed before an answer, runs it once more on
 * a new connection if the request is repeatable, else fails with connect_failed saying the request
 * may or may not have run. Any other failure is thrown as it came.
 */
export async function sendWithResend(
  fetch: FetchLike,
  send: (fetch: FetchLike) => Promise<Response>,
  rule: ResendRule,
): Promise<Response> {
  try {
    return await send(fetch)
  } catch (error) {
    if (!droppedBeforeAnswer(error)) throw error
    if (!rule.repeatable) throw closedBeforeAnswer(error, rule, false)
    rule.onDiagnostic?.(
      `${rule.what}: the connection to ${rule.url.origin} closed before an answer (${reason(error)}); sending it again on a new connection`,
    )
    try {
      return await onNewConnection(fetch, send)
    } catch (again) {
      throw droppedBeforeAnswer(again) ? closedBeforeAnswer(again, rule, true) : again
    }
  }
}

function reason(error: unknown): string {
  const cause = causeOf(error)
  return typeof cause?.message === 'string' && cause.message !== ''
    ? cause.message
    : String(cause?.code ?? (error as Error).message)
}

function closedBeforeAnswer(error: unknown, rule: ResendRule, resent: boolean): ClientError {
  const closed = `the connection to ${rule.url.href} closed before an answer (${reason(error)})`
  const call = rule.what === 'tools/call'
  const why = call
    ? 'a tool call is repeated only when the tool is annotated idempotentHint or readOnlyHint'
    : 'it is not safe to repeat'
  const message = resent
    ? `${closed}, and again when sent once more on a new connection`
    : `${closed}; the ${call ? 'call' : 'request'} may or may not have run on the server. It was not sent again: ${why}`
  return new ClientError('connect_failed', message, {
    details: { reason: 'closed_before_answer', resent, errno: causeOf(error)?.code },
    cause: error,
  })
}
