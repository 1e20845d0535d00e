// Reads a POST body straight from node:http, within its limits: a declared or streamed body
// larger than the size limit is refused with 413, and a body that has not arrived in full
// within the deadline with 408 (a trickling upload must not hold a connection for minutes).
// Either way the rest is not read and the connection is closed after the answer.

import type { IncomingMessage, ServerResponse } from 'node:http'
import { rpcCodes } from '../../errors.js'
import { describeBytes, refuse } from '../answers.js'

export interface BodyLimits {
  /** Largest body in bytes. */
  maximumBytes: number
  /** The whole body must have arrived this long after its request's headers (0: no deadline). */
  timeoutMs: number
}

/** Calls `onBody` with the whole body, or answers 413 or 408 (and never calls it). */
export function readBody(
  request: IncomingMessage,
  response: ServerResponse,
  headers: readonly string[],
  limits: BodyLimits,
  onBody: (body: Buffer) => void,
): void {
  const declaredLength = Number(request.headers['content-length'])
  if (declaredLength > limits.maximumBytes) {
    tooLarge(request, response, headers, limits)
    return
  }
  const chunks: Buffer[] = []
  let size = 0
  let stopped = false
  const stop = () => {
    stopped = true
    chunks.length = 0
    if (timer !== undefined) clearTimeout(timer)
  }
  const timer =
    limits.timeoutMs > 0
      ? setTimeout(() => {
          if (stopped) return
          stop()
          refuse(
            request,
            response,
            408,
            rpcCodes.transportError,
            `Request Timeout: the request body did not arrive within ${describeMilliseconds(limits.timeoutMs)}`,
            headers,
          )
        }, limits.timeoutMs)
      : undefined
  request.on('data', (chunk: Buffer) => {
    if (stopped) return
    size += chunk.length
    if (size > limits.maximumBytes) {
      stop()
      tooLarge(request, response, headers, limits)
      return
    }
    chunks.push(chunk)
  })
  request.on('end', () => {
    if (stopped) return
    const body = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size)
    stop()
    onBody(body)
  })
  // A client that hangs up mid-body leaves nothing to answer.
  request.once('close', () => {
    if (!stopped) stop()
  })
}

function tooLarge(
  request: IncomingMessage,
  response: ServerResponse,
  headers: readonly string[],
  limits: BodyLimits,
): void {
  refuse(
    request,
    response,
    413,
    rpcCodes.transportError,
    `Payload Too Large: the request body exceeds ${describeBytes(limits.maximumBytes)}`,
    headers,
  )
}

function describeMilliseconds(milliseconds: number): string {
  return milliseconds % 1000 === 0 ? `${milliseconds / 1000} s` : `${milliseconds} ms`
}
