// The page's state: the workspace's servers, questions, roots and timeline, kept current by the
// event stream. Components read it with useStore and re-render when it changes.

import { useEffect, useState } from 'preact/hooks'
import { api, listen, type UiEvent } from './api.ts'
import type { Lists, Question, ServerView, TimelineRow } from './types.ts'

export interface State {
  servers: ServerView[]
  questions: Question[]
  roots: Array<{ uri: string; name?: string }>
  timeline: TimelineRow[]
  progress: Record<string, { progress: number; total?: number; message?: string }>
  tasks: Record<string, { taskId: string; status: string; statusMessage?: string }>
  notices: Array<{ serverId?: string; message: string }>
  /**
   * The connected servers' lists: as the state was read, then as the events that follow their
   * change bring them (with the schema hash they had then, which a later event may add).
   */
  lists: Record<string, { schemaHash?: string; lists: Lists }>
  connected: boolean
  /** The workspace's state has been read once. */
  loaded: boolean
}

let state: State = {
  servers: [],
  questions: [],
  roots: [],
  timeline: [],
  progress: {},
  tasks: {},
  notices: [],
  lists: {},
  connected: false,
  loaded: false,
}
const listeners = new Set<() => void>()

function set(next: Partial<State>): void {
  state = { ...state, ...next }
  for (const listener of listeners) listener()
}

export function getState(): State {
  return state
}

export function useStore(): State {
  const [, setTick] = useState(0)
  useEffect(() => {
    const listener = () => setTick((tick) => tick + 1)
    listeners.add(listener)
    return () => {
      listeners.delete(listener)
    }
  }, [])
  return state
}

const keptRows = 5000

/** The number of the last event applied (the workspace numbers them as it publishes). */
let lastEvent = 0

function onEvent(event: UiEvent): void {
  if (typeof event.seq === 'number') lastEvent = Math.max(lastEvent, event.seq)
  switch (event.type) {
    case 'server': {
      const server = event.server as ServerView
      const known = state.servers.some((each) => each.id === server.id)
      // A server's lists come with the event that follows their change (a connection).
      const lists =
        event.lists === undefined
          ? state.lists
          : { ...state.lists, [server.id]: { schemaHash: server.schemaHash, lists: event.lists as Lists } }
      set({
        lists,
        servers: known
          ? state.servers.map((each) => (each.id === server.id ? server : each))
          : [...state.servers, server],
      })
      break
    }
    case 'server-removed':
      set({ servers: state.servers.filter((each) => each.id !== event.id) })
      break
    case 'question':
      set({ questions: [...state.questions, event.question as Question] })
      break
    case 'question-closed':
      set({ questions: state.questions.filter((each) => each.id !== event.id) })
      break
    case 'roots':
      set({ roots: event.roots as State['roots'] })
      break
    case 'message': {
      const timeline = [...state.timeline, event.row as TimelineRow]
      set({ timeline: timeline.length > keptRows ? timeline.slice(-keptRows) : timeline })
      break
    }
    case 'timeline-reset':
      void reloadTimeline()
      break
    case 'progress':
      set({
        progress: {
          ...state.progress,
          [event.callId as string]: event.progress as State['progress'][string],
        },
      })
      break
    case 'task':
      set({ tasks: { ...state.tasks, [event.callId as string]: event.task as State['tasks'][string] } })
      break
    case 'notice':
      set({
        notices: [
          ...state.notices.slice(-20),
          { serverId: event.serverId as string, message: event.message as string },
        ],
      })
      break
  }
}

export async function reloadTimeline(): Promise<void> {
  set({ timeline: (await api<TimelineRow[]>('GET', '/api/timeline')).slice(-keptRows) })
}

// Reads of the state in the order they were asked: an older answer arriving late is dropped.
let stateReads = 0
let stateShown = 0

export async function reloadState(attempt = 1): Promise<void> {
  const read = ++stateReads
  const fresh = await api<Pick<State, 'servers' | 'questions' | 'roots' | 'lists'> & { seq?: number }>(
    'GET',
    '/api/state',
  )
  if (read < stateShown) return
  // Older than events already applied (the stream and this read are two connections): read again
  // (a few times: under a stream of events, a read may never be the newest).
  if (typeof fresh.seq === 'number' && fresh.seq < lastEvent && attempt < 4) return reloadState(attempt + 1)
  stateShown = read
  set({ ...fresh, lists: fresh.lists ?? {}, loaded: true })
}

/**
 * Starts listening; the state is read at once (beside the stream opening, not after it) and again
 * each time the stream (re)opens, so that no event between the two is missed.
 */
export function startStore(): () => void {
  void reloadState().catch(() => {})
  return listen(onEvent, () => {
    set({ connected: true })
    void reloadState()
    void reloadTimeline()
  })
}
