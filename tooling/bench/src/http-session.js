// The MCP side of the HTTP rows: open a Streamable HTTP session the way a client does (initialize,
// then notifications/initialized), check a tools/call works, and drive autocannon with the session.

import autocannon from 'autocannon'

const accept = 'application/json, text/event-stream'
/** Both allowed, the stream first: the server answers with an SSE stream (text/event-stream). */
const acceptPreferringSse = 'text/event-stream, application/json'

/** The JSON-RPC message of a response that may be plain JSON or an SSE stream. */
async function readMessage(response) {
  const text = await response.text()
  if (!(response.headers.get('content-type') ?? '').includes('text/event-stream')) return JSON.parse(text)
  const data = text
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice(5).trim())
    .filter(Boolean)
  const messages = data.map((line) => JSON.parse(line)).filter((message) => 'id' in message)
  if (messages.length === 0) throw new Error(`no JSON-RPC response in SSE body: ${text.slice(0, 200)}`)
  return messages[0]
}

/**
 * @typedef {{ url: string, sessionId: string, protocolVersion: string }} Session
 */

/**
 * @param {Session} session
 * @param {{ sse?: boolean }} [settings]  sse: ask for the answer as an SSE stream
 */
function sessionHeaders(session, { sse = false } = {}) {
  return {
    'content-type': 'application/json',
    accept: sse ? acceptPreferringSse : accept,
    'mcp-session-id': session.sessionId,
    'mcp-protocol-version': session.protocolVersion,
  }
}

/**
 * @param {string} url
 * @param {{ protocolVersion?: string }} [settings]  the version the client asks for
 * @returns {Promise<Session>}
 */
export async function openSession(url, { protocolVersion = '2025-06-18' } = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: {
        protocolVersion,
        capabilities: {},
        clientInfo: { name: 'mcp-kit-bench', version: '1' },
      },
    }),
  })
  if (response.status !== 200)
    throw new Error(`initialize answered ${response.status}: ${await response.text()}`)
  const message = await readMessage(response)
  const sessionId = response.headers.get('mcp-session-id')
  if (!sessionId || !message.result) throw new Error(`initialize gave no session: ${JSON.stringify(message)}`)
  const session = { url, sessionId, protocolVersion: message.result.protocolVersion }
  const initialized = await fetch(url, {
    method: 'POST',
    headers: sessionHeaders(session),
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  })
  await initialized.arrayBuffer()
  if (initialized.status !== 202) throw new Error(`notifications/initialized answered ${initialized.status}`)
  return session
}

/**
 * One tools/call echo through the session; throws unless the echo comes back (with `sse`, as an
 * SSE stream).
 * @param {Session} session
 * @param {{ sse?: boolean }} [settings]
 */
export async function checkEcho(session, { sse = false } = {}) {
  const response = await fetch(session.url, {
    method: 'POST',
    headers: sessionHeaders(session, { sse }),
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'echo', arguments: { message: 'bench' } },
    }),
  })
  const message = await readMessage(response)
  if (message.result?.content?.[0]?.text !== 'bench') {
    throw new Error(`tools/call echo answered ${response.status}: ${JSON.stringify(message).slice(0, 300)}`)
  }
  if (sse && !(response.headers.get('content-type') ?? '').includes('text/event-stream'))
    throw new Error('tools/call echo asked for SSE first and got plain JSON')
}

/**
 * Hammers `tools/call echo` on one session with a fixed number of connections for a fixed time.
 * Every request gets its own JSON-RPC id (a server may reject a duplicate in-flight id).
 * @param {Session} session
 * @param {{ connections: number, seconds: number }} settings
 */
export function loadEcho(session, { connections, seconds }) {
  return driveLoad({
    url: session.url,
    connections,
    seconds,
    headers: sessionHeaders(session),
    body: (id) =>
      JSON.stringify({
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: { name: 'echo', arguments: { message: 'hello' } },
      }),
  })
}

/**
 * POSTs with autocannon: a fixed number of connections, one request at a time on each, for a
 * fixed time; `body(id)` makes each request's body (every request its own JSON-RPC id). Any
 * non-2xx answer or error fails the load.
 * @param {{ url: string, connections: number, seconds: number, headers: Record<string, string>,
 *   body: (id: number) => string }} settings
 */
export async function driveLoad({ url, connections, seconds, headers, body }) {
  let nextId = 1000
  /** @type {number[]} */
  const latencies = []
  const result = await new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url,
        connections,
        duration: seconds,
        pipelining: 1,
        method: 'POST',
        headers,
        requests: [
          {
            method: 'POST',
            setupRequest: (request) => ({ ...request, body: body(nextId++) }),
          },
        ],
      },
      (error, finished) => (error ? reject(error) : resolve(finished)),
    )
    // autocannon's own histogram keeps whole milliseconds; local calls take less, so keep the
    // exact response times (fractional ms) for the percentiles.
    instance.on('response', (_client, _statusCode, _bytes, responseTime) => latencies.push(responseTime))
  })
  if (result.non2xx > 0 || result.errors > 0 || result.requests.total === 0) {
    throw new Error(
      `load on ${url}: ${result.requests.total} requests, ${result.non2xx} non-2xx, ${result.errors} errors`,
    )
  }
  latencies.sort((left, right) => left - right)
  const percentile = (fraction) =>
    latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * fraction))]
  return {
    // result.duration is rounded to whole seconds; start and finish are exact enough.
    requestsPerSecond: result.requests.total / ((result.finish.getTime() - result.start.getTime()) / 1000),
    requests: result.requests.total,
    latencyP50: percentile(0.5),
    latencyP99: percentile(0.99),
  }
}

/**
 * Opens `count` sessions, `concurrency` at a time.
 * @param {string} url
 * @param {number} count
 * @param {number} [concurrency]
 */
export async function openSessions(url, count, concurrency = 10) {
  /** @type {Session[]} */
  const sessions = []
  let next = 0
  await Promise.all(
    Array.from({ length: Math.min(concurrency, count) }, async () => {
      while (next < count) {
        next++
        sessions.push(await openSession(url))
      }
    }),
  )
  return sessions
}
