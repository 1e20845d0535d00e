// The lingering close after a refusal, over real sockets (guard/lingering-close.ts): a slow client
// still uploading for seconds after its 413 reads the answer and sees a clean close, not a reset;
// a client that never stops sending is cut off at the byte cap or the total time, so a refused
// connection is never read without bound. Time bounds here are hang bounds, not assertions.

import { afterEach, describe, expect, test } from 'vitest'
import { lingeringLimits } from '../../../src/http/guard/lingering-close.js'
import { createDemoRegistry } from '../../../src/registry/demo.js'
import { accept, eventually, serve, sleep } from '../../helpers/http.js'
import { rawConnection, requestHead } from '../../helpers/raw-connection.js'

const defaults = { ...lingeringLimits }
afterEach(() => {
  Object.assign(lingeringLimits, defaults)
})

const kibibyte = 1024
const mebibyte = 1024 * kibibyte
const uploadHeaders = { 'content-type': 'application/json', accept }

/** Writes `chunk` until the socket fails or closes, or `limit` bytes are out; resolves with the bytes written. */
function sendForever(socket: import('node:net').Socket, chunk: Buffer, limit: number): Promise<number> {
  return new Promise((resolve) => {
    let written = 0
    const done = () => resolve(written)
    socket.once('close', done)
    const next = () => {
      while (!socket.destroyed && written < limit) {
        written += chunk.length
        if (!socket.write(chunk)) return void socket.once('drain', next)
      }
      if (written >= limit) done()
    }
    next()
  })
}

describe('a refused upload', () => {
  test('a slow client still sending its body seconds after the 413 reads the 413, then a clean close (no reset)', async () => {
    const server = await serve(createDemoRegistry(), { bodyLimitBytes: 1024 })
    const connection = await rawConnection(server.url, { allowHalfOpen: true })
    // Like a client that reads the answer only once its upload is done.
    connection.socket.pause()
    const chunk = 'x'.repeat(64 * kibibyte)
    const chunks = 10
    connection.socket.write(
      requestHead(server.url, { ...uploadHeaders, 'content-length': chunk.length * chunks }),
    )
    // 250 ms between chunks, 2.25 s in all: well past the second the server used to linger.
    for (let index = 0; index < chunks; index += 1) {
      if (connection.errors.length > 0 || connection.isClosed()) break
      if (index > 0) await sleep(250)
      connection.socket.write(chunk)
    }
    connection.socket.end()
    connection.socket.resume()
    await connection.closed
    expect(connection.errors).toEqual([])
    expect(connection.received()).toMatch(/^HTTP\/1\.1 413 /)
    expect(connection.received()).toMatch(/Payload Too Large/)
  })

  test('a client that never stops sending is cut off once the byte cap has been read', async () => {
    const server = await serve(createDemoRegistry(), { bodyLimitBytes: 1024 })
    const connection = await rawConnection(server.url, { allowHalfOpen: true })
    connection.socket.write(requestHead(server.url, { ...uploadHeaders, 'content-length': 1e12 }))
    // A hang bound: without a cap, the server would read all of it.
    const limit = lingeringLimits.maximumBytes * 4
    const written = await sendForever(connection.socket, Buffer.alloc(mebibyte, 120), limit)
    expect(written).toBeLessThan(limit)
    await connection.closed
    expect(connection.received()).toMatch(/^HTTP\/1\.1 413 /)
    // The cap plus what the two kernels' buffers held when the server closed.
    expect(written).toBeLessThan(lingeringLimits.maximumBytes + 32 * mebibyte)
  }, 120_000)

  test('a client that trickles forever is cut off at the total time', async () => {
    lingeringLimits.totalMs = 1500
    const server = await serve(createDemoRegistry(), { bodyLimitBytes: 1024 })
    const connection = await rawConnection(server.url, { allowHalfOpen: true })
    connection.socket.write(requestHead(server.url, { ...uploadHeaders, 'content-length': 1e12 }))
    connection.socket.write('x'.repeat(4 * kibibyte))
    // A kibibyte every 100 ms: never a pause long enough to end it, never near the byte cap.
    const trickle = setInterval(() => {
      if (!connection.socket.destroyed) connection.socket.write('x'.repeat(kibibyte))
    }, 100)
    try {
      // A hang bound: the server's own request timeout (21 s) comes much later.
      await Promise.race([
        connection.closed,
        sleep(15_000).then(() => {
          throw new Error('the server was still reading after 15 s')
        }),
      ])
    } finally {
      clearInterval(trickle)
    }
    expect(connection.received()).toMatch(/^HTTP\/1\.1 413 /)
  }, 30_000)

  test('a client that stops sending, keeping its connection, is closed once nothing came for a while', async () => {
    lingeringLimits.betweenReadsMs = 300
    const server = await serve(createDemoRegistry(), { bodyLimitBytes: 1024 })
    const connection = await rawConnection(server.url, { allowHalfOpen: true })
    connection.socket.write(requestHead(server.url, { ...uploadHeaders, 'content-length': 1e6 }))
    connection.socket.write('x'.repeat(4 * kibibyte))
    await eventually(() => /^HTTP\/1\.1 413 /.test(connection.received()))
    expect(server.connections().open).toBe(1)
    // The client half-open, the server's side is what closes (a hang bound, not a timing).
    await eventually(() => server.connections().open === 0, 15_000)
    expect(connection.errors).toEqual([])
  }, 30_000)
})
