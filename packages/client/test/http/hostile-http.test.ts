// @module-tag integration
// Servers that try to make the client hold too much over HTTP, in the 2025-11-25 era (the CLI's
// hostile-http test covers 2026-07-28 and peak memory): every body and SSE event is bounded by
// maxMessageBytes while it streams and fails with the same protocol_error as an oversized stdio
// line, and keep-alive comments do not keep a call alive past its timeout.

import type { ServerResponse } from 'node:http'
import { describe, expect, it } from 'vitest'
import { connect, noEraCache } from '../../src/index.js'
import { type HostileMode, startHostileHttpServer } from '../helpers/hostile-server.js'
import { failureOf } from '../helpers/processes.js'
import { answerInitialize, startRawServer } from '../helpers/raw-http.js'

const limit = 4 * 1024 * 1024

async function callAgainst(mode: HostileMode, callTimeoutMs = 30_000) {
  const server = await startHostileHttpServer({ mode, keepAliveMs: 20 })
  try {
    const session = await connect(
      { transport: 'http', url: server.url },
      { maxMessageBytes: limit, callTimeoutMs, protocol: '2025-11-25', eraCache: noEraCache },
    )
    try {
      const failure = await failureOf(session.callTool('x', {}))
      return { failure, stats: server.stats }
    } finally {
      await session.close()
    }
  } finally {
    await server.close()
  }
}

describe('a hostile server over Streamable HTTP', () => {
  it.each([
    ['endless-event', 'an SSE event that never ends'],
    ['chunked-gigabyte', 'a 1 GB chunked JSON body'],
  ] as const)('%s (%s): protocol_error once the limit is passed, not after', async (mode, _what) => {
    const { failure, stats } = await callAgainst(mode)
    expect(failure.code).toBe('protocol_error')
    expect(failure.message).toMatch(
      /^a message from the server is larger than the 4 MiB limit \(at least 4(\.\d)? MiB\); raise it with maxMessageBytes$/,
    )
    expect(failure.details).toMatchObject({ limit })
    // Reading stopped near the limit: the server got to write little more than the socket buffers hold.
    expect(stats.bytesSent).toBeLessThan(64 * 1024 * 1024)
  })

  it('a 200 MB JSON result with its Content-Length is refused before reading it', async () => {
    const { failure, stats } = await callAgainst('huge-json')
    expect(failure.code).toBe('protocol_error')
    expect(failure.message).toMatch(/larger than the 4 MiB limit \(at least 200 MiB\)/)
    expect(stats.bytesSent).toBeLessThan(64 * 1024 * 1024)
  })

  it('keep-alive comments do not extend a call past its timeout', async () => {
    const { failure, stats } = await callAgainst('keep-alive', 500)
    expect(failure.code).toBe('timeout')
    expect(failure.message).toMatch(/no response within 0.5 s \(callTimeoutMs\)/)
    expect(stats.keepAlivesSent).toBeGreaterThan(0)
  })

  it('the session survives an oversized answer: the next call works', async () => {
    const server = await startHostileHttpServer({ mode: 'chunked-gigabyte' })
    try {
      const session = await connect(
        { transport: 'http', url: server.url },
        { maxMessageBytes: limit, protocol: '2025-11-25', eraCache: noEraCache },
      )
      expect((await failureOf(session.callTool('x', {}))).code).toBe('protocol_error')
      expect((await session.listTools()).map((tool) => tool.name)).toEqual(['x'])
      await session.close()
    } finally {
      await server.close()
    }
  })
})

describe('a hostile server over the legacy HTTP+SSE transport (2024-11-05)', () => {
  it('an endless event on the SSE stream fails the pending call with the size error, not a timeout', async () => {
    let events: ServerResponse | undefined
    const filler = Buffer.alloc(64 * 1024, 'x')
    const server = await startRawServer((seen, response) => {
      if (seen.method === 'GET') {
        response.writeHead(200, { 'content-type': 'text/event-stream' })
        response.write('event: endpoint\ndata: /messages\n\n')
        events = response
        return
      }
      if (seen.path !== '/messages') return void response.writeHead(404).end()
      response.writeHead(202).end()
      const message = seen.json as { id?: number; method: string }
      if (message.id === undefined || events === undefined) return
      const stream = events
      if (message.method === 'tools/call') {
        stream.write(
          `event: message\ndata: {"jsonrpc":"2.0","id":${message.id},"result":{"content":[{"text":"`,
        )
        const pour = () => {
          while (!stream.destroyed) if (!stream.write(filler)) return void stream.once('drain', pour)
        }
        return pour()
      }
      const result =
        message.method === 'initialize'
          ? {
              protocolVersion: '2024-11-05',
              capabilities: { tools: {} },
              serverInfo: { name: 'old', version: '1' },
            }
          : { tools: [{ name: 'x', inputSchema: { type: 'object' } }] }
      stream.write(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: message.id, result })}\n\n`)
    })
    try {
      const session = await connect(
        { transport: 'http', url: server.url },
        { maxMessageBytes: limit, callTimeoutMs: 10_000, protocol: '2025-11-25', eraCache: noEraCache },
      )
      expect(session.transportKind).toBe('sse')
      const failure = await failureOf(session.callTool('x', {}))
      await session.close()
      expect(failure.code).toBe('protocol_error')
      expect(failure.message).toMatch(/^a message from the server is larger than the 4 MiB limit/)
    } finally {
      await server.close()
    }
  })
})

describe('a server that never answers', () => {
  // The connect limit covers the server/discover probe and the initialize that follows it when
  // the probe gets no answer. Before, each had the whole limit: failing took twice the limit.
  const limitMs = 2000
  const transports = {
    http: async () => {
      const server = await startRawServer(() => {})
      return { spec: { transport: 'http' as const, url: server.url }, close: () => server.close() }
    },
    stdio: async () => ({
      spec: {
        transport: 'stdio' as const,
        command: process.execPath,
        args: ['-e', 'process.stdin.resume()'],
      },
      close: async () => {},
    }),
  }
  for (const [name, open] of Object.entries(transports)) {
    it(`${name}: fails with a timeout within the connect limit, having tried the probe and then initialize`, async () => {
      const server = await open()
      const diagnostics: string[] = []
      try {
        const started = performance.now()
        const failure = await failureOf(
          connect(server.spec, {
            connectTimeoutMs: limitMs,
            eraCache: noEraCache,
            onDiagnostic: (message) => diagnostics.push(message),
          }),
        )
        const elapsed = performance.now() - started
        expect(failure.code).toBe('timeout')
        expect(diagnostics).toContain('server/discover: no answer in time; speaking 2025-11-25 (initialize)')
        // An upper bound only, with a wide margin: twice the limit is what this guards against.
        expect(elapsed).toBeLessThan(limitMs * 1.75)
      } finally {
        await server.close()
      }
    })
  }
})

it('an HTTP server that answers initialize but not the probe in time is not remembered as a 2025 server', async () => {
  // It may only have been slow (a cold start): the next run probes again.
  const server = await startRawServer((seen, response) => {
    const message = seen.json as { id?: number; method?: string } | undefined
    if (message?.method === 'server/discover') return
    if (message?.method !== 'initialize' || message.id === undefined)
      return void response.writeHead(202).end()
    answerInitialize(response, message.id, 'slow')
  })
  const remembered: string[] = []
  try {
    const session = await connect(
      { transport: 'http', url: server.url },
      {
        connectTimeoutMs: 1000,
        eraCache: { get: () => undefined, set: (_server, era) => remembered.push(era) },
      },
    )
    expect(session.protocolVersion).toBe('2025-11-25')
    await session.close()
    expect(remembered).toEqual([])
  } finally {
    await server.close()
  }
})
