// A raw HTTP/1.1 client over node:net, so a case can send what no well-behaved client library
// would: Content-Length lies, bytes a header may not hold, duplicate headers, bodies cut short,
// half-closed sockets. It reads the answer with a small parser of its own (status line, headers,
// a Content-Length, chunked or until-close body, SSE events) and reports what happened within
// the deadline: complete answers, the server closing without one, or nothing at all (a hang).

import { connect } from 'node:net'

/**
 * @typedef {object} Answer
 * @property {number} status
 * @property {Map<string, string[]>} headers  lower-case names
 * @property {Buffer} body
 * @property {boolean} complete   the body arrived in full (a stream counts once it was held open)
 * @property {boolean} streamed   an SSE stream held open for `streamMs`, then dropped by us
 */

/**
 * @typedef {object} Outcome
 * @property {Answer[]} answers   final answers in order (1xx interim answers are skipped)
 * @property {boolean} closed     the server closed the connection
 * @property {boolean} timedOut   neither an answer nor a close within the deadline
 * @property {string | undefined} socketError
 * @property {boolean} resetWhileSending  the connection failed while we were still writing
 * @property {number} elapsedMs
 */

/**
 * @typedef {object} ExchangeOptions
 * @property {number} port
 * @property {{ bytes: Buffer, delayMs?: number }[]} chunks  written in order (after their delay)
 * @property {string} [method]       the request's method (a HEAD answer has no body)
 * @property {boolean} [halfClose]   send FIN after the last chunk
 * @property {number} timeoutMs      from the first byte written
 * @property {number} [streamMs]     hold an SSE answer open this long, then drop it
 * @property {(data: string) => void} [onEvent]  each SSE `data` as it arrives
 * @property {number} [answers]      stop after this many final answers (default 1)
 */

const maximumBody = 32 * 1024 * 1024
const headEnd = Buffer.from('\r\n\r\n')
const sliceBytes = 64 * 1024

/** Sends one case's bytes and reads the answers. Never rejects. @returns {Promise<Outcome>} */
export function exchange(options) {
  const started = performance.now()
  return new Promise((resolve) => {
    const socket = connect({ port: options.port, host: '127.0.0.1' })
    socket.setNoDelay(true)
    /** @type {Answer[]} */
    const answers = []
    let buffer = Buffer.alloc(0)
    /** @type {Answer | undefined} */
    let current
    let mode = 'head'
    let remaining = 0
    let chunkState = 'size'
    let sseText = ''
    let settled = false
    let closed = false
    let socketError
    let sending = false
    let resetWhileSending = false
    const wanted = options.answers ?? 1
    const timers = new Set()

    const finish = (timedOut = false) => {
      if (settled) return
      settled = true
      for (const timer of timers) clearTimeout(timer)
      socket.destroy()
      resolve({
        answers,
        closed,
        timedOut,
        socketError,
        resetWhileSending,
        elapsedMs: performance.now() - started,
      })
    }
    const later = (milliseconds, action) => {
      const timer = setTimeout(() => {
        timers.delete(timer)
        action()
      }, milliseconds)
      timers.add(timer)
    }
    later(options.timeoutMs, () => finish(true))

    const complete = () => {
      if (current === undefined) return
      current.complete = true
      answers.push(current)
      current = undefined
      mode = 'head'
      if (answers.length >= wanted) finish()
    }

    const feedSse = (bytes) => {
      if (options.onEvent === undefined) return
      sseText += bytes.toString('utf8')
      let end = sseText.search(/\r?\n\r?\n/)
      while (end !== -1) {
        const block = sseText.slice(0, end)
        sseText = sseText.slice(end).replace(/^\r?\n\r?\n/, '')
        const data = block
          .split(/\r?\n/)
          .filter((line) => line.startsWith('data:'))
          .map((line) => line.slice(5).replace(/^ /, ''))
        if (data.length > 0) options.onEvent(data.join('\n'))
        end = sseText.search(/\r?\n\r?\n/)
      }
    }

    const appendBody = (bytes) => {
      if (current === undefined) return
      if (current.body.length + bytes.length <= maximumBody)
        current.body = Buffer.concat([current.body, bytes])
      if (isEventStream(current)) feedSse(bytes)
    }

    const parse = () => {
      while (!settled) {
        if (mode === 'head') {
          const at = buffer.indexOf(headEnd)
          if (at === -1) return
          const head = buffer.subarray(0, at).toString('latin1')
          buffer = buffer.subarray(at + 4)
          const [statusLine = '', ...lines] = head.split('\r\n')
          const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0)
          /** @type {Map<string, string[]>} */
          const headers = new Map()
          for (const line of lines) {
            const colon = line.indexOf(':')
            if (colon <= 0) continue
            const name = line.slice(0, colon).trim().toLowerCase()
            headers.set(name, [...(headers.get(name) ?? []), line.slice(colon + 1).trim()])
          }
          if (status >= 100 && status < 200) continue
          current = { status, headers, body: Buffer.alloc(0), complete: false, streamed: false }
          const encoding = (headers.get('transfer-encoding') ?? []).join(',').toLowerCase()
          const length = headers.get('content-length')?.[0]
          if (options.method === 'HEAD' || status === 204 || status === 304) {
            complete()
            continue
          }
          if (encoding.includes('chunked')) {
            mode = 'chunked'
            chunkState = 'size'
          } else if (length !== undefined) {
            mode = 'length'
            remaining = Number(length)
            if (remaining === 0) {
              complete()
              continue
            }
          } else mode = 'close'
          if (isEventStream(current) && options.streamMs !== undefined) {
            const held = current
            later(options.streamMs, () => {
              if (held !== current) return
              held.streamed = true
              complete()
              finish()
            })
          }
          continue
        }
        if (mode === 'length') {
          if (buffer.length === 0) return
          const take = buffer.subarray(0, remaining)
          buffer = buffer.subarray(take.length)
          remaining -= take.length
          appendBody(take)
          if (remaining === 0) complete()
          continue
        }
        if (mode === 'close') {
          if (buffer.length === 0) return
          appendBody(buffer)
          buffer = Buffer.alloc(0)
          return
        }
        // chunked
        if (chunkState === 'size') {
          const at = buffer.indexOf('\r\n')
          if (at === -1) return
          const size = Number.parseInt(buffer.subarray(0, at).toString('latin1').split(';')[0] ?? '', 16)
          buffer = buffer.subarray(at + 2)
          if (!Number.isFinite(size)) {
            socketError = 'unparseable chunk size'
            finish()
            return
          }
          if (size === 0) chunkState = 'trailer'
          else {
            remaining = size
            chunkState = 'data'
          }
          continue
        }
        if (chunkState === 'data') {
          if (buffer.length === 0) return
          const take = buffer.subarray(0, remaining)
          buffer = buffer.subarray(take.length)
          remaining -= take.length
          appendBody(take)
          if (remaining === 0) chunkState = 'data-end'
          continue
        }
        if (chunkState === 'data-end') {
          if (buffer.length < 2) return
          buffer = buffer.subarray(2)
          chunkState = 'size'
          continue
        }
        // trailer: lines until an empty one
        const at = buffer.indexOf('\r\n')
        if (at === -1) return
        const line = buffer.subarray(0, at)
        buffer = buffer.subarray(at + 2)
        if (line.length === 0) complete()
      }
    }

    socket.on('data', (data) => {
      buffer = buffer.length === 0 ? data : Buffer.concat([buffer, data])
      parse()
    })
    socket.on('error', (error) => {
      socketError = /** @type {NodeJS.ErrnoException} */ (error).code ?? error.message
      if (sending) resetWhileSending = true
    })
    socket.on('close', () => {
      closed = true
      if (mode === 'close' && current !== undefined) complete()
      else if (current !== undefined) answers.push(current) // cut short: complete stays false
      current = undefined
      finish()
    })
    // Large bodies go in slices, each after the last drained, and stop once an answer has begun:
    // a client that gets an early refusal (413) stops sending, as curl and undici do.
    const answering = () => current !== undefined || answers.length > 0
    const writeSlices = async (bytes) => {
      for (let start = 0; start < bytes.length; start += sliceBytes) {
        if (settled || socket.destroyed || (start > 0 && answering())) return false
        if (!socket.write(bytes.subarray(start, start + sliceBytes))) {
          await new Promise((resolveDrain) => {
            const done = () => {
              socket.off('drain', done)
              socket.off('close', done)
              resolveDrain(undefined)
            }
            socket.once('drain', done)
            socket.once('close', done)
          })
        }
      }
      return true
    }
    socket.once('connect', async () => {
      sending = true
      for (const chunk of options.chunks) {
        if (settled) return
        if (chunk.delayMs) await new Promise((resolveDelay) => later(chunk.delayMs, resolveDelay))
        if (settled || socket.destroyed) return
        if (!(await writeSlices(chunk.bytes))) return
      }
      // Written means handed to the kernel: a reset can still come for bytes in flight.
      setImmediate(() => {
        sending = false
      })
      if (options.halfClose && !socket.destroyed) socket.end()
    })
  })
}

/** @param {Answer} answer */
export function isEventStream(answer) {
  return /^text\/event-stream/i.test(answer.headers.get('content-type')?.[0] ?? '')
}

/** The `data` payloads of an SSE body. @param {Buffer} body */
export function sseData(body) {
  return body
    .toString('utf8')
    .split(/\r?\n\r?\n/)
    .map((block) =>
      block
        .split(/\r?\n/)
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).replace(/^ /, ''))
        .join('\n'),
    )
    .filter((data) => data !== '')
}
