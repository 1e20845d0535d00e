// The soak: `mcp-kit serve --port 0` (the demo registry) under a steady mixed load for minutes —
// 2026-07-28 stateless calls, lists and reads; 2025 sessions opened, used and deleted, and calls
// in long-lived ones; GET streams and subscriptions opened and dropped; and a share of invalid
// requests — while its memory is sampled every few seconds after a warm-up: RSS from /proc, and
// the live heap after forced collections (memory-probe.js, as for the memory-2026 row). The rows are the least-squares
// slopes in KiB per minute (goal: flat) with the first and last samples; every sample is in
// latest.json. Any answer other than the one expected counts as an error and fails the row.

import { rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { startHttpServer } from '../http-server-process.js'
import { makeRow } from '../rows.js'
import { readMemoryKib } from '../run-process.js'
import { probeMemory } from './modern.js'

const memoryProbe = fileURLToPath(new URL('../memory-probe.js', import.meta.url))
const accept = 'application/json, text/event-stream'
const modernVersion = '2026-07-28'
const legacyVersion = '2025-11-25'
const modernMeta = {
  'io.modelcontextprotocol/protocolVersion': modernVersion,
  'io.modelcontextprotocol/clientCapabilities': {},
}

/**
 * Least-squares slope of y over x.
 * @param {number[]} xs
 * @param {number[]} ys
 */
export function slope(xs, ys) {
  const count = xs.length
  if (count < 2) return Number.NaN
  const meanX = xs.reduce((sum, x) => sum + x, 0) / count
  const meanY = ys.reduce((sum, y) => sum + y, 0) / count
  let covariance = 0
  let variance = 0
  for (let index = 0; index < count; index += 1) {
    covariance += (xs[index] - meanX) * (ys[index] - meanY)
    variance += (xs[index] - meanX) ** 2
  }
  return variance === 0 ? Number.NaN : covariance / variance
}

const sleep = (milliseconds) => new Promise((resolve) => setTimeout(resolve, milliseconds))

/** A POST; resolves to the status and the body text (the whole SSE stream for SSE answers). */
async function post(url, message, headers = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept, ...headers },
    body: typeof message === 'string' ? message : JSON.stringify(message),
  })
  return { status: response.status, text: await response.text(), headers: response.headers }
}

function modernHeaders(method, name) {
  return {
    'mcp-protocol-version': modernVersion,
    'mcp-method': method,
    ...(name === undefined ? {} : { 'mcp-name': name }),
  }
}

/** Opens a request, reads its first bytes, then drops it (a client that goes away). */
async function openAndDrop(url, init, holdMs) {
  const controller = new AbortController()
  const response = await fetch(url, { ...init, signal: controller.signal })
  const status = response.status
  const reader = response.body?.getReader()
  await Promise.race([reader?.read(), sleep(holdMs)])
  await sleep(holdMs)
  controller.abort()
  await reader?.cancel().catch(() => {})
  return status
}

/**
 * One load client: a long-lived 2025 session of its own, and the operations of the mix.
 * Each operation returns an error description, or undefined when the answer was the expected one.
 */
function createClient(url) {
  let session
  let nextId = 1
  const id = () => nextId++
  const legacy = () => ({ 'mcp-session-id': session, 'mcp-protocol-version': legacyVersion })

  async function openSession() {
    const opened = await post(url, {
      jsonrpc: '2.0',
      id: id(),
      method: 'initialize',
      params: {
        protocolVersion: legacyVersion,
        capabilities: {},
        clientInfo: { name: 'soak', version: '1' },
      },
    })
    const sessionId = opened.headers.get('mcp-session-id')
    if (opened.status !== 200 || sessionId === null) throw new Error(`initialize answered ${opened.status}`)
    const initialized = await post(
      url,
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { 'mcp-session-id': sessionId, 'mcp-protocol-version': legacyVersion },
    )
    if (initialized.status !== 202)
      throw new Error(`notifications/initialized answered ${initialized.status}`)
    return sessionId
  }

  const expect = (response, status, text) =>
    response.status === status && (text === undefined || response.text.includes(text))
      ? undefined
      : `HTTP ${response.status} ${response.text.slice(0, 120)}`

  /** @type {[number, () => Promise<string | undefined>][]} weight, operation */
  const operations = [
    [
      35,
      async () => {
        const echo = nextId % 2 === 0
        const response = await post(
          url,
          {
            jsonrpc: '2.0',
            id: id(),
            method: 'tools/call',
            params: echo
              ? { name: 'echo', arguments: { message: 'soak' }, _meta: modernMeta }
              : { name: 'add', arguments: { a: 2, b: 3 }, _meta: modernMeta },
          },
          modernHeaders('tools/call', echo ? 'echo' : 'add'),
        )
        return expect(response, 200, echo ? '"soak"' : '"sum":5')
      },
    ],
    [
      12,
      async () => {
        const method = [
          'tools/list',
          'resources/list',
          'prompts/list',
          'resources/templates/list',
          'server/discover',
        ][nextId % 5]
        return expect(
          await post(
            url,
            { jsonrpc: '2.0', id: id(), method, params: { _meta: modernMeta } },
            modernHeaders(method),
          ),
          200,
          '"result"',
        )
      },
    ],
    [
      10,
      async () => {
        if (nextId % 2 === 0) {
          return expect(
            await post(
              url,
              {
                jsonrpc: '2.0',
                id: id(),
                method: 'resources/read',
                params: { uri: 'demo://readme', _meta: modernMeta },
              },
              modernHeaders('resources/read', 'demo://readme'),
            ),
            200,
            'mcp-kit demo',
          )
        }
        return expect(
          await post(
            url,
            {
              jsonrpc: '2.0',
              id: id(),
              method: 'prompts/get',
              params: { name: 'greet', arguments: { name: 'soak' }, _meta: modernMeta },
            },
            modernHeaders('prompts/get', 'greet'),
          ),
          200,
          'greeting for soak',
        )
      },
    ],
    [
      15,
      async () => {
        const method = ['tools/call', 'tools/list', 'resources/read'][nextId % 3]
        const params =
          method === 'tools/call'
            ? { name: 'echo', arguments: { message: 'in a session' } }
            : method === 'resources/read'
              ? { uri: 'demo://readme' }
              : {}
        return expect(
          await post(url, { jsonrpc: '2.0', id: id(), method, params }, legacy()),
          200,
          '"result"',
        )
      },
    ],
    [
      10,
      async () => {
        const sessionId = await openSession()
        const headers = { 'mcp-session-id': sessionId, 'mcp-protocol-version': legacyVersion }
        const called = await post(
          url,
          {
            jsonrpc: '2.0',
            id: id(),
            method: 'tools/call',
            params: { name: 'add', arguments: { a: 1, b: 1 } },
          },
          headers,
        )
        const listed = await post(url, { jsonrpc: '2.0', id: id(), method: 'prompts/list' }, headers)
        const deleted = await fetch(url, { method: 'DELETE', headers })
        await deleted.arrayBuffer()
        return (
          expect(called, 200, '"sum":2') ??
          expect(listed, 200, 'greet') ??
          (deleted.status === 200 ? undefined : `DELETE answered ${deleted.status}`)
        )
      },
    ],
    [
      5,
      async () => {
        const status = await openAndDrop(url, { headers: { accept: 'text/event-stream', ...legacy() } }, 50)
        return status === 200 ? undefined : `GET stream answered ${status}`
      },
    ],
    [
      3,
      async () => {
        const status = await openAndDrop(
          url,
          {
            method: 'POST',
            headers: { 'content-type': 'application/json', accept, ...modernHeaders('subscriptions/listen') },
            body: JSON.stringify({
              jsonrpc: '2.0',
              id: id(),
              method: 'subscriptions/listen',
              params: {
                notifications: { toolsListChanged: true, resourceSubscriptions: ['demo://readme'] },
                _meta: modernMeta,
              },
            }),
          },
          50,
        )
        return status === 200 ? undefined : `subscriptions/listen answered ${status}`
      },
    ],
    [
      10,
      async () => {
        switch (nextId++ % 6) {
          case 0:
            return expect(await post(url, '{"jsonrpc":"2.0",'), 400, '-32700')
          case 1:
            return expect(
              await post(
                url,
                { jsonrpc: '2.0', id: id(), method: 'tools/list' },
                { 'content-type': 'text/plain' },
              ),
              415,
            )
          case 2:
            return expect(
              await post(
                url,
                { jsonrpc: '2.0', id: id(), method: 'tools/list' },
                { 'mcp-session-id': 'gone', 'mcp-protocol-version': legacyVersion },
              ),
              404,
            )
          case 3:
            return expect(
              await post(
                url,
                { jsonrpc: '2.0', id: id(), method: 'tools/list', params: {} },
                modernHeaders('tools/list'),
              ),
              400,
              '-32602',
            )
          case 4:
            return expect(
              await post(
                url,
                {
                  jsonrpc: '2.0',
                  id: id(),
                  method: 'tools/call',
                  params: { name: 'nope', arguments: {}, _meta: modernMeta },
                },
                modernHeaders('tools/call', 'nope'),
              ),
              200,
              '-32602',
            )
          default:
            return expect(
              await post(url, [{ jsonrpc: '2.0', id: id(), method: 'ping' }], legacy()),
              400,
              '-32600',
            )
        }
      },
    ],
  ]
  const total = operations.reduce((sum, [weight]) => sum + weight, 0)
  let turn = 0
  return {
    async start() {
      session = await openSession()
    },
    /** The next operation of the mix (a fixed, interleaved order: the load is the same every run). */
    async next() {
      // Walk the weights with a stride coprime to the total, so kinds interleave evenly.
      turn = (turn + 37) % total
      let left = turn
      for (const [weight, operation] of operations) {
        if (left < weight) return operation()
        left -= weight
      }
      return undefined
    },
  }
}

/** @type {import('../main.js').Measurement} */
export async function measureSoak(context, options, log) {
  const memoryFile = join(tmpdir(), `mcp-kit-soak-${process.pid}-${Date.now()}.ndjson`)
  const server = await startHttpServer({
    label: 'mcp-kit serve (soak)',
    command: context.node,
    args: ['--expose-gc', '--import', memoryProbe, context.kitBin, 'serve', '--port', '0'],
    env: { ...context.env, MCP_KIT_BENCH_MEMORY_FILE: memoryFile },
  })
  const clients = Array.from({ length: options.soakClients }, () => createClient(server.url))
  let operations = 0
  let errors = 0
  const errorExamples = []
  const samples = []
  let stopping = false
  try {
    for (const client of clients) await client.start()
    // Operations are spread evenly over time at the target rate, shared by all clients.
    const interval = 1000 / options.soakRate
    let nextAt = performance.now()
    const runClient = async (client) => {
      while (!stopping) {
        const at = nextAt
        nextAt += interval
        const wait = at - performance.now()
        if (wait > 0) await sleep(wait)
        if (stopping) return
        let problem
        try {
          problem = await client.next()
        } catch (error) {
          problem = error instanceof Error ? error.message : String(error)
        }
        operations += 1
        if (problem !== undefined) {
          errors += 1
          if (errorExamples.length < 5) errorExamples.push(problem)
        }
      }
    }
    const load = Promise.all(clients.map(runClient))
    const started = performance.now()
    const warmupMs = options.soakWarmupSeconds * 1000
    const endMs = warmupMs + options.soakMinutes * 60_000
    log(
      `  ${options.soakMinutes} min of mixed load at ${options.soakRate} operations/s after ${options.soakWarmupSeconds} s of warm-up, sampling every ${options.soakIntervalSeconds} s`,
    )
    await sleep(warmupMs)
    const operationsAfterWarmup = operations
    const measuredFrom = performance.now()
    let nextSample = measuredFrom
    let lastLog = measuredFrom
    while (performance.now() - started <= endMs) {
      const wait = nextSample - performance.now()
      if (wait > 0) await sleep(wait)
      const minutes = (performance.now() - measuredFrom) / 60_000
      const heap = await probeMemory(server.pid, memoryFile)
      const rssKib = readMemoryKib(server.pid, 'VmRSS')
      if (rssKib === undefined) throw new Error('the server is gone')
      samples.push({
        minutes,
        rssKib,
        heapKib: heap.heapUsed / 1024,
        externalKib: heap.external / 1024,
        operations,
      })
      if (performance.now() - lastLog >= 60_000) {
        lastLog = performance.now()
        log(
          `  ${minutes.toFixed(1)} min: RSS ${(rssKib / 1024).toFixed(1)} MiB, heap ${(heap.heapUsed / 2 ** 20).toFixed(1)} MiB, ${operations} operations, ${errors} errors`,
        )
      }
      nextSample += options.soakIntervalSeconds * 1000
    }
    stopping = true
    await load
    const seconds = (performance.now() - measuredFrom) / 1000
    const rate = (operations - operationsAfterWarmup) / seconds
    if (errors > 0) log(`  ${errors} unexpected answers, e.g. ${errorExamples.join(' | ')}`)
    if (errors > operations / 1000) {
      throw new Error(
        `${errors} of ${operations} operations got an unexpected answer: ${errorExamples.join(' | ')}`,
      )
    }
    const minutes = samples.map((sample) => sample.minutes)
    const first = samples[0]
    const last = samples[samples.length - 1]
    const rssSlope = slope(
      minutes,
      samples.map((sample) => sample.rssKib),
    )
    const heapSlope = slope(
      minutes,
      samples.map((sample) => sample.heapKib),
    )
    // Memory settles for a while after start: the second half's slope says where it is heading.
    const secondHalf = samples.slice(Math.floor(samples.length / 2))
    const lateSlope = (field) =>
      slope(
        secondHalf.map((sample) => sample.minutes),
        secondHalf.map((sample) => sample[field]),
      ).toFixed(0)
    const common = `${samples.length} samples over ${options.soakMinutes} min at ${rate.toFixed(0)} operations/s (${errors} unexpected answers)`
    const rssRow = makeRow({
      id: 'soak-rss-slope',
      group: 'soak',
      name: 'soak: RSS slope of serve',
      unit: 'KiB/min',
      kit: [rssSlope],
      note: `RSS ${(first.rssKib / 1024).toFixed(1)} → ${(last.rssKib / 1024).toFixed(1)} MiB, second half ${lateSlope('rssKib')} KiB/min; ${common}`,
    })
    const heapRow = makeRow({
      id: 'soak-heap-slope',
      group: 'soak',
      name: 'soak: live heap slope of serve',
      unit: 'KiB/min',
      kit: [heapSlope],
      note: `heap after GC ${(first.heapKib / 1024).toFixed(1)} → ${(last.heapKib / 1024).toFixed(1)} MiB, second half ${lateSlope('heapKib')} KiB/min; ${common}`,
    })
    const rateRow = makeRow({
      id: 'soak-rate',
      group: 'soak',
      name: 'soak: mixed operations served',
      unit: 'op/s',
      kit: [rate],
      note: `${operations} operations (1–5 requests each), ${options.soakClients} clients`,
    })
    return [{ ...rssRow, series: samples }, heapRow, rateRow]
  } finally {
    stopping = true
    await server.stop()
    rmSync(memoryFile, { force: true })
  }
}
