// `tools/call echo` under autocannon on one instance, Redis store against memory store, a fresh
// server per store per round, the stores interleaved round by round: 2026 stateless calls (which
// should not touch Redis) and calls in one 2025-11-25 session (each request reads its session
// record from the store).

import { checkEcho, loadEcho, openSession } from '../../http-session.js'
import { loadModernEcho } from '../../modern-http.js'
import { median } from '../../statistics.js'
import { cpuTicks } from '../modern.js'
import { sessionVersion, storeKinds, storeNames, storeRow, withStoreServer } from './server.js'

/**
 * @typedef {{ requestsPerSecond: number, requests: number, latencyP50: number, latencyP99: number }} LoadResult
 * @typedef {Record<'requestsPerSecond' | 'p50' | 'p99' | 'cpuMicroseconds', number[]>} LoadSamples
 */

/**
 * Rounds of load on fresh servers: `prepare` readies a server and returns how to load it for a
 * number of seconds (a warm-up first, then the measured load).
 * @param {import('../../context.js').Context} context
 * @param {import('../../options.js').BenchOptions} options
 * @param {(line: string) => void} log
 * @param {string} what
 * @param {(server: import('./server.js').StoreServer) => Promise<(seconds: number) => Promise<LoadResult>>} prepare
 * @returns {Promise<Record<import('./server.js').StoreKind, LoadSamples>>}
 */
async function loadRounds(context, options, log, what, prepare) {
  const samples = () => ({ requestsPerSecond: [], p50: [], p99: [], cpuMicroseconds: [] })
  const results = { redis: samples(), memory: samples() }
  for (let round = 0; round < options.httpRounds; round++) {
    for (const kind of storeKinds) {
      await withStoreServer(context, options, kind, async (server) => {
        const load = await prepare(server)
        if (options.httpWarmupSeconds > 0) await load(options.httpWarmupSeconds)
        const ticks = cpuTicks(server.pid)
        const result = await load(options.httpSeconds)
        // CPU time per request hardly moves when another process takes a core for a while (this
        // machine's cores are shared); requests per second does.
        const cpuMicroseconds = ((cpuTicks(server.pid) - ticks) * 10_000) / result.requests
        results[kind].requestsPerSecond.push(result.requestsPerSecond)
        results[kind].p50.push(result.latencyP50)
        results[kind].p99.push(result.latencyP99)
        results[kind].cpuMicroseconds.push(cpuMicroseconds)
        log(
          `  round ${round + 1}: ${what}, ${storeNames[kind]} ${result.requestsPerSecond.toFixed(0)} req/s, p50 ${result.latencyP50.toFixed(2)} ms, p99 ${result.latencyP99.toFixed(2)} ms, server CPU ${cpuMicroseconds.toFixed(1)} µs per call`,
        )
      })
    }
  }
  return results
}

/** `Redis store 0.41 ms, memory store 0.38 ms` of one statistic. */
function bothStores(results, statistic, digits, unit) {
  return storeKinds
    .map((kind) => `${storeNames[kind]} ${median(results[kind][statistic]).toFixed(digits)} ${unit}`)
    .join(', ')
}

/** 2026 tools/call echo: throughput, p99 and server CPU per call. */
export async function measureThroughput(context, options, log, [throughputRow, p99Row, cpuRow]) {
  const load = { connections: options.httpConnections }
  const results = await loadRounds(
    context,
    options,
    log,
    '2026',
    async (server) => (seconds) => loadModernEcho(server.url, { ...load, seconds }),
  )
  return [
    storeRow(
      throughputRow,
      results.redis.requestsPerSecond,
      results.memory.requestsPerSecond,
      'one instance, bench registry; --store redis://… vs no --store; a 2026 call should not touch Redis',
    ),
    storeRow(p99Row, results.redis.p99, results.memory.p99, `p50: ${bothStores(results, 'p50', 2, 'ms')}`),
    storeRow(
      cpuRow,
      results.redis.cpuMicroseconds,
      results.memory.cpuMicroseconds,
      'user + system CPU of the server process (all threads) during the measured load ÷ requests answered',
    ),
  ]
}

/**
 * tools/call echo in one 2025-11-25 session (plain JSON answers), the http rows' method: every
 * connection sends through the same session. Throughput and p99; server CPU in the note.
 */
export async function measureSessionThroughput(context, options, log, [throughputRow, p99Row]) {
  const load = { connections: options.httpConnections }
  const results = await loadRounds(context, options, log, sessionVersion, async (server) => {
    const session = await openSession(server.url, { protocolVersion: sessionVersion })
    if (session.protocolVersion !== sessionVersion)
      throw new Error(`the server agreed on ${session.protocolVersion}, not ${sessionVersion}`)
    await checkEcho(session)
    return (seconds) => loadEcho(session, { ...load, seconds })
  })
  return [
    storeRow(
      throughputRow,
      results.redis.requestsPerSecond,
      results.memory.requestsPerSecond,
      `one instance, one session, JSON answers; on Redis an instance reads (GETEX) the session record at most once a second while it is busy; server CPU per call: ${bothStores(results, 'cpuMicroseconds', 1, 'µs')}`,
    ),
    storeRow(p99Row, results.redis.p99, results.memory.p99, `p50: ${bothStores(results, 'p50', 2, 'ms')}`),
  ]
}
