// The lean protocol layer against a scripted peer: what a client that offers no capabilities
// must do besides asking (answer ping, refuse other server requests, survive odd messages).

import { latestLegacyVersion, legacyProtocolVersions } from '@mcp-kit/core'
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js'
import { describe, expect, it, vi } from 'vitest'
import { Connection } from '../../src/protocol/connection.js'
import { RpcError } from '../../src/protocol/rpc-error.js'

type Message = Record<string, unknown>

/** A transport whose other end is this test: it records what the client sends. */
function scriptedPeer() {
  const sent: Message[] = []
  const transport = {
    onmessage: undefined as ((message: Message) => void) | undefined,
    onclose: undefined as (() => void) | undefined,
    onerror: undefined as ((error: Error) => void) | undefined,
    async start() {},
    async send(message: Message) {
      sent.push(message)
    },
    async close() {
      transport.onclose?.()
    },
  }
  return { transport, sent, deliver: (message: Message) => transport.onmessage?.(message) }
}

describe('Connection', () => {
  it('speaks the same protocol versions as the SDK', () => {
    expect([...legacyProtocolVersions]).toEqual(SUPPORTED_PROTOCOL_VERSIONS)
    expect(latestLegacyVersion).toBe(LATEST_PROTOCOL_VERSION)
  })

  it('answers ping, refuses other server requests, and ignores responses that are not ours', async () => {
    const peer = scriptedPeer()
    new Connection(peer.transport as never)
    peer.deliver({ jsonrpc: '2.0', id: 'p1', method: 'ping' })
    peer.deliver({ jsonrpc: '2.0', id: 7, method: 'sampling/createMessage', params: {} })
    peer.deliver({ jsonrpc: '2.0', id: 'stray', result: {} })
    await Promise.resolve()
    expect(peer.sent).toEqual([
      { jsonrpc: '2.0', id: 'p1', result: {} },
      {
        jsonrpc: '2.0',
        id: 7,
        error: {
          code: -32601,
          message: 'Method not found: this client does not offer sampling/createMessage',
        },
      },
    ])
  })

  it('a login does not count against the requests waiting on it: each gets its full time again once it ends', async () => {
    vi.useFakeTimers()
    try {
      const peer = scriptedPeer()
      let authenticating = false
      const transport = Object.assign(peer.transport, {
        authenticating: () => authenticating,
        onauthenticated: undefined as (() => void) | undefined,
      })
      const connection = new Connection(transport as never)
      const outcome = (promise: Promise<unknown>) => {
        const seen: { result?: unknown; error?: unknown } = {}
        promise.then(
          (result) => (seen.result = result),
          (error) => (seen.error = error),
        )
        return seen
      }
      const discover = outcome(connection.request('server/discover', {}, { timeoutMs: 1000 }))
      // A login runs from 0 to 1.9 s: the request's time does not run out meanwhile.
      authenticating = true
      await vi.advanceTimersByTimeAsync(1900)
      authenticating = false
      transport.onauthenticated?.()
      // 0.9 s after the login: before, the timer left over from the login had fired at 2 s.
      await vi.advanceTimersByTimeAsync(900)
      expect(discover).toEqual({})
      peer.deliver({ jsonrpc: '2.0', id: (peer.sent[0] as { id: number }).id, result: { answered: true } })
      await vi.advanceTimersByTimeAsync(0)
      expect(discover).toEqual({ result: { answered: true } })
      // Past its full time after the login, a request still times out.
      const late = outcome(connection.request('tools/list', {}, { timeoutMs: 1000 }))
      authenticating = true
      await vi.advanceTimersByTimeAsync(500)
      authenticating = false
      transport.onauthenticated?.()
      await vi.advanceTimersByTimeAsync(1001)
      expect((late.error as { code?: string }).code).toBe('timeout')
    } finally {
      vi.useRealTimers()
    }
  })

  it('shows every message sent and received to onMessage, answers to server requests included', async () => {
    const peer = scriptedPeer()
    const seen: Array<[string, unknown]> = []
    const connection = new Connection(peer.transport as never, {
      onMessage: (direction, message) => seen.push([direction, message]),
      onRequest: async () => ({ roots: [] }),
    })
    const answer = connection.request('tools/list', {}, { timeoutMs: 1000 })
    peer.deliver({ jsonrpc: '2.0', id: 'r1', method: 'roots/list' })
    await new Promise((resolve) => setTimeout(resolve, 0))
    peer.deliver({ jsonrpc: '2.0', id: 0, result: { tools: [] } })
    await answer
    await connection.notify('notifications/initialized')
    expect(seen).toEqual([
      ['sent', peer.sent[0]],
      ['received', { jsonrpc: '2.0', id: 'r1', method: 'roots/list' }],
      ['sent', { jsonrpc: '2.0', id: 'r1', result: { roots: [] } }],
      ['received', { jsonrpc: '2.0', id: 0, result: { tools: [] } }],
      ['sent', { jsonrpc: '2.0', method: 'notifications/initialized' }],
    ])
    expect(peer.sent).toHaveLength(3)
  })

  it('always sends a progressToken, and keeps the caller _meta', async () => {
    const peer = scriptedPeer()
    const connection = new Connection(peer.transport as never)
    const answer = connection.request('tools/call', { name: 'x', _meta: { trace: 'a' } }, { timeoutMs: 1000 })
    expect(peer.sent[0]).toEqual({
      jsonrpc: '2.0',
      id: 0,
      method: 'tools/call',
      params: { name: 'x', _meta: { trace: 'a', progressToken: 0 } },
    })
    peer.deliver({ jsonrpc: '2.0', id: 0, error: { code: -32602, message: 'bad', data: { field: 'x' } } })
    await expect(answer).rejects.toEqual(new RpcError(-32602, 'bad', { field: 'x' }))
  })

  it('a timeout cancels the request on the wire', async () => {
    const peer = scriptedPeer()
    const connection = new Connection(peer.transport as never)
    await expect(connection.request('slow', undefined, { timeoutMs: 20 })).rejects.toMatchObject({
      code: 'timeout',
      details: { limit: 'call' },
    })
    expect(peer.sent[1]).toMatchObject({ method: 'notifications/cancelled', params: { requestId: 0 } })
  })

  it('a response with neither result nor error is a protocol error; closing fails what is pending', async () => {
    const peer = scriptedPeer()
    const connection = new Connection(peer.transport as never)
    const odd = connection.request('a', undefined, { timeoutMs: 1000 })
    peer.deliver({ jsonrpc: '2.0', id: 0 })
    await expect(odd).rejects.toMatchObject({ code: 'protocol_error' })
    const pending = connection.request('b', undefined, { timeoutMs: 1000 })
    connection.closeReason = () => new Error('server gone')
    await connection.close()
    await expect(pending).rejects.toThrow('server gone')
    await expect(connection.request('c', undefined, { timeoutMs: 1000 })).rejects.toThrow('server gone')
  })

  it('refuses a protocol version it does not speak', async () => {
    const peer = scriptedPeer()
    const connection = new Connection(peer.transport as never)
    const initialized = connection.initialize({ name: 't', version: '1' }, 1000)
    peer.deliver({
      jsonrpc: '2.0',
      id: 0,
      result: { protocolVersion: '1999-01-01', capabilities: {}, serverInfo: { name: 's', version: '1' } },
    })
    await expect(initialized).rejects.toThrow(/speaks MCP 1999-01-01, which this client does not support/)
  })
})
