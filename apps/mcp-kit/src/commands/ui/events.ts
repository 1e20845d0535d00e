// What the UI's pages hear from the workspace: one server-sent-event stream per open page, each
// event a JSON object with a `type`. Nothing is buffered for a page that is not listening.

import type { ServerResponse } from 'node:http'

export type UiEvent = { type: string } & Record<string, unknown>

export interface EventHub {
  /** Sends an event to every open page, numbered (`seq`) in the order of publishing. */
  publish(event: UiEvent): void
  /** The number of the last event published: a state read says how far it is up to date. */
  sequence(): number
  /** Streams events to this response until it closes. */
  attach(response: ServerResponse): void
  close(): void
}

export function createEventHub(): EventHub {
  const listeners = new Set<ServerResponse>()
  let published = 0
  const keepAlive = setInterval(() => {
    for (const response of listeners) response.write(': keep-alive\n\n')
  }, 15_000)
  keepAlive.unref()
  return {
    publish(event) {
      published += 1
      if (listeners.size === 0) return
      const frame = `data: ${JSON.stringify({ ...event, seq: published })}\n\n`
      for (const response of listeners) response.write(frame)
    },
    sequence: () => published,
    attach(response) {
      response.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        connection: 'keep-alive',
      })
      response.write(': connected\n\n')
      listeners.add(response)
      response.on('close', () => listeners.delete(response))
    },
    close() {
      clearInterval(keepAlive)
      for (const response of listeners) response.end()
      listeners.clear()
    },
  }
}
