// Where an upstream session's questions and log messages that name no call go (callers.ts): to a
// caller only on a session that has carried that caller's calls alone — a question to its only
// call in flight, a log message to its latest call if the caller has a session — and otherwise
// nowhere: the question is refused, the log message goes to the operator.

import type { InputHandler } from '@mcp-kit/client'
import { describe, expect, test } from 'vitest'
import { type Caller, Callers } from '../../src/upstream/callers.js'

function caller(key: string, session = true): Caller & { asked: string[]; logs: unknown[] } {
  const asked: string[] = []
  const logs: unknown[] = []
  const input: InputHandler = {
    elicit: async (request) => {
      asked.push(request.message)
      return { action: 'accept', content: {} }
    },
  }
  return { key, session, input, log: (_level, data) => logs.push(data), asked, logs }
}

const question = { message: 'PIN?', requestedSchema: { type: 'object' as const, properties: {} } }
const context = { during: undefined, signal: new AbortController().signal }

async function ask(callers: Callers): Promise<string> {
  const elicit = callers.input('bank').elicit as NonNullable<InputHandler['elicit']>
  return elicit(question as never, context).then(
    () => 'asked',
    (error: Error) => error.message,
  )
}

function log(callers: Callers): string[] {
  const operator: string[] = []
  callers.log('info', 'secret', undefined, () => operator.push('secret'))
  return operator
}

describe('a session of one caller', () => {
  test('asks its only call in flight and logs to its latest call; with two in flight, refuses', async () => {
    const callers = new Callers()
    const alice = caller('alice session:1')
    const leave = callers.enter(alice)
    expect(await ask(callers)).toBe('asked')
    expect(log(callers)).toEqual([])
    expect(alice.logs).toEqual(['secret'])
    const again = callers.enter(caller('alice session:1'))
    expect(await ask(callers)).toMatch(/cannot tell which call it is for \(2 calls in flight/)
    again()
    leave()
    expect(await ask(callers)).toBe('the gateway has nobody to ask for input outside a call')
    expect(log(callers)).toEqual(['secret'])
  })

  test('a caller without a session (2026 calls) is asked, but gets no log message', async () => {
    const callers = new Callers()
    const calls = caller('alice', false)
    callers.enter(calls)
    expect(await ask(callers)).toBe('asked')
    expect(log(callers)).toEqual(['secret'])
    expect(calls.logs).toEqual([])
  })
})

test('a session that served another caller before, or serves everyone, asks and logs to nobody', async () => {
  const before = new Callers()
  before.enter(caller('alice session:1'))()
  const bob = caller('bob session:2')
  before.enter(bob)
  expect(await ask(before)).toMatch(/\(its session has served more than one caller;/)
  expect(log(before)).toEqual(['secret'])
  const shared = new Callers()
  shared.shareWithAll()
  const carol = caller('carol session:3')
  shared.enter(carol)
  expect(await ask(shared)).toMatch(/\(its session serves every caller;/)
  expect(log(shared)).toEqual(['secret'])
  expect([...bob.asked, ...carol.asked, ...bob.logs, ...carol.logs]).toEqual([])
})
