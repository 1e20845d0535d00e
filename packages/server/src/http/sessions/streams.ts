// The SSE streams of one Streamable HTTP session (session.ts owns the exchanges they
// answer): their response headers, event ids, the `retry` hint and, for 2025-11-25 sessions, a
// priming event first. Events stay in a bounded log (event-log.ts) until their stream has
// been delivered in full, so a client can resume with Last-Event-ID after a disconnect or a
// server-side close (SEP-1699). The standalone GET stream is held here, or, when several
// instances share the session, followed in the store (shared-streams.ts).

import type { ServerResponse } from 'node:http'
import type { RequestId } from '../../protocol/rpc.js'
import type { SharedSessions } from '../../store/shared-sessions.js'
import { SseEventLog, type StreamRecord, sseHeaders } from './event-log.js'
import { openSharedStandalone, requestMarker, resumeStoredStream } from './shared-streams.js'

export const keepAliveComment = ': keep-alive\n\n'

/** What a session's streams need from the handler that owns it. */
export interface StreamHub {
  /** The `retry:` hint (ms) sent with priming events: how soon a client reconnects. */
  retryMs: number
  /** How many SSE events a session keeps for Last-Event-ID replay. */
  maximumLoggedEvents: number
  /** How many bytes of SSE events a session keeps for replay. */
  maximumLoggedBytes: number
  /** SSE responses that get keep-alive comments. */
  liveStreams: Set<ServerResponse>
}

export class SessionStreams {
  readonly #sessionId: string | undefined
  readonly #hub: StreamHub
  readonly #log: SseEventLog
  /** Where a shared session's standalone stream and request-stream copies live; undefined alone. */
  readonly #shared: SharedSessions | undefined
  /** A shared session's standalone stream held here, and how to stop following it. */
  #sharedStandalone: { response: ServerResponse; stop: () => void } | undefined
  /** Shared standalone streams being opened (the store is asked first): they count as held. */
  #opening = 0
  /** Set once the session's streams were all ended (the session closed here). */
  #closed = false
  readonly #sseHeaders: string[]
  /** Whether the session's version resumes streams (it is known only after initialize). */
  readonly #resumable: () => boolean

  constructor(
    sessionId: string | undefined,
    hub: StreamHub,
    shared: SharedSessions | undefined,
    resumable: () => boolean,
  ) {
    this.#sessionId = sessionId
    this.#hub = hub
    this.#shared = shared
    this.#resumable = resumable
    this.#log = new SseEventLog(
      this.#shared === undefined ? hub : { ...hub, streamPrefix: `${this.#shared.instance}.` },
    )
    const session = sessionId === undefined ? [] : ['mcp-session-id', sessionId]
    this.#sseHeaders = [...sseHeaders, ...session]
  }

  /** The standalone stream's record (stream 0), for messages related to no request. */
  get standalone(): StreamRecord {
    return this.#log.standalone
  }

  /** True while this instance holds the client's standalone GET stream. */
  get holdsStandalone(): boolean {
    return (
      this.#sharedStandalone !== undefined || this.#opening > 0 || this.#log.standalone.live !== undefined
    )
  }

  /**
   * `open` for a session shared by several instances: the standalone stream comes from the
   * store, and a request stream written elsewhere is resumed from the store's copy.
   */
  async openShared(
    response: ServerResponse,
    headers: readonly string[],
    lastEventId: string | undefined,
  ): Promise<boolean> {
    const shared = this.#shared
    if (shared === undefined) return this.open(response, headers, lastEventId)
    // `0_<ms>-<n>` (the standalone stream, ids made by the store) or `<instance>.<n>_<seq>` (a
    // request's stream); anything else is unknown, never a question to the store.
    const match =
      lastEventId === undefined
        ? null
        : /^(?:0_(\d{1,15}-\d{1,15})|([0-9a-f]{8}\.\d{1,15})_(\d{1,15}))$/.exec(lastEventId)
    if (lastEventId !== undefined && match === null) return false
    const stream = match?.[2] ?? (match?.[1] === undefined ? undefined : '0')
    const start = () => {
      response.writeHead(200, headers.length === 0 ? this.#sseHeaders : [...this.#sseHeaders, ...headers])
      response.flushHeaders()
    }
    if (stream !== undefined && stream !== '0') {
      if (this.#log.find(lastEventId as string) !== undefined)
        return this.open(response, headers, lastEventId)
      return resumeStoredStream(
        shared,
        this.#sessionId as string,
        stream,
        Number(match?.[3]),
        response,
        start,
      )
    }
    this.#opening += 1
    let stop: () => void
    try {
      stop = await openSharedStandalone({
        sessions: shared,
        sessionId: this.#sessionId as string,
        response,
        start,
        after: match?.[1],
        retryMs: this.#resumable() ? this.#hub.retryMs : undefined,
      })
    } finally {
      this.#opening -= 1
    }
    // The session closed here while the store answered: this stream has nothing to follow.
    if (this.#closed) {
      stop()
      response.end()
      return true
    }
    const previous = this.#sharedStandalone
    this.#sharedStandalone = { response, stop }
    previous?.stop()
    previous?.response.end()
    this.#hub.liveStreams.add(response)
    response.once('close', () => {
      this.#hub.liveStreams.delete(response)
      if (this.#sharedStandalone?.response === response) this.#sharedStandalone = undefined
    })
    return true
  }

  /** Opens (or replaces) the standalone GET stream, or resumes a stream from `lastEventId`. */
  open(response: ServerResponse, headers: readonly string[], lastEventId: string | undefined): boolean {
    let record = this.#log.standalone
    let after: number | undefined
    if (lastEventId !== undefined) {
      const found = this.#log.find(lastEventId)
      if (found === undefined) return false
      record = found.record
      after = found.after
    }
    response.writeHead(200, headers.length === 0 ? this.#sseHeaders : [...this.#sseHeaders, ...headers])
    // Nothing may be written for a while (no priming event before 2025-11-25, nothing new to
    // replay): the client waits for the response itself until its headers go out.
    response.flushHeaders()
    if (after === undefined) {
      if (this.#resumable()) response.write(this.#log.priming(record, this.#hub.retryMs))
    } else {
      for (const event of record.events) if (event.sequence > after) response.write(event.framed)
      if (record.finished) {
        response.end()
        this.#log.forget(record)
        return true
      }
    }
    this.#attach(record, response)
    return true
  }

  /**
   * Starts a request's stream on `response` (when it can still be written): a new record, the
   * SSE headers with `headers`, the priming event.
   */
  start(
    requestId: RequestId,
    response: ServerResponse | undefined,
    headers: readonly string[],
  ): StreamRecord {
    const record = this.#newRecord(requestId)
    if (response === undefined || response.destroyed) return record
    response.writeHead(200, headers.length === 0 ? this.#sseHeaders : [...this.#sseHeaders, ...headers])
    if (this.#resumable()) response.write(this.#log.priming(record, this.#hub.retryMs))
    this.#attach(record, response)
    return record
  }

  /** Adds an event to a stream: to its log, to its live response, to the store's copy when shared. */
  write(record: StreamRecord, text: string, end = false): void {
    const framed = this.#log.append(record, text)
    const live = record.live
    if (live !== undefined && !live.destroyed) live.write(framed)
    if (this.#shared !== undefined && record !== this.#log.standalone && this.#resumable())
      this.#shared.logRequestEvent(this.#sessionId as string, record.key, record.sequence, text, end)
  }

  /** Ends a request's stream with its answer; a stream delivered in full leaves the log. */
  finish(record: StreamRecord, text: string): void {
    this.write(record, text, true)
    record.finished = true
    if (record.live !== undefined) {
      this.endLive(record)
      this.#log.forget(record)
    }
  }

  /** Ends a request's stream without an answer (the request was cancelled). */
  abandon(record: StreamRecord): void {
    record.finished = true
    this.endLive(record)
    this.#log.forget(record)
  }

  /** Ends the response carrying a stream, if any; the stream can be resumed. */
  endLive(record: StreamRecord): void {
    const live = record.live
    if (live !== undefined) {
      this.#detach(record, live)
      live.end()
    }
  }

  closeStandalone(): void {
    const shared = this.#sharedStandalone
    if (shared !== undefined) {
      this.#sharedStandalone = undefined
      shared.stop()
      shared.response.end()
    }
    this.endLive(this.#log.standalone)
  }

  /** Ends every live stream and empties the log (the session ended). */
  closeAll(): void {
    this.#closed = true
    for (const record of this.#log.records()) this.endLive(record)
    this.#log.clear()
  }

  /** Opens a request's stream record; a shared session's copy starts with the request's id. */
  #newRecord(requestId: RequestId): StreamRecord {
    const record = this.#log.create()
    if (this.#shared !== undefined && this.#resumable()) {
      record.sequence += 1
      this.#shared.logRequestEvent(
        this.#sessionId as string,
        record.key,
        record.sequence,
        requestMarker + JSON.stringify(requestId),
        false,
      )
    }
    return record
  }

  #attach(record: StreamRecord, response: ServerResponse): void {
    const previous = record.live
    if (previous !== undefined && previous !== response) {
      this.#detach(record, previous)
      previous.end()
    }
    record.live = response
    this.#hub.liveStreams.add(response)
    response.once('close', () => {
      if (record.live === response) this.#detach(record, response)
    })
  }

  #detach(record: StreamRecord, response: ServerResponse): void {
    if (record.live !== response) return
    record.live = undefined
    this.#hub.liveStreams.delete(response)
  }
}
