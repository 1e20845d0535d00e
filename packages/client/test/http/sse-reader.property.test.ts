// Property tests for the SSE reader, which is fed whatever a server sends: any stream of events,
// cut into chunks anywhere (inside a line ending or a UTF-8 character too), reads back as the
// same events; under a small bound it reads a prefix of them and then refuses, never anything else.

import fc from 'fast-check'
import { expect, test } from 'vitest'
import { MessageTooLarge, readEvents } from '../../src/http/sse-reader.js'

interface Model {
  comment: string | undefined
  id: string | undefined
  data: string[]
}

const lineText = fc.string({ unit: 'grapheme', maxLength: 20 }).filter((text) => !/[\r\n]/.test(text))
const eventModel: fc.Arbitrary<Model> = fc.record({
  comment: fc.option(lineText, { nil: undefined }),
  id: fc.option(
    lineText.filter((text) => !text.includes('\0')),
    { nil: undefined },
  ),
  data: fc.array(lineText, { minLength: 1, maxLength: 3 }),
})

function serialize(events: Model[], ending: string): Uint8Array {
  const lines: string[] = []
  for (const event of events) {
    if (event.comment !== undefined) lines.push(`:${event.comment}`)
    if (event.id !== undefined) lines.push(`id: ${event.id}`)
    for (const line of event.data) lines.push(`data: ${line}`)
    lines.push('')
  }
  return new TextEncoder().encode(lines.map((line) => line + ending).join(''))
}

/** What a reader must yield: the data joined, and the last id seen so far (ids persist). */
function expected(events: Model[]) {
  let id: string | undefined
  return events.map((event) => {
    id = event.id ?? id
    return { id, event: undefined, data: event.data.join('\n'), retry: undefined }
  })
}

function chunked(bytes: Uint8Array, cuts: number[]): ReadableStream<Uint8Array> {
  const points = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b)
  const pieces: Uint8Array[] = []
  let start = 0
  for (const point of [...points, bytes.length]) {
    if (point > start) pieces.push(bytes.subarray(start, point))
    start = Math.max(start, point)
  }
  return new ReadableStream({
    start(controller) {
      for (const piece of pieces) controller.enqueue(piece)
      controller.close()
    },
  })
}

const streams = fc.record({
  events: fc.array(eventModel, { maxLength: 8 }),
  ending: fc.constantFrom('\n', '\r\n', '\r'),
  cuts: fc.array(fc.nat(), { maxLength: 12 }),
})

test('any chunking of any event stream reads back the same events', async () => {
  await fc.assert(
    fc.asyncProperty(streams, async ({ events, ending, cuts }) => {
      const read = []
      for await (const event of readEvents(chunked(serialize(events, ending), cuts), 1024 * 1024))
        read.push(event)
      expect(read).toEqual(expected(events))
    }),
  )
})

test('under a small bound: a prefix of the events, then MessageTooLarge past the bound, nothing else', async () => {
  await fc.assert(
    fc.asyncProperty(streams, fc.integer({ min: 1, max: 40 }), async ({ events, ending, cuts }, limit) => {
      const read = []
      let failure: unknown
      try {
        for await (const event of readEvents(chunked(serialize(events, ending), cuts), limit))
          read.push(event)
      } catch (error) {
        failure = error
      }
      expect(read).toEqual(expected(events).slice(0, read.length))
      if (failure === undefined) expect(read).toHaveLength(events.length)
      else {
        expect(failure).toBeInstanceOf(MessageTooLarge)
        expect((failure as MessageTooLarge).bytes).toBeGreaterThan(limit)
      }
    }),
  )
})
