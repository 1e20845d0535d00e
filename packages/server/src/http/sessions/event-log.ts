// The SSE streams of one session and their bounded event log, for Last-Event-ID replay
// (SEP-1699). Each stream has an id; its events are numbered `<stream>_<sequence>`. Stream 0 is
// the standalone GET stream. Events stay until their stream was delivered in full on a live
// connection, or until the log outgrows its bounds (oldest first, finished streams first).

import type { ServerResponse } from 'node:http'

/** One SSE event: its id (`<stream>_<position>`) and one `data:` line. */
/** The headers of every SSE answer (no caching or proxy buffering of a live stream). */
export const sseHeaders: string[] = [
  'content-type',
  'text/event-stream',
  'cache-control',
  'no-cache, no-transform',
  'x-accel-buffering',
  'no',
]

export function frameEvent(stream: string, position: string | number, data: string): string {
  return `id: ${stream}_${position}\ndata: ${data}\n\n`
}

/** The priming event: an id and the `retry:` hint, no data (a resumable stream's first event). */
export function framePriming(stream: string, position: string | number, retryMs: number): string {
  return `id: ${stream}_${position}\nretry: ${retryMs}\ndata: \n\n`
}

export interface StreamRecord {
  id: number
  /** The stream's name in event ids: its id, after the log's prefix (an instance's tag when shared). */
  key: string
  sequence: number
  /** Framed events (`id:`/`data:` lines) with their sequence, oldest first. */
  events: Array<{ sequence: number; framed: string }>
  finished: boolean
  /** The response currently carrying this stream, if any. */
  live: ServerResponse | undefined
}

export interface EventLogBounds {
  maximumLoggedEvents: number
  maximumLoggedBytes: number
  /** Put before stream ids in event ids (default none). */
  streamPrefix?: string
}

export class SseEventLog {
  readonly standalone: StreamRecord
  readonly #bounds: EventLogBounds
  readonly #records = new Map<number, StreamRecord>()
  readonly #prefix: string
  #nextStreamId = 1
  #loggedEvents = 0
  #loggedBytes = 0

  constructor(bounds: EventLogBounds) {
    this.#bounds = bounds
    this.#prefix = bounds.streamPrefix ?? ''
    this.standalone = { id: 0, key: '0', sequence: 0, events: [], finished: false, live: undefined }
    this.#records.set(0, this.standalone)
  }

  /** A new stream for one request's answer. */
  create(): StreamRecord {
    const id = this.#nextStreamId++
    const record: StreamRecord = {
      id,
      key: `${this.#prefix}${id}`,
      sequence: 0,
      events: [],
      finished: false,
      live: undefined,
    }
    this.#records.set(record.id, record)
    return record
  }

  /** The stream a Last-Event-ID names and the sequence to replay after, if it is still known. */
  find(lastEventId: string): { record: StreamRecord; after: number } | undefined {
    const match = /^(.+)_(\d+)$/.exec(lastEventId)
    if (match === null) return undefined
    const key = match[1] as string
    const id =
      key === '0' ? 0 : key.startsWith(this.#prefix) ? Number(key.slice(this.#prefix.length)) : Number.NaN
    const record = this.#records.get(id)
    return record === undefined ? undefined : { record, after: Number(match[2]) }
  }

  /** The priming event (an id and the `retry:` hint, no data) that opens a resumable stream. */
  priming(record: StreamRecord, retryMs: number): string {
    record.sequence += 1
    return framePriming(record.key, record.sequence, retryMs)
  }

  /** Frames `text` as the stream's next event, keeps it for replay, and returns the frame. */
  append(record: StreamRecord, text: string): string {
    record.sequence += 1
    const framed = frameEvent(record.key, record.sequence, text)
    record.events.push({ sequence: record.sequence, framed })
    this.#loggedEvents += 1
    this.#loggedBytes += framed.length
    if (!this.#within()) this.#trim()
    return framed
  }

  /** Forgets a stream whose last event went out on a live connection: nobody needs to resume it. */
  forget(record: StreamRecord): void {
    if (record.id === 0 || !this.#records.delete(record.id)) return
    this.#loggedEvents -= record.events.length
    for (const event of record.events) this.#loggedBytes -= event.framed.length
    record.events = []
  }

  records(): IterableIterator<StreamRecord> {
    return this.#records.values()
  }

  clear(): void {
    this.#records.clear()
  }

  #within(): boolean {
    return (
      this.#loggedEvents <= this.#bounds.maximumLoggedEvents &&
      this.#loggedBytes <= this.#bounds.maximumLoggedBytes
    )
  }

  // Drops the oldest events, finished streams first, until the log is within its bounds.
  #trim(): void {
    for (const record of this.#records.values()) {
      if (this.#within()) return
      if (record.finished && record.live === undefined) this.forget(record)
    }
    for (const record of this.#records.values()) {
      while (!this.#within() && record.events.length > 0) {
        const dropped = record.events.shift()
        this.#loggedEvents -= 1
        this.#loggedBytes -= dropped?.framed.length ?? 0
      }
      if (this.#within()) return
    }
  }
}
