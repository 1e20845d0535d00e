// The SSE streams of a 2025 session shared by several instances (store/shared-sessions.ts):
// the standalone GET stream, which any instance may hold and every instance may write to (its
// events live in the store and reach the holder on a channel), and the resumption on one
// instance of a request's stream written by another (replayed from the store's copy).

import type { ServerResponse } from 'node:http'
import { rpcCodes } from '../../errors.js'
import type { RequestId } from '../../protocol/rpc.js'
import type { SharedSessions } from '../../store/shared-sessions.js'
import { compareEventIds, type StoredEvent } from '../../store/store.js'
import { errorBody } from '../answers.js'
import { frameEvent, framePriming } from './event-log.js'

/** Marks a stored entry that is not a message: the first entry of a request stream names its request. */
export const requestMarker = '#'

export interface StandaloneOptions {
  sessions: SharedSessions
  sessionId: string
  response: ServerResponse
  /** Sends the response's status and headers. */
  start: () => void
  /** The stored event id after which to replay (`0_<id>` of Last-Event-ID), or undefined for a fresh stream. */
  after: string | undefined
  /** The priming event's `retry:` hint, or undefined when the session is not resumable. */
  retryMs: number | undefined
}

/**
 * Serves the standalone stream from the store: follows appends first (so none is missed), then
 * replays what came after `after`, then writes live appends in order, each once. Resolves once
 * the stream is open; the returned function stops following (also done when the response closes).
 */
export async function openSharedStandalone(options: StandaloneOptions): Promise<() => void> {
  const { sessions, sessionId, response } = options
  const buffered: StoredEvent[] = []
  let cursor: string | undefined
  const write = (event: StoredEvent) => {
    if (cursor === undefined || compareEventIds(event.id, cursor) <= 0) return
    cursor = event.id
    if (!response.destroyed) response.write(frameEvent('0', event.id, event.data))
  }
  const unfollow = await sessions.followStandalone(sessionId, (event) => {
    if (cursor === undefined) buffered.push(event)
    else write(event)
  })
  let stopped = false
  const stop = () => {
    if (stopped) return
    stopped = true
    void unfollow()
  }
  response.once('close', stop)
  try {
    const head = options.after ?? (await sessions.standaloneHead(sessionId))
    const replay = options.after === undefined ? [] : await sessions.readStream(sessionId, '0', options.after)
    options.start()
    if (options.after === undefined && options.retryMs !== undefined)
      response.write(framePriming('0', head, options.retryMs))
    cursor = head
    for (const event of [...replay, ...buffered]) write(event)
  } catch (error) {
    stop()
    throw error
  }
  return stop
}

/**
 * Resumes, from the store's copy, a request stream that another instance writes (`stream` is
 * `<instance>.<n>`): replays the events after `after`, then ends the response — with the request's
 * answer when it came, or an error answer when the instance running it went away; otherwise the
 * client reconnects after its retry interval and resumes again. False when the stream is unknown.
 */
export async function resumeStoredStream(
  sessions: SharedSessions,
  sessionId: string,
  stream: string,
  after: number,
  response: ServerResponse,
  start: () => void,
): Promise<boolean> {
  const events = await sessions.readStream(sessionId, stream, '')
  if (events.length === 0) return false
  const position = (event: StoredEvent) => Number(event.id.split('-')[1])
  const finished = events.at(-1)?.end === true
  const owner = stream.split('.')[0] as string
  const ownerGone = !finished && !(await sessions.alive(owner))
  start()
  for (const event of events) {
    if (position(event) > after && !event.data.startsWith(requestMarker))
      response.write(frameEvent(stream, String(position(event)), event.data))
  }
  const marker = events[0]?.data.startsWith(requestMarker) ? events[0] : undefined
  if (ownerGone && marker !== undefined) {
    const requestId = JSON.parse(marker.data.slice(requestMarker.length)) as RequestId
    const last = events.at(-1) as StoredEvent
    const why = 'the server instance answering this request went away; send it again'
    const answer = errorBody(rpcCodes.internalError, why, requestId)
    // The client may have seen events the store never got (the instance died before copying them).
    response.write(frameEvent(stream, String(Math.max(after, position(last)) + 1), answer))
  }
  response.end()
  return true
}
