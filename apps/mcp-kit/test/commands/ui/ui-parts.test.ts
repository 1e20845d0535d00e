// The web UI backend's pure parts: how secrets are masked, how a failed connection is explained,
// and how an action becomes its command line.

import { ClientError } from '@mcp-kit/client'
import { describe, expect, it } from 'vitest'
import { withReporter } from '../../../src/commands/ui/app-sandbox.js'
import { shellWord } from '../../../src/commands/ui/cli-equivalent.js'
import { createEventHub } from '../../../src/commands/ui/events.js'
import { explainFailure } from '../../../src/commands/ui/failure.js'
import { mask, maskedSpec, maskText } from '../../../src/commands/ui/mask.js'
import { createTimeline } from '../../../src/commands/ui/timeline.js'

describe('masking', () => {
  it('hides environment values, secret-named parameters, URL passwords and token-shaped words', () => {
    expect(maskText('mcp+npx://pkg?env.API_KEY=abc&arg=--verbose')).toBe(
      `mcp+npx://pkg?env.API_KEY=${mask}&arg=--verbose`,
    )
    expect(maskText('mcp+https://user:hunter2@example.com/mcp?token=abc&x=1')).toBe(
      `mcp+https://user:${mask}@example.com/mcp?token=${mask}&x=1`,
    )
    expect(maskText('node server.js --api-key=s3cret ghp_abcdefghijklmnopqrstuvwxyz012345 plain')).toBe(
      `node server.js --api-key=${mask} ${mask} plain`,
    )
    expect(
      maskedSpec({
        transport: 'http',
        url: 'https://x.example/mcp',
        headers: { Authorization: 'Bearer t', Accept: 'a' },
      }),
    ).toEqual({
      transport: 'http',
      url: 'https://x.example/mcp',
      headers: { Authorization: mask, Accept: 'a' },
    })
    expect(
      maskedSpec({ transport: 'stdio', command: 'node', args: ['s.js'], env: { TOKEN: 't', MODE: 'm' } }),
    ).toEqual({
      transport: 'stdio',
      command: 'node',
      args: ['s.js'],
      env: { TOKEN: mask, MODE: mask },
    })
  })
})

describe('failures explained', () => {
  it('names the step from the error: spawn, initialize (an exit, with stderr), HTTP, OAuth, connect', () => {
    const spawn = explainFailure(
      new ClientError('launch_failed', "cannot launch 'x': command not found"),
      [],
      'x',
    )
    expect(spawn.step).toBe('spawn')
    const exit = explainFailure(
      new ClientError('connect_failed', 'exited', {
        details: { exitCode: 3, signal: null, stderr: ['boom', '\u001b[2Jred'] },
      }),
      [],
      'x',
    )
    expect(exit).toMatchObject({ step: 'initialize', exitCode: 3, stderr: ['boom', '\\x1b[2Jred'] })
    const http = explainFailure(
      new ClientError('http_error', 'HTTP 401', { details: { status: 401 } }),
      [],
      'mcp+http://h/mcp',
    )
    expect(http).toMatchObject({ step: 'http', httpStatus: 401 })
    expect(http.fix).toContain('mcp-kit auth login mcp+http://h/mcp')
    expect(explainFailure(new ClientError('auth_required', 'login'), [], 'r').step).toBe('oauth')
    expect(
      explainFailure(
        new ClientError('connect_failed', 'refused', { details: { errno: 'ECONNREFUSED' } }),
        [],
        'r',
      ).step,
    ).toBe('connect')
  })
})

describe('copy as command', () => {
  it('quotes words for a POSIX shell only when they need it', () => {
    expect(shellWord('@demo')).toBe('@demo')
    expect(shellWord('{"a":"it\'s"}')).toBe(`'{"a":"it'\\''s"}'`)
  })
})

describe('the timeline', () => {
  it('keeps a huge message as a stub; reads trace files line by line, counting what is no entry; exports both kinds', () => {
    const hub = createEventHub()
    const timeline = createTimeline(hub)
    timeline.record('s1', 'node s.js', 'sent', {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'echo' },
    })
    timeline.record('s1', 'node s.js', 'received', {
      jsonrpc: '2.0',
      id: 1,
      result: { content: [{ type: 'text', text: 'x'.repeat(300_000) }] },
    })
    const [, huge] = timeline.rows() as Array<{ message: Record<string, unknown> }>
    expect(huge?.message).toEqual({
      jsonrpc: '2.0',
      id: 1,
      method: undefined,
      _truncated: expect.stringMatching(/^3\d{5} characters$/),
    })
    const trace = [
      JSON.stringify({
        ts_ms: 1,
        kind: 'message',
        direction: 'sent',
        server: 'a',
        message: { jsonrpc: '2.0', id: 0, method: 'ping' },
      }),
      'not json',
      JSON.stringify({
        ts_ms: 2,
        kind: 'tool_call',
        name: 'echo',
        ok: true,
        latency_ms: 3,
        args: {},
        server: 'a',
      }),
      JSON.stringify({ kind: 'message' }),
      '',
    ].join('\n')
    expect(timeline.importTrace(trace, 'file')).toEqual({ source: 'trace:1', rows: 2, skipped: 2 })
    const exported = timeline
      .exportTrace()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { kind: string })
    expect(exported.map((entry) => entry.kind)).toEqual(['message', 'message', 'message', 'tool_call'])
    hub.close()
  })
})

describe('MCP App messages on the timeline', () => {
  it('are rows of their own channel, exported with it and read back with it', () => {
    const hub = createEventHub()
    const timeline = createTimeline(hub)
    timeline.record('s1', 'node s.js', 'sent', { jsonrpc: '2.0', id: 1, method: 'tools/call' })
    timeline.record('s1', 'node s.js', 'received', { jsonrpc: '2.0', id: 1, method: 'ui/initialize' }, 'app')
    expect(timeline.rows().map((row) => ('channel' in row ? row.channel : undefined))).toEqual([
      undefined,
      'app',
    ])
    const exported = timeline.exportTrace()
    const again = createTimeline(hub)
    again.importTrace(exported, 'file')
    expect(again.rows().map((row) => ('channel' in row ? row.channel : undefined))).toEqual([
      undefined,
      'app',
    ])
    hub.close()
  })
})

describe('the sandbox', () => {
  it("puts its CSP-violation reporter first in the view's head, after the doctype when there is no head", () => {
    const reporter = /^<script>\(function\(\)\{.*securitypolicyviolation.*mcp-kit\/csp-violation.*<\/script>/
    const withHead = withReporter(
      '<!doctype html><html><head lang="x"><title>t</title></head><body></body></html>',
    )
    expect(withHead.startsWith('<!doctype html><html><head lang="x"><script>')).toBe(true)
    expect(withHead.slice(withHead.indexOf('<script>'))).toMatch(reporter)
    expect(withHead).toContain('</script><title>t</title>')
    const bare = withReporter('<!DOCTYPE html><p>hi</p>')
    expect(bare.startsWith('<!DOCTYPE html><script>')).toBe(true)
    expect(bare.endsWith('</script><p>hi</p>')).toBe(true)
    expect(withReporter('<p>hi</p>')).toMatch(reporter)
  })
})
