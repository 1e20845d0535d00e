// Reads a `text/event-stream` body event by event, bounded while streaming, so that a server that never
// ends an event cannot grow the client's memory; comment lines (keep-alives) are skipped.

export interface SseEvent {
  id: string | undefined
  event: string | undefined
  data: string
  /** A `retry:` hint, in ms, when the event carried one. */
  retry: number | undefined
}

export class MessageTooLarge extends Error {
  override readonly name = 'MessageTooLarge'
  readonly bytes: number
  constructor(bytes: number) {
    super(`an event of at least ${bytes} bytes`)
    this.bytes = bytes
  }
}

/** Yields the events of `body`; throws MessageTooLarge past the bound. */
export async function* readEvents(
  body: ReadableStream<Uint8Array>,
  maximumBytes: number,
): AsyncGenerator<SseEvent> {
  const decoder = new TextDecoder()
  // The current line, in pieces (no re-scanning or re-copying of a growing string).
  let lineParts: string[] = []
  let lineLength = 0
  let skipLineFeed = false
  let data: string[] = []
  let dataBytes = 0
  let id: string | undefined
  let event: string | undefined
  let retry: number | undefined
  const completed: SseEvent[] = []
  const endLine = () => {
    const line = lineParts.length === 1 ? (lineParts[0] as string) : lineParts.join('')
    lineParts = []
    lineLength = 0
    if (line === '') {
      if (data.length > 0 || retry !== undefined) completed.push({ id, event, data: data.join('\n'), retry })
      data = []
      dataBytes = 0
      event = undefined
      retry = undefined
      return
    }
    if (line.startsWith(':')) return
    const colon = line.indexOf(':')
    const field = colon === -1 ? line : line.slice(0, colon)
    let text = colon === -1 ? '' : line.slice(colon + 1)
    if (text.startsWith(' ')) text = text.slice(1)
    if (field === 'data') {
      dataBytes += text.length + 1
      if (dataBytes > maximumBytes) throw new MessageTooLarge(dataBytes)
      data.push(text)
    } else if (field === 'id') {
      if (!text.includes('\0')) id = text
    } else if (field === 'event') event = text
    else if (field === 'retry' && /^\d+$/.test(text)) retry = Number(text)
  }
  const reader = body.getReader()
  try {
    for (;;) {
      const { value, done } = await reader.read()
      if (done) break
      const text = decoder.decode(value, { stream: true })
      let start = 0
      for (let at = 0; at < text.length; at++) {
        const code = text.charCodeAt(at)
        if (code !== 10 && code !== 13) continue
        if (code === 10 && skipLineFeed && at === start) {
          skipLineFeed = false
          start = at + 1
          continue
        }
        if (at > start) lineParts.push(text.slice(start, at))
        endLine()
        skipLineFeed = code === 13
        start = at + 1
      }
      if (start < text.length) {
        skipLineFeed = false
        lineParts.push(text.slice(start))
        lineLength += text.length - start
        if (lineLength + dataBytes > maximumBytes) throw new MessageTooLarge(lineLength + dataBytes)
      }
      while (completed.length > 0) yield completed.shift() as SseEvent
    }
    if (lineParts.length > 0) endLine()
    endLine()
    while (completed.length > 0) yield completed.shift() as SseEvent
  } finally {
    reader.cancel().catch(() => {})
  }
}

/** The whole body as text, bounded while reading. */
export async function readBounded(
  body: ReadableStream<Uint8Array> | null,
  maximumBytes: number,
): Promise<string> {
  if (body === null) return ''
  const reader = body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  try {
    for (;;) {
      const { value, done } = await reader.read()
      if (done) break
      size += value.byteLength
      if (size > maximumBytes) throw new MessageTooLarge(size)
      chunks.push(value)
    }
  } finally {
    reader.cancel().catch(() => {})
  }
  return Buffer.concat(chunks, size).toString('utf8')
}
