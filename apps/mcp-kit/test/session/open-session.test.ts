// The connect layer in process (session/open-session.ts): flags become the client's options, a
// real server in this process is reached through them, and what cannot connect is a connect
// failure (exit 3) with its cause kept.

import type { RunningHttpServer } from '@mcp-kit/server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { exitCodeFor } from '../../src/base/exit-codes.js'
import type { ConnectionArguments } from '../../src/session/connection-flags.js'
import { connectOptions, openSession, parseHeaders } from '../../src/session/open-session.js'
import { resolveTarget } from '../../src/session/reference.js'
import { startToolServer } from '../helpers/in-process-server.js'
import { defaultConnectionArguments, ioStub } from '../helpers/io-stub.js'

let server: RunningHttpServer
beforeAll(async () => {
  server = await startToolServer()
})
afterAll(() => server.close())

const flags = (more: Record<string, unknown> = {}) =>
  ({ ...defaultConnectionArguments(), ...more }) as unknown as ConnectionArguments

describe('connectOptions', () => {
  it('turns the flags into options: headers, environment, seconds as milliseconds, the size cap', () => {
    const options = connectOptions(
      flags({
        header: ['X-Team: blue'],
        env: ['TOKEN=a=b'],
        'connect-timeout': 2.5,
        'max-message-size': '1MiB',
      }),
      ioStub(),
    )
    expect(options.headers).toEqual({ 'X-Team': 'blue' })
    expect(options.env).toEqual({ TOKEN: 'a=b' })
    expect(options.connectTimeoutMs).toBe(2500)
    expect(options.maxMessageBytes).toBe(1024 * 1024)
    expect(options.protocol).toBe('auto')
  })

  it('refuses malformed flags as usage errors that name the flag', () => {
    expect(() => parseHeaders(['no colon'])).toThrow(/--header "no colon": expected 'Name: value'/)
    expect(() => parseHeaders(['X-A: one\r\nX-B: two'])).toThrow(/--header/)
    expect(() => connectOptions(flags({ env: ['1BAD=x'] }), ioStub())).toThrow(/--env "1BAD=x"/)
    expect(() => connectOptions(flags({ protocol: '2024-01-01' }), ioStub())).toThrow(
      /--protocol "2024-01-01"/,
    )
    expect(() => connectOptions(flags({ timeout: -1 }), ioStub())).toThrow(/--timeout must be a positive/)
    expect(() => connectOptions(flags({ 'max-message-size': 'lots' }), ioStub())).toThrow(
      /--max-message-size/,
    )
  })
})

describe('openSession', () => {
  it('connects to the server the reference names and lists its tools', async () => {
    const io = ioStub()
    const { resolved } = await resolveTarget({ reference: `mcp+${server.url}` }, io)
    const session = await openSession(resolved, flags(), io)
    try {
      expect((await session.listTools()).map((tool) => tool.name).sort()).toEqual(['echo', 'generate'])
    } finally {
      await session.close()
    }
  })

  it('a server that is not there is a connect failure, exit 3, with what failed kept', async () => {
    const io = ioStub()
    const { resolved } = await resolveTarget({ reference: 'mcp+http://127.0.0.1:9/mcp' }, io)
    const failure = await openSession(resolved, flags({ 'connect-timeout': 10 }), io).catch(
      (error: unknown) => error,
    )
    expect(failure).toMatchObject({ code: 'connect_failed' })
    expect(exitCodeFor((failure as { code: string }).code)).toBe(3)
  })
})
