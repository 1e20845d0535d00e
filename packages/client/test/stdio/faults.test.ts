// @module-tag integration
// Faults a client meets in the wild: crashes, silence, garbage, servers that will not exit,
// wrappers that leave grandchildren, oversized messages. Every test also checks that nothing is
// left running, and that failures come fast (bounds are generous: "not a hang", not a benchmark).

import { fixtureServers } from '@mcp-kit/fixtures'
import { describe, expect, it } from 'vitest'
import { connect } from '../../src/index.js'
import { failureOf, fixture, groupAlive, processAlive } from '../helpers/processes.js'

describe('a server that crashes', () => {
  it('fails the pending call at once with the exit code and the last stderr lines', async () => {
    const session = await connect(fixture('crash'))
    const pid = session.process!.pid!
    const started = Date.now()
    const failure = await failureOf(session.callTool('crash', {}, { timeoutMs: 30_000 }))
    expect(Date.now() - started).toBeLessThan(5_000)
    expect(failure.code).toBe('server_exited')
    expect(failure.message).toContain('exited with code 3 during the request')
    expect(failure.message).toContain('fixture: segmentation fault (pretend)')
    expect(failure.details).toMatchObject({ exitCode: 3 })
    await session.close()
    expect(groupAlive(pid)).toBe(false)
  })

  it('every pending call of the session fails at once with server_exited', async () => {
    const session = await connect(fixture('crash'))
    const started = Date.now()
    const failures = await Promise.all([
      failureOf(session.callTool('slow', { ms: 60_000 }, { timeoutMs: 60_000 })),
      failureOf(session.callTool('crash', {}, { timeoutMs: 60_000 })),
    ])
    expect(Date.now() - started).toBeLessThan(5_000)
    for (const failure of failures) {
      expect(failure.code).toBe('server_exited')
      expect(failure.message).toContain('exited with code 3 during the request')
      expect(failure.details).toMatchObject({ exitCode: 3, signal: null })
    }
    await session.close()
  })

  it('a call after the server exited is server_exited too, with the exit status', async () => {
    const session = await connect(fixture('crash'))
    await failureOf(session.callTool('crash'))
    await session.closed
    const failure = await failureOf(session.callTool('echo', { message: 'anyone there?' }))
    expect(failure.code).toBe('server_exited')
    expect(failure.message).toMatch(/^tools\/call 'echo': the server exited with code 3/)
    expect(failure.details).toMatchObject({
      exitCode: 3,
      stderr: expect.arrayContaining(['fixture: about to fail']),
    })
    await session.close()
  })

  it('crashing before initialize is connect_failed with its stderr', async () => {
    const failure = await failureOf(connect(fixture('crash', '--at-start')))
    expect(failure.code).toBe('connect_failed')
    expect(failure.message).toMatch(/exited with code 7 before it finished initializing/)
    expect(failure.message).toContain('fixture: fatal: missing API key')
  })

  it('a command that does not exist is launch_failed', async () => {
    const failure = await failureOf(
      connect({ transport: 'stdio', command: 'mcp-kit-no-such-command', args: [] }),
    )
    expect(failure.code).toBe('launch_failed')
    expect(failure.message).toBe("cannot launch 'mcp-kit-no-such-command': command not found")
  })
})

describe('a server that never answers', () => {
  it('a call times out, and the server is told to cancel it', async () => {
    const stderr: string[] = []
    const session = await connect(fixture('basic'), { onStderr: (line) => stderr.push(line) })
    const failure = await failureOf(session.callTool('hang', {}, { timeoutMs: 300 }))
    expect(failure.code).toBe('timeout')
    // The library names its own option that set the limit, never a command-line flag.
    expect(failure.message).toBe("tools/call 'hang': no response within 0.3 s (timeoutMs)")
    await expect.poll(() => stderr.join('\n')).toMatch(/cancelled request \d+/)
    await session.close()
  })

  it("the session's call limit is named callTimeoutMs", async () => {
    const session = await connect(fixture('basic'), { callTimeoutMs: 300 })
    const failure = await failureOf(session.callTool('hang', {}))
    expect(failure).toMatchObject({ code: 'timeout', details: { limit: 'call', timeoutMs: 300 } })
    expect(failure.message).toBe("tools/call 'hang': no response within 0.3 s (callTimeoutMs)")
    await session.close()
  })

  it('initialize times out with the connect limit', async () => {
    const started = Date.now()
    const failure = await failureOf(connect(fixture('mute'), { connectTimeoutMs: 300 }))
    expect(failure.code).toBe('timeout')
    expect(failure.message).toMatch(/did not finish initializing within 0\.3 s \(connectTimeoutMs\)$/)
    expect(failure.details).toMatchObject({ limit: 'connect' })
    expect(Date.now() - started).toBeLessThan(5_000)
  })

  it('a total limit shorter than the connect limit is the one named', async () => {
    const failure = await failureOf(connect(fixture('mute'), { connectTimeoutMs: 5000, totalTimeoutMs: 300 }))
    expect(failure.code).toBe('timeout')
    expect(failure.message).toMatch(/did not finish initializing within 0\.3 s \(totalTimeoutMs\)$/)
  })

  it('an abort signal cancels a call', async () => {
    const session = await connect(fixture('basic'))
    const controller = new AbortController()
    setTimeout(() => controller.abort(), 100)
    const failure = await failureOf(session.callTool('hang', {}, { signal: controller.signal }))
    expect(failure.code).toBe('cancelled')
    await session.close()
  })

  it('the total limit stops a session that keeps getting progress', async () => {
    const session = await connect(fixture('basic'), { totalTimeoutMs: 600 })
    const failure = await failureOf(
      session.callTool('progress', { steps: 50, step_ms: 100 }, { timeoutMs: 250 }),
    )
    expect(failure.code).toBe('timeout')
    expect(failure.details).toMatchObject({ limit: 'total' })
    expect(failure.message).toBe("tools/call 'progress': the total time limit (totalTimeoutMs) was reached")
    await session.close()
  })
})

describe('progress', () => {
  it('resets the per-call timeout, so slow calls that report progress succeed', async () => {
    const session = await connect(fixture('basic'))
    const seen: number[] = []
    const result = await session.callTool(
      'progress',
      { steps: 6, step_ms: 150 },
      { timeoutMs: 400, onProgress: (progress) => seen.push(progress.progress) },
    )
    expect(result.content).toEqual([{ type: 'text', text: 'done after 6 steps' }])
    // The SDK may deliver the last progress notification after the result it precedes.
    expect(seen.slice(0, 5)).toEqual([1, 2, 3, 4, 5])
    await session.close()
  })
})

describe('garbage on stdout', () => {
  it('is skipped and reported, not fatal', async () => {
    const diagnostics: string[] = []
    const session = await connect(fixture('garbage'), {
      onDiagnostic: (message) => diagnostics.push(message),
    })
    expect(await session.callTool('echo', { message: 'still works' })).toEqual({
      content: [{ type: 'text', text: 'still works' }],
    })
    // One diagnostic per skipped line, a batch of three non-messages included.
    expect(diagnostics.filter((message) => message.startsWith('skipped'))).toEqual([
      "skipped a line on the server's stdout (not JSON): Starting server v1.2.3...",
      'skipped a line on the server\'s stdout (not a JSON-RPC 2.0 message): {"not": "json-rpc"}',
      'skipped a line on the server\'s stdout (3 of the 3 items are not JSON-RPC 2.0 messages): [1, "two", {"three": 3}]',
      "skipped a line on the server's stdout (not JSON): debug: echoing still works",
    ])
    await session.close()
  })

  it('a server that only prints garbage ends in a connect timeout, not a crash', async () => {
    const failure = await failureOf(connect(fixture('garbage', '--only'), { connectTimeoutMs: 500 }))
    expect(failure.code).toBe('timeout')
  })
})

describe('shutdown', () => {
  it('a server that ignores stdin EOF gets SIGTERM after the grace period', async () => {
    const diagnostics: string[] = []
    const session = await connect(fixture('ignoreEof'), {
      shutdownGraceMs: 300,
      onDiagnostic: (message) => diagnostics.push(message),
    })
    const pid = session.process!.pid!
    const started = Date.now()
    await session.close()
    expect(Date.now() - started).toBeLessThan(5_000)
    expect(session.process!.exit).toMatchObject({ signal: 'SIGTERM' })
    expect(diagnostics.join('\n')).toMatch(/did not exit 300 ms after stdin closed; sending SIGTERM/)
    expect(groupAlive(pid)).toBe(false)
  })

  it('a server that asks something after stdin closed gets SIGTERM without waiting out the grace period', async () => {
    const diagnostics: string[] = []
    // A grace period longer than the test's timeout: only the request can end the wait in time.
    const session = await connect(fixture('ignoreEof', '--ask-after-eof'), {
      protocol: '2025-11-25',
      shutdownGraceMs: 120_000,
      onDiagnostic: (message) => diagnostics.push(message),
    })
    const pid = session.process!.pid!
    await session.close()
    expect(session.process!.exit).toMatchObject({ signal: 'SIGTERM' })
    expect(diagnostics.join('\n')).toMatch(
      /asked roots\/list after stdin closed, which cannot be answered; sending SIGTERM/,
    )
    expect(groupAlive(pid)).toBe(false)
  })

  it('a server that also ignores SIGTERM gets SIGKILL', async () => {
    const session = await connect(fixture('ignoreEof', '--ignore-sigterm'), { shutdownGraceMs: 300 })
    const pid = session.process!.pid!
    await session.close()
    expect(session.process!.exit).toMatchObject({ signal: 'SIGKILL' })
    expect(groupAlive(pid)).toBe(false)
  })

  it('a wrapper (like npx) leaves no grandchild behind, even one that ignores EOF', async () => {
    const stderr: string[] = []
    const session = await connect(fixture('wrapper', fixtureServers.ignoreEof), {
      shutdownGraceMs: 300,
      onStderr: (line) => stderr.push(line),
    })
    expect(await session.callTool('echo', { message: 'through the wrapper' })).toEqual({
      content: [{ type: 'text', text: 'through the wrapper' }],
    })
    const grandchild = Number(/grandchild pid (\d+)/.exec(stderr.join('\n'))?.[1])
    expect(processAlive(grandchild)).toBe(true)
    const pid = session.process!.pid!
    await session.close()
    expect(processAlive(grandchild)).toBe(false)
    expect(groupAlive(pid)).toBe(false)
  })

  it('a wrapper that exits before its server: the orphaned grandchild is ended too', async () => {
    const stderr: string[] = []
    const diagnostics: string[] = []
    const session = await connect(fixture('wrapper', fixtureServers.ignoreEof, '--leave'), {
      shutdownGraceMs: 300,
      onStderr: (line) => stderr.push(line),
      onDiagnostic: (message) => diagnostics.push(message),
    })
    const grandchild = Number(/grandchild pid (\d+)/.exec(stderr.join('\n'))?.[1])
    expect(processAlive(grandchild)).toBe(true)
    await session.closed // the wrapper exited (after 800 ms): the session is over
    await session.close()
    expect(processAlive(grandchild)).toBe(false)
    expect(diagnostics.join('\n')).toContain('processes the server started are still running')
  })

  it('a well-behaved server exits on stdin EOF, without signals', async () => {
    const session = await connect(fixture('basic'))
    await session.close()
    expect(session.process!.exit).toEqual({ code: 0, signal: null, stderrTail: [] })
  })
})

describe('message size', () => {
  it('a message over the cap is a clear protocol_error, and the server is stopped', async () => {
    const session = await connect(fixture('huge'), { maxMessageBytes: 1024 * 1024 })
    const pid = session.process!.pid!
    const failure = await failureOf(session.callTool('huge', { bytes: 3 * 1024 * 1024 }))
    expect(failure.code).toBe('protocol_error')
    expect(failure.message).toMatch(/a message from the server is larger than the 1 MiB limit/)
    await session.close()
    expect(groupAlive(pid)).toBe(false)
  })

  it('a big message under the cap arrives whole', async () => {
    const session = await connect(fixture('huge'))
    const result = await session.callTool('huge', { bytes: 5 * 1024 * 1024 })
    expect((result.content[0] as { text: string }).text.length).toBe(5 * 1024 * 1024)
    await session.close()
  })
})
