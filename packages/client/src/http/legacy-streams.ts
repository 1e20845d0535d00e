// The 2025-11-25 streams of a Streamable HTTP session besides the answers to its POSTs: resuming a
// response stream that ended before its answer (SEP-1699), and the standalone GET stream.

import type { Era } from '@mcp-kit/core'
import { ClientError } from '../errors.js'
import { MessageTooLarge } from './sse-reader.js'

/** What the streams use of their transport (HttpTransport). */
export interface StreamSource {
  /** GETs the session's stream, with Last-Event-ID once an event id was seen. */
  get(signal: AbortSignal, lastId: { value?: string }): Promise<Response>
  /** Reads an SSE stream, delivering its messages; true once the response to `id` went by. */
  read(
    body: ReadableStream<Uint8Array> | null,
    id: number | string | undefined,
    lastId: { value?: string },
  ): Promise<boolean>
  /** How long to wait before reconnecting (the server's last `retry:`). */
  retryMs(): number
  /** An event over the size limit ended the GET stream. */
  tooLarge(error: MessageTooLarge): void
}

function delay(milliseconds: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, milliseconds)
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer)
        resolve()
      },
      { once: true },
    )
  })
}

/** 2025 (SEP-1699): the stream ended before the answer; reconnect with Last-Event-ID and wait. */
export async function resumeStream(
  source: StreamSource,
  era: Era,
  id: number | string,
  signal: AbortSignal,
  lastId: { value?: string },
  maxReconnects: number,
): Promise<void> {
  if (era !== 'legacy' || lastId.value === undefined) {
    throw new ClientError('connect_failed', 'the response stream ended before the answer')
  }
  for (let attempt = 1; attempt <= maxReconnects + 1; attempt++) {
    await delay(source.retryMs(), signal)
    if (signal.aborted) return
    const response = await source.get(signal, lastId)
    if (!response.ok) {
      await response.body?.cancel().catch(() => {})
      continue
    }
    if (await source.read(response.body, id, lastId)) return
  }
  throw new ClientError(
    'connect_failed',
    'the response stream ended before the answer, and resuming it failed',
  )
}

/** 2025: the standalone GET stream (server-to-client requests and notifications); 405 is fine. */
export async function readGetStream(source: StreamSource, signal: AbortSignal): Promise<void> {
  const lastId: { value?: string } = {}
  for (let failures = 0; failures < 3 && !signal.aborted; ) {
    try {
      const response = await source.get(signal, lastId)
      if (response.status === 405 || !response.ok) {
        await response.body?.cancel().catch(() => {})
        return
      }
      await source.read(response.body, undefined, lastId)
      failures = 0
    } catch (error) {
      if (signal.aborted) return
      failures += 1
      if (error instanceof MessageTooLarge) {
        source.tooLarge(error)
        return
      }
    }
    await delay(source.retryMs(), signal)
  }
}
