// Sending a request with undici and reading its answer, bounded in time and in size as it streams
// (a chunked answer stops at the limit, whatever it declared). Redirects are not followed
// (credentials stay with the API's origin). Failures to reach the API become messages naming the
// origin and path, never the query (which may hold a key) nor any header.

import { type Dispatcher, request } from 'undici'
import { networkReason } from '../errors.js'
import type { HttpRequest } from './request.js'

export interface HttpAnswer {
  status: number
  headers: Record<string, string>
  body: Buffer
}

export interface SendOptions {
  dispatcher?: Dispatcher
  timeoutMs: number
  maxResponseBytes: number
  signal: AbortSignal
}

export class SendFailure extends Error {
  override readonly name = 'SendFailure'
}

function where(http: HttpRequest): string {
  return `${http.method} ${http.url.origin}${http.url.pathname}`
}

export async function send(
  http: HttpRequest,
  headers: Record<string, string>,
  options: SendOptions,
): Promise<HttpAnswer> {
  // One controller and one timer per request, cleared when the answer is read: cheaper than
  // AbortSignal.timeout and AbortSignal.any, whose signals are tracked until collected.
  options.signal.throwIfAborted()
  const controller = new AbortController()
  let timedOut = false
  const timer = setTimeout(() => {
    timedOut = true
    controller.abort(new DOMException('The operation timed out.', 'TimeoutError'))
  }, options.timeoutMs)
  timer.unref()
  const stop = () => controller.abort(options.signal.reason)
  options.signal.addEventListener('abort', stop, { once: true })
  let url = http.url
  if (http.secretQuery.length > 0) {
    url = new URL(http.url)
    url.search = [url.search.replace(/^\?/, ''), ...http.secretQuery].filter((part) => part !== '').join('&')
  }
  try {
    const answer = await request(url, {
      method: http.method as Dispatcher.HttpMethod,
      headers,
      body: http.body,
      signal: controller.signal,
      dispatcher: options.dispatcher,
    })
    const chunks: Buffer[] = []
    let size = 0
    for await (const chunk of answer.body) {
      size += (chunk as Buffer).length
      if (size > options.maxResponseBytes) {
        answer.body.destroy()
        throw new SendFailure(`${where(http)}: the answer is larger than ${options.maxResponseBytes} bytes`)
      }
      chunks.push(chunk as Buffer)
    }
    const flat: Record<string, string> = {}
    for (const [name, value] of Object.entries(answer.headers)) {
      if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value
    }
    return {
      status: answer.statusCode,
      headers: flat,
      body: chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks),
    }
  } catch (error) {
    if (error instanceof SendFailure) throw error
    if (options.signal.aborted) throw error
    if (timedOut) {
      throw new SendFailure(`${where(http)}: no answer within ${options.timeoutMs / 1000} s`, {
        cause: error,
      })
    }
    throw new SendFailure(`${where(http)}: cannot reach the API: ${networkReason(error)}`, { cause: error })
  } finally {
    clearTimeout(timer)
    options.signal.removeEventListener('abort', stop)
  }
}
