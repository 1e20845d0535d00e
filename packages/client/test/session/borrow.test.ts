// @module-tag integration
// Borrowed views of one session (what mcp-kit's warm sessions hand each command): each has its
// own cancellation, limits and traces; none of them ends the others' calls or the session.

import { describe, expect, it } from 'vitest'
import { ClientError, connect, type TraceEntry } from '../../src/index.js'
import { failureOf, fixture, processAlive } from '../helpers/processes.js'

describe('Session.borrow', () => {
  it('cancelling one borrower cancels its calls only, on the wire, and leaves the session open', async () => {
    const stderr: string[] = []
    const session = await connect(fixture('basic'), { onStderr: (line) => stderr.push(line) })
    const first = new AbortController()
    const one = session.borrow({ signal: first.signal })
    const two = session.borrow()
    const hanging = failureOf(one.callTool('hang', {}))
    const slow = two.callTool('slow', { ms: 300 })
    // Both calls are in flight before the first borrower gives up.
    await new Promise((resolve) => setTimeout(resolve, 100))
    first.abort(new Error('Ctrl-C'))
    const failure = await hanging
    expect(failure.code).toBe('cancelled')
    await expect.poll(() => stderr.join('\n')).toMatch(/cancelled request \d+/)
    expect((await slow).content).toEqual([{ type: 'text', text: 'slept 300' }])
    await one.close()
    await two.close()
    expect((await session.callTool('echo', { message: 'still here' })).isError).not.toBe(true)
    const pid = session.process?.pid as number
    expect(processAlive(pid)).toBe(true)
    await session.close()
    expect(processAlive(pid)).toBe(false)
  })

  it("a borrower's signal aborted with a ClientError fails its calls with that error, no one else's", async () => {
    const session = await connect(fixture('basic'))
    const failed = new AbortController()
    const one = session.borrow({ signal: failed.signal })
    const two = session.borrow()
    const hanging = failureOf(one.callTool('hang', {}))
    const slow = two.callTool('slow', { ms: 300 })
    await new Promise((resolve) => setTimeout(resolve, 100))
    failed.abort(new ClientError('input_required', 'the server asked for input and nothing could answer'))
    const failure = await hanging
    expect(failure.code).toBe('input_required')
    expect(failure.message).toBe("tools/call 'hang': the server asked for input and nothing could answer")
    expect((await slow).content).toEqual([{ type: 'text', text: 'slept 300' }])
    await Promise.all([one.close(), two.close()])
    await session.close()
  })

  it('a session has no public way to fail its calls or to feed it notifications', async () => {
    const session = await connect(fixture('basic'))
    expect('failPending' in session).toBe(false)
    expect('receiveNotification' in session).toBe(false)
    await session.close()
  })

  it('keeps its own call limit and total limit', async () => {
    const session = await connect(fixture('basic'), { callTimeoutMs: 60_000 })
    const quick = session.borrow({ callTimeoutMs: 150 })
    const timedOut = await failureOf(quick.callTool('hang', {}))
    expect(timedOut.code).toBe('timeout')
    expect(timedOut.details?.limit).toBe('call')
    const capped = session.borrow({ totalTimeoutMs: 150 })
    const total = await failureOf(capped.callTool('hang', {}))
    expect(total.code).toBe('timeout')
    expect(total.details?.limit).toBe('total')
    // The session's own limit is untouched: a call longer than both borrowers' limits succeeds.
    expect((await session.callTool('slow', { ms: 300 })).content).toEqual([
      { type: 'text', text: 'slept 300' },
    ])
    await Promise.all([quick.close(), capped.close()])
    await session.close()
  })

  it('closing a borrower cancels what it still runs, nothing else', async () => {
    const session = await connect(fixture('basic'))
    const borrower = session.borrow()
    const hanging = failureOf(borrower.callTool('hang', {}))
    await new Promise((resolve) => setTimeout(resolve, 50))
    await borrower.close()
    expect((await hanging).code).toBe('cancelled')
    expect(session.borrow().serverInfo.name).toBe('fixture-basic')
    expect((await session.listTools()).length).toBeGreaterThan(5)
    await session.close()
  })

  it('shares the tools list, and traces and schedules per borrower', async () => {
    const session = await connect(fixture('basic'))
    const traces: TraceEntry[] = []
    const scheduled: string[] = []
    const borrower = session.borrow({
      onTrace: (entry) => traces.push(entry),
      schedule: async (call) => {
        scheduled.push('before')
        const result = await call()
        scheduled.push('after')
        return result
      },
    })
    const tools = await session.listTools()
    expect(await borrower.listTools()).toBe(tools)
    await borrower.callTool('echo', { message: 'hi' })
    await session.callTool('echo', { message: 'not traced by the borrower' })
    expect(traces.map((entry) => [entry.kind, entry.name, entry.ok])).toEqual([['tool_call', 'echo', true]])
    expect(scheduled).toEqual(['before', 'after'])
    await borrower.close()
    await session.close()
  })
})
