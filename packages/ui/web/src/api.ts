// The page's side of the workspace API: JSON requests to /api/… (the token cookie rides along)
// and the event stream.

export class ApiError extends Error {
  readonly code: string
  readonly details: unknown
  constructor(code: string, message: string, details?: unknown) {
    super(message)
    this.code = code
    this.details = details
  }
}

export async function api<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(path, {
    method,
    credentials: 'same-origin',
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const value = (await response.json().catch(() => ({}))) as {
    error?: { code: string; message: string; details?: unknown }
  }
  if (!response.ok) {
    const error = value.error ?? { code: `http_${response.status}`, message: response.statusText }
    throw new ApiError(error.code, error.message, error.details)
  }
  return value as T
}

export type UiEvent = { type: string } & Record<string, unknown>

export function listen(onEvent: (event: UiEvent) => void, onOpen: () => void): () => void {
  const source = new EventSource('/api/events')
  source.onopen = onOpen
  source.onmessage = (message) => {
    try {
      onEvent(JSON.parse(message.data) as UiEvent)
    } catch {
      // Not an event of ours: ignored.
    }
  }
  return () => source.close()
}

let counter = 0
/** An id for a call, unique in this page. */
export function newCallId(): string {
  counter += 1
  return `c${Date.now().toString(36)}${counter}`
}
