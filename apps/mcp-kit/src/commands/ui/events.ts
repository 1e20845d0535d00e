// What the UI's pages hear from the workspace: one server-sent-event stream per open page, each
// event a JSON object with a `type`. Nothing is buffered for a page that is not listening.

import type { ServerResponse } from 'node:http'

export type UiEvent = { type: string } & Record<string, unknown>

export interface EventHub {
  publish(event: UiEvent): void
  /** Streams events to this response until it closes. */
  attach(response: ServerResponse): void
  close(): void
}

export function createEventHub(): EventHub {
  const listeners = new Set<ServerResponse>()
  const keepAlive = setInterval(() => {
    for (const response of listeners) response.write(': keep-alive\n\n')
  }, 15_000)
  keepAlive.unref()
  return {
    publish(event) {
      if (listeners.size === 0) return
      const frame = `data: ${JSON.stringify(event)}\n\n`
      for (const response of listeners) response.write(frame)
    },
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
