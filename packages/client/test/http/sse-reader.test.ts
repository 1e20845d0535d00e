import { describe, expect, test } from 'vitest'
import { MessageTooLarge, readBounded, readEvents } from '../../src/http/sse-reader.js'

function streamOf(chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder()
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk))
      controller.close()
    },
  })
}

async function collect(chunks: string[], limit = 1024) {
  const events = []
  for await (const event of readEvents(streamOf(chunks), limit)) events.push(event)
  return events
}

describe('readEvents', () => {
  test('events, ids, retry hints and multi-line data; comments are skipped', async () => {
    expect(
      await collect([
        ': keep-alive\n\nid: 1\nretry: 500\ndata: {"a":1}\n\n',
        'data: line one\ndata: line two\n\n',
      ]),
    ).toEqual([
      { id: '1', event: undefined, data: '{"a":1}', retry: 500 },
      { id: '1', event: undefined, data: 'line one\nline two', retry: undefined },
    ])
  })

  test('CRLF line ends, even split across chunks', async () => {
    expect(await collect(['data: x\r', '\n\r', '\ndata: y\r\n\r\n'])).toEqual([
      { id: undefined, event: undefined, data: 'x', retry: undefined },
      { id: undefined, event: undefined, data: 'y', retry: undefined },
    ])
  })

  test('an event that never ends is refused at the bound', async () => {
    await expect(collect(['data: ', 'x'.repeat(600), 'x'.repeat(600)], 1000)).rejects.toBeInstanceOf(
      MessageTooLarge,
    )
    await expect(collect(['data: aaaa\n', 'data: bbbb\n'.repeat(200)], 1000)).rejects.toBeInstanceOf(
      MessageTooLarge,
    )
  })
})

test('readBounded refuses a body past its bound', async () => {
  expect(await readBounded(streamOf(['{"ok":', 'true}']), 100)).toBe('{"ok":true}')
  await expect(readBounded(streamOf(['x'.repeat(60), 'x'.repeat(60)]), 100)).rejects.toBeInstanceOf(
    MessageTooLarge,
  )
})
