// The stdio line transport answers what the SDK's own would silently drop.

import { PassThrough } from 'node:stream'
import { expect, test } from 'vitest'
import { envelopeProblem } from '../../src/protocol/message.js'
import { StdioLineTransport } from '../../src/stdio/transport.js'

async function exchange(lines: string[]): Promise<{ delivered: unknown[]; answered: unknown[] }> {
  const input = new PassThrough()
  const output = new PassThrough()
  const transport = new StdioLineTransport(input, output)
  const delivered: unknown[] = []
  transport.onmessage = (message) => delivered.push(message)
  await transport.start()
  const answered: unknown[] = []
  output.setEncoding('utf8').on('data', (text: string) => {
    for (const line of text.split('\n').filter(Boolean)) answered.push(JSON.parse(line))
  })
  input.write(`${lines.join('\n')}\n`)
  await new Promise((resolve) => setImmediate(resolve))
  await transport.close()
  return { delivered, answered }
}

test('delivers valid messages, answers bad lines and malformed requests', async () => {
  const { delivered, answered } = await exchange([
    '{"jsonrpc":"2.0","id":1,"method":"ping"}',
    'not json',
    '{"jsonrpc":"2.0","id":2,"method":"tools/list","params":[1]}',
    '{"jsonrpc":"1.0","id":3,"method":"ping"}',
    '{"jsonrpc":"2.0","method":"notifications/x","params":"bad"}',
    '',
    '{"jsonrpc":"2.0","method":"notifications/initialized"}',
  ])
  expect(delivered).toEqual([
    { jsonrpc: '2.0', id: 1, method: 'ping' },
    { jsonrpc: '2.0', method: 'notifications/initialized' },
  ])
  expect(answered).toEqual([
    { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error: a line is not JSON' } },
    {
      jsonrpc: '2.0',
      id: 2,
      error: { code: -32600, message: "Invalid request: 'params' must be an object" },
    },
    { jsonrpc: '2.0', id: 3, error: { code: -32600, message: 'Invalid request: \'jsonrpc\' must be "2.0"' } },
  ])
})

test('a line may arrive in any number of chunks, and one chunk may hold many lines', async () => {
  const input = new PassThrough()
  const transport = new StdioLineTransport(input, new PassThrough())
  const delivered: unknown[] = []
  transport.onmessage = (message) => delivered.push(message)
  await transport.start()
  const long = {
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'echo', arguments: { message: 'x'.repeat(300_000) } },
  }
  const text = `${JSON.stringify(long)}\r\n{"jsonrpc":"2.0","id":2,"method":"ping"}\n{"jsonrpc":"2.0","id":3,`
  // 1,000-byte chunks: the long line spans hundreds of them; the last chunk ends two lines and starts a third.
  for (let start = 0; start < text.length; start += 1000) input.write(text.slice(start, start + 1000))
  input.write('"method":"ping"}\n')
  await new Promise((resolve) => setImmediate(resolve))
  expect(delivered).toEqual([
    long,
    { jsonrpc: '2.0', id: 2, method: 'ping' },
    { jsonrpc: '2.0', id: 3, method: 'ping' },
  ])
  await transport.close()
})

test('envelopeProblem', () => {
  expect(envelopeProblem({ jsonrpc: '2.0', id: 1, result: {} })).toBeUndefined()
  expect(envelopeProblem({ jsonrpc: '2.0', id: 1, result: {}, error: {} })).toBe(
    "a response has either 'result' or 'error'",
  )
  expect(envelopeProblem([1])).toBe('a message must be a JSON object')
  expect(envelopeProblem({ jsonrpc: '2.0', id: 1.5, method: 'x' })).toBe(
    "'id' must be a string or an integer",
  )
})
