// The web UI backend's pure parts: how secrets are masked, how a failed connection is explained,
// and how an action becomes its command line.

import { ClientError } from '@mcp-kit/client'
import { describe, expect, it } from 'vitest'
import { shellWord } from '../src/commands/ui/cli-equivalent.js'
import { explainFailure } from '../src/commands/ui/failure.js'
import { mask, maskedSpec, maskText } from '../src/commands/ui/mask.js'

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
