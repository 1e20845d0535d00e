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
  const timeout = AbortSignal.timeout(options.timeoutMs)
  const signal = AbortSignal.any([options.signal, timeout])
  const url = new URL(http.url)
  if (http.secretQuery.length > 0) {
    url.search = [url.search.replace(/^\?/, ''), ...http.secretQuery].filter((part) => part !== '').join('&')
  }
  try {
    const answer = await request(url, {
      method: http.method as Dispatcher.HttpMethod,
      headers,
      body: http.body,
      signal,
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
    return { status: answer.statusCode, headers: flat, body: Buffer.concat(chunks) }
  } catch (error) {
    if (error instanceof SendFailure) throw error
    if (options.signal.aborted) throw error
    if (timeout.aborted) {
      throw new SendFailure(`${where(http)}: no answer within ${options.timeoutMs / 1000} s`, {
        cause: error,
      })
    }
    throw new SendFailure(`${where(http)}: cannot reach the API: ${networkReason(error)}`, { cause: error })
  }
}
