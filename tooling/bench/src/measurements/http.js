// Row 5 and the HTTP memory rows: tools/call echo throughput and latency of `mcp-kit serve --port`
// against the SDK's recommended stateful server and a bare node:http ceiling, all driven by the
// same autocannon settings on one session; peak RSS of each server under that load; and the
// memory an idle session costs.

import { startHttpServer } from '../http-server-process.js'
import { checkEcho, loadEcho, openSession, openSessions } from '../http-session.js'
import { makeRow } from '../rows.js'
import { readMemoryKib } from '../run-process.js'

/**
 * @param {import('../context.js').Context} context
 * @param {'kit' | 'sdk' | 'bare'} kind
 * @param {{ maxSessions?: number }} [settings]
 */
function serverCommand(context, kind, { maxSessions } = {}) {
  if (kind === 'kit') {
    const args = [context.kitBin, 'serve', '--port', '0']
    if (maxSessions)
      args.push('--max-sessions', String(maxSessions), '--max-sessions-per-client', String(maxSessions))
    return { label: 'mcp-kit serve', command: context.node, args, env: context.env }
  }
  const script = kind === 'sdk' ? context.anchors.sdkHttpServer : context.anchors.bareHttpServer
  return { label: `${kind} anchor server`, command: context.node, args: [script, '0'], env: context.env }
}

/**
 * Starts a fresh server, runs `body` with a verified session, and always stops the server.
 * @template T
 * @param {import('../context.js').Context} context
 * @param {'kit' | 'sdk' | 'bare'} kind
 * @param {(server: { url: string, pid: number }, session: import('../http-session.js').Session) => Promise<T>} body
 * @param {{ maxSessions?: number }} [settings]
 * @returns {Promise<T>}
 */
async function withServer(context, kind, body, settings) {
  const server = await startHttpServer(serverCommand(context, kind, settings))
  try {
    // The bare ceiling has no sessions: any session id header is answered the same way.
    const session =
      kind === 'bare'
        ? { url: server.url, sessionId: 'bare', protocolVersion: '2025-06-18' }
        : await openSession(server.url)
    await checkEcho(session)
    return await body(server, session)
  } finally {
    await server.stop()
  }
}

const serverNames = {
  kit: 'mcp-kit serve',
  sdk: 'SDK McpServer + StreamableHTTPServerTransport',
  bare: 'bare node:http',
}

/** @type {import('../main.js').Measurement} */
export async function measureHttp(context, options, log) {
  /** @type {Record<'kit' | 'sdk' | 'bare', { requestsPerSecond: number[], peakRssMib: number[] }>} */
  const throughput = {
    kit: { requestsPerSecond: [], peakRssMib: [] },
    sdk: { requestsPerSecond: [], peakRssMib: [] },
    bare: { requestsPerSecond: [], peakRssMib: [] },
  }
  for (let round = 0; round < options.httpRounds; round++) {
    for (const kind of /** @type {const} */ (['kit', 'sdk', 'bare'])) {
      await withServer(context, kind, async (server, session) => {
        if (options.httpWarmupSeconds > 0) {
          await loadEcho(session, {
            connections: options.httpConnections,
            seconds: options.httpWarmupSeconds,
          })
        }
        const result = await loadEcho(session, {
          connections: options.httpConnections,
          seconds: options.httpSeconds,
        })
        throughput[kind].requestsPerSecond.push(result.requestsPerSecond)
        throughput[kind].peakRssMib.push((readMemoryKib(server.pid, 'VmHWM') ?? Number.NaN) / 1024)
        log(`  round ${round + 1}: ${serverNames[kind]} ${result.requestsPerSecond.toFixed(0)} req/s`)
      })
    }
  }

  /** @type {Record<'kit' | 'sdk', Record<number, { p50: number[], p99: number[] }>>} */
  const latency = { kit: {}, sdk: {} }
  for (let round = 0; round < options.latencyRounds; round++) {
    for (const kind of /** @type {const} */ (['kit', 'sdk'])) {
      await withServer(context, kind, async (_server, session) => {
        if (options.httpWarmupSeconds > 0) {
          await loadEcho(session, {
            connections: options.httpConnections,
            seconds: options.httpWarmupSeconds,
          })
        }
        for (const connections of options.latencyConnections) {
          const result = await loadEcho(session, { connections, seconds: options.latencySeconds })
          latency[kind][connections] ??= { p50: [], p99: [] }
          latency[kind][connections].p50.push(result.latencyP50)
          latency[kind][connections].p99.push(result.latencyP99)
        }
      })
    }
  }

  const settings = `${options.httpConnections} connections, ${options.httpSeconds} s, one session`
  return [
    makeRow({
      id: 'http-sdk',
      group: 'http',
      name: `HTTP tools/call echo throughput (${settings})`,
      unit: 'req/s',
      kit: throughput.kit.requestsPerSecond,
      anchor: { name: serverNames.sdk, samples: throughput.sdk.requestsPerSecond },
      target: { op: '>=', value: 2.0 },
    }),
    makeRow({
      id: 'http-bare',
      group: 'http',
      name: 'HTTP throughput as a fraction of the ceiling',
      unit: 'req/s',
      kit: throughput.kit.requestsPerSecond,
      anchor: { name: serverNames.bare, samples: throughput.bare.requestsPerSecond },
      note: 'bare node:http JSON echo, no MCP: the most any server can do on this machine',
    }),
    ...options.latencyConnections.flatMap((connections) =>
      /** @type {const} */ (['p50', 'p99']).map((percentile) =>
        makeRow({
          id: `http-latency-${connections}-${percentile}`,
          group: 'http',
          name: `HTTP latency ${percentile}, ${connections} connection${connections === 1 ? '' : 's'}`,
          unit: 'ms',
          kit: latency.kit[connections][percentile],
          anchor: { name: serverNames.sdk, samples: latency.sdk[connections][percentile] },
        }),
      ),
    ),
    makeRow({
      id: 'memory-serve-load',
      group: 'memory',
      name: 'peak RSS of serve under the throughput load',
      unit: 'MiB',
      kit: throughput.kit.peakRssMib,
      anchor: { name: serverNames.sdk, samples: throughput.sdk.peakRssMib },
      note: `bare node:http: ${median(throughput.bare.peakRssMib).toFixed(1)} MiB`,
    }),
  ]
}

function median(values) {
  const sorted = [...values].sort((left, right) => left - right)
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN
}

/** @type {import('../main.js').Measurement} */
export async function measureSessionMemory(context, options, log) {
  const warmupSessions = 10
  /** @type {Record<'kit' | 'sdk', number[]>} */
  const perSessionKib = { kit: [], sdk: [] }
  for (let round = 0; round < options.sessionRounds; round++) {
    for (const kind of /** @type {const} */ (['kit', 'sdk'])) {
      await withServer(
        context,
        kind,
        async (server) => {
          // Warm-up sessions load whatever a first session loads lazily, so it is not counted.
          for (const session of await openSessions(server.url, warmupSessions)) await checkEcho(session)
          await delay(300)
          const before = readMemoryKib(server.pid, 'VmRSS') ?? Number.NaN
          const sessions = await openSessions(server.url, options.sessions)
          await delay(500)
          const after = readMemoryKib(server.pid, 'VmRSS') ?? Number.NaN
          // The sessions must still be alive (not refused, evicted or expired) to count.
          await checkEcho(sessions[0])
          await checkEcho(sessions[sessions.length - 1])
          perSessionKib[kind].push((after - before) / options.sessions)
          log(
            `  round ${round + 1}: ${serverNames[kind]} ${((after - before) / options.sessions).toFixed(1)} KiB/session`,
          )
        },
        // mcp-kit serve caps live sessions (1000 by default); raise the cap above what is opened.
        { maxSessions: options.sessions + warmupSessions + 100 },
      )
    }
  }
  return [
    makeRow({
      id: 'memory-session',
      group: 'memory',
      name: `memory per idle HTTP session (${options.sessions.toLocaleString('en-US')} sessions, RSS delta)`,
      unit: 'KiB',
      kit: perSessionKib.kit,
      anchor: { name: serverNames.sdk, samples: perSessionKib.sdk },
    }),
  ]
}

function delay(milliseconds) {
  return new Promise((resolve) => setTimeout(resolve, milliseconds))
}
