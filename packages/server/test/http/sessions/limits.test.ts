// Session limits against hostile or careless clients, over real HTTP: open GET streams do not
// keep a session alive, one client cannot take every slot, and sessions have a lifetime.
// Loopback answers on all of 127.0.0.0/8, so clients at 127.0.0.2, .3 … are distinct addresses.
import { describe, expect, test } from 'vitest'
import { addressKey } from '../../../src/http/sessions/client-key.js'
import { createDemoRegistry } from '../../../src/registry/demo.js'
import {
  accept,
  eventually,
  type HeldStream,
  holdStream,
  initialize,
  post,
  type RawHttpResponse,
  rawInitialize,
  rawRequest,
  serve,
  sleep,
} from '../../helpers/http.js'

const list = { jsonrpc: '2.0', id: 1, method: 'tools/list' }

function errorMessage(response: RawHttpResponse): string {
  return (JSON.parse(response.text) as { error: { message: string } }).error.message
}

/** Initializes from `localAddress` and sends notifications/initialized; returns the session headers. */
async function initializeFrom(url: string, localAddress: string, extra: Record<string, string> = {}) {
  const response = await rawInitialize(url, localAddress, extra)
  expect(response.status).toBe(200)
  const headers = {
    ...extra,
    'mcp-session-id': response.headers['mcp-session-id'] as string,
    'mcp-protocol-version': '2025-11-25',
  }
  const initialized = await rawRequest(url, {
    headers: { 'content-type': 'application/json', accept, ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    localAddress,
  })
  expect(initialized.status).toBe(202)
  return headers
}

describe('idle sessions with open streams', () => {
  test('five clients holding GET streams do not lock out a sixth after the idle time', async () => {
    const server = await serve(createDemoRegistry(), { maxSessions: 5, sessionIdleMs: 2000 })
    const streams: HeldStream[] = []
    const sessionHeaders: Array<Record<string, string>> = []
    for (let client = 1; client <= 5; client += 1) {
      const localAddress = `127.0.0.${client}`
      const headers = await initializeFrom(server.url, localAddress)
      sessionHeaders.push(headers)
      streams.push(await holdStream(server.url, headers, localAddress))
    }
    expect(server.handler.stats()).toMatchObject({ sessions: 5, streams: 5 })

    const refused = await rawInitialize(server.url, '127.0.0.6')
    expect(refused.status).toBe(503)
    expect(errorMessage(refused)).toBe(
      'Service Unavailable: too many sessions on this server (limit 5); retry later',
    )
    // Seconds until the oldest idle session expires: at most the idle time.
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1)
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(2)

    // The sixth client retries as told; once the idle time has passed it gets in.
    let admitted: RawHttpResponse | undefined
    await eventually(async () => {
      const attempt = await rawInitialize(server.url, '127.0.0.6')
      if (attempt.status === 200) admitted = attempt
      else expect(attempt.status).toBe(503)
      return attempt.status === 200
    }, 10_000)
    expect(admitted?.headers['mcp-session-id']).toBeTruthy()
    // The idle sessions were closed and their streams ended by the server.
    await Promise.all(streams.map((stream) => stream.ended))
    for (const headers of sessionHeaders) {
      expect((await post(server.url, list, headers)).status).toBe(404)
    }
  })
})

describe('per-client cap', () => {
  test('one address opening sessions in a loop is capped; another client is not affected', async () => {
    const server = await serve(createDemoRegistry(), { maxSessions: 8 })
    const statuses: number[] = []
    let lastRefusal: RawHttpResponse | undefined
    for (let attempt = 0; attempt < 12; attempt += 1) {
      const response = await rawInitialize(server.url, '127.0.0.1')
      statuses.push(response.status)
      if (response.status === 503) lastRefusal = response
    }
    // The default per-client cap is a quarter of maxSessions.
    expect(statuses).toEqual([200, 200, ...Array(10).fill(503)])
    expect(errorMessage(lastRefusal as RawHttpResponse)).toBe(
      'Service Unavailable: too many sessions for this client (limit 2 per client); end one with DELETE or retry later',
    )
    expect(Number(lastRefusal?.headers['retry-after'])).toBeGreaterThan(590)
    expect(server.handler.stats().sessions).toBe(2)

    const other = await initializeFrom(server.url, '127.0.0.2')
    const call = await rawRequest(server.url, {
      headers: { 'content-type': 'application/json', accept, ...other },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'echo', arguments: { message: 'served' } },
      }),
      localAddress: '127.0.0.2',
    })
    expect(JSON.parse(call.text)).toMatchObject({ result: { content: [{ text: 'served' }] } })
  })

  test('a shared bearer token does not make all its holders one client', async () => {
    const token = { authorization: 'Bearer shared-secret' }
    const server = await serve(createDemoRegistry(), { maxSessions: 4, token: 'shared-secret' })
    expect((await rawInitialize(server.url, '127.0.0.1', token)).status).toBe(200)
    expect((await rawInitialize(server.url, '127.0.0.1', token)).status).toBe(503)
    expect((await rawInitialize(server.url, '127.0.0.2', token)).status).toBe(200)
  })

  test('sessionClientKey decides who a client is (here: a header a proxy sets)', async () => {
    const server = await serve(createDemoRegistry(), {
      maxSessions: 4,
      sessionClientKey: (request) => String(request.headers['x-client'] ?? 'anonymous'),
    })
    const as = (client: string) => rawInitialize(server.url, '127.0.0.1', { 'x-client': client })
    expect((await as('alice')).status).toBe(200)
    expect((await as('alice')).status).toBe(503)
    expect((await as('bob')).status).toBe(200)
  })

  test('addresses: IPv4 whole, IPv4-mapped IPv6 as IPv4, IPv6 per /64', () => {
    expect(addressKey('127.0.0.2')).toBe('address:127.0.0.2')
    expect(addressKey('::ffff:10.0.0.1')).toBe('address:10.0.0.1')
    expect(addressKey('2001:db8:1:2::1')).toBe(addressKey('2001:db8:1:2:ffff:0:0:9'))
    expect(addressKey('2001:db8:1:2::1')).not.toBe(addressKey('2001:db8:1:3::1'))
    expect(addressKey('::1')).toBe('address:0:0:0:0::/64')
    expect(addressKey('fe80::1%eth0')).toBe('address:fe80:0:0:0::/64')
    expect(addressKey(undefined)).toBe('address:unknown')
  })
})

describe('session lifetime', () => {
  test('a session is closed at its maximum lifetime even while in use; its stream ends', async () => {
    const server = await serve(createDemoRegistry(), { sessionMaxLifetimeMs: 600, sessionIdleMs: 60_000 })
    const { headers } = await initialize(server.url)
    const stream = await holdStream(server.url, headers)
    const statuses: number[] = []
    // Keep the session busy: it never goes idle, yet it ends.
    await eventually(async () => {
      const status = (await post(server.url, list, headers)).status
      statuses.push(status)
      await sleep(50)
      return status === 404
    }, 10_000)
    expect(statuses.slice(0, -1).every((status) => status === 200)).toBe(true)
    await stream.ended
    expect(server.handler.stats()).toMatchObject({ sessions: 0, streams: 0 })
    // A new session can be opened.
    expect((await initialize(server.url)).sessionId).toBeTruthy()
  })
})
