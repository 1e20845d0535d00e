// The oracle's rules on answers made by hand: each kind of bad answer is a finding of its
// category, and good answers are not. Also the wire pieces the oracle relies on.

import { describe, expect, test } from 'vitest'
import { damage, serialize, wireChunks } from '../src/materialize.js'
import { checkAnswer, checkMessage, expectedId, leakedStack } from '../src/oracle.js'
import { owedFor } from '../src/stdio-lane.js'

function answer(status, body, contentType = 'application/json', extra = {}) {
  const headers = new Map([['content-type', [contentType]]])
  return { status, headers, body: Buffer.from(body), complete: true, streamed: false, ...extra }
}

const categories = (findings) => findings.map((finding) => finding.category)

describe('HTTP answers', () => {
  test('a JSON-RPC error with an allowed code and a result with the request id pass', () => {
    expect(
      checkAnswer(answer(400, '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}')),
    ).toEqual([])
    expect(checkAnswer(answer(200, '{"jsonrpc":"2.0","id":7,"result":{}}'), { requestId: 7 })).toEqual([])
    expect(checkAnswer(answer(202, ''))).toEqual([])
  })

  test('5xx, an unknown code, a wrong id, a stack, a cut body, a non-JSON body are findings', () => {
    expect(
      categories(
        checkAnswer(
          answer(500, '{"jsonrpc":"2.0","id":null,"error":{"code":-32603,"message":"Internal error"}}'),
        ),
      ),
    ).toEqual(['5xx', 'internal'])
    expect(
      categories(checkAnswer(answer(400, '{"jsonrpc":"2.0","id":null,"error":{"code":12,"message":"x"}}'))),
    ).toEqual(['malformed'])
    expect(
      categories(checkAnswer(answer(200, '{"jsonrpc":"2.0","id":8,"result":{}}'), { requestId: 7 })),
    ).toEqual(['malformed'])
    const stack = 'Error: boom\n    at handler (/srv/app/node_modules/x/index.js:10:5)'
    expect(
      categories(
        checkAnswer(answer(200, JSON.stringify({ jsonrpc: '2.0', id: 1, result: { text: stack } })), {
          requestId: 1,
        }),
      ),
    ).toEqual(['stack'])
    expect(
      categories(
        checkAnswer(answer(200, '{"jsonrpc":"2.0","id":1,"res', 'application/json', { complete: false })),
      ),
    ).toContain('truncated')
    expect(categories(checkAnswer(answer(400, 'Bad things', 'text/plain')))).toEqual(['malformed'])
    expect(categories(checkAnswer(answer(202, 'x')))).toEqual(['malformed'])
  })

  test('an SSE answer must carry the response to the request', () => {
    const events = 'id: 1\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{}}\n\n'
    expect(categories(checkAnswer(answer(200, events, 'text/event-stream'), { requestId: 3 }))).toEqual([
      'malformed',
    ])
    const answered = `${events}data: {"jsonrpc":"2.0","id":3,"result":{}}\n\n`
    expect(checkAnswer(answer(200, answered, 'text/event-stream'), { requestId: 3 })).toEqual([])
  })

  test('what the request itself carried is not a leak', () => {
    const text = 'at x (/a/b.js:1:2)'
    expect(leakedStack(`echo: ${text}`, `{"message":"${text}"}`)).toBeUndefined()
    expect(leakedStack(`echo: ${text}`, '{}')).toBeDefined()
  })

  test('the id an answer must echo is the one the server parses', () => {
    expect(expectedId(Buffer.from('{"jsonrpc":"2.0","id":1e21,"method":"ping"}'))).toBe(1e21)
    expect(expectedId(Buffer.from('{"jsonrpc":"2.0","id":1.5,"method":"ping"}'))).toBeUndefined()
    expect(expectedId(Buffer.from('\ufeff{"jsonrpc":"2.0","id":1,"method":"ping"}'))).toBeUndefined()
    expect(checkMessage({ jsonrpc: '2.0', id: 1, result: {}, extra: 1 })).toHaveLength(1)
  })
})

describe('stdio lines', () => {
  test('what the server owes for a line, after JSON-RPC 2.0', () => {
    expect(owedFor('{"jsonrpc":"2.0","id":1,"method":"ping"}\r')).toMatchObject({ answer: 'id', id: 1 })
    expect(owedFor('not json')).toEqual({ answer: 'null' })
    expect(owedFor('[1]')).toEqual({ answer: 'null' })
    expect(owedFor('   ')).toEqual({ answer: 'none' })
    expect(owedFor('{"jsonrpc":"2.0","method":"notifications/initialized"}')).toMatchObject({
      answer: 'none',
    })
    expect(owedFor('{"jsonrpc":"2.0","id":2,"method":"ping","params":[]}')).toMatchObject({
      answer: 'id',
      id: 2,
    })
    expect(owedFor('{"jsonrpc":"2.0","id":1.5,"method":"ping"}')).toEqual({ answer: 'none' })
    expect(owedFor('{"jsonrpc":"1.0","id":3}')).toEqual({ answer: 'null' })
    expect(owedFor('{"jsonrpc":"2.0","id":4,"result":{}}')).toEqual({ answer: 'none' })
  })
})

describe('materializing a case', () => {
  test('nesting deeper than our own stack and numbers past double range are written as text', () => {
    const text = serialize(
      { jsonrpc: '2.0', id: '__NUM:1e999__', method: 'x', params: {} },
      { type: 'deep', depth: 200_000, bracket: '[' },
    )
    expect(text.startsWith('{"jsonrpc":"2.0","id":1e999,"method":"x","params":{"arguments":[[[')).toBe(true)
    expect(text.length).toBeGreaterThan(400_000)
    expect(serialize({ a: 'x__LONG:3__' })).toBe('{"a":"xaaa"}')
  })

  test('byte damage and wire modes', () => {
    expect(damage('{"a":1}', { type: 'truncate', at: 0.5 }).toString()).toBe('{"a')
    expect([...damage('ab', { type: 'invalid-utf8', at: 0.5, bytes: [0xff] })]).toEqual([0x61, 0xff, 0x62])
    const lie = wireChunks({
      method: 'POST',
      path: '/mcp',
      headers: [['host', 'h']],
      body: Buffer.from('{}'),
      wire: { type: 'length-long', by: 5, fin: true },
    })
    expect(lie.chunks[0].bytes.toString()).toContain('content-length: 7\r\n')
    expect(lie.halfClose).toBe(true)
    const dropped = wireChunks({
      method: 'POST',
      path: '/mcp',
      headers: [['host', 'h']],
      mutations: [{ op: 'drop', name: 'content-length' }],
      body: Buffer.from('{}'),
    })
    expect(dropped.chunks[0].bytes.toString()).not.toContain('content-length')
  })
})
