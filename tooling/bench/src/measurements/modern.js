// The 2026-07-28 rows, against the MCP SDK v2 (`@modelcontextprotocol/client`, `/server`, `/node`):
// - inspect-2026: `mcp-kit inspect` of the SDK v2 HTTP server (anchors/sdk-v2-http-server.js)
//   against the SDK v2 client in `auto` version negotiation doing the same lists
//   (anchors/sdk-v2-inspect.js), one server for both, runs interleaved.
// - http-2026: stateless `tools/call echo` throughput, each request a 2026 request (its `_meta`
//   envelope, the Mcp-Method/Mcp-Name headers), `mcp-kit serve servers/bench-registry.js` against
//   the SDK v2 server with the same tools, a fresh server per round, the same autocannon load.
// - memory-2026: the resident memory one 2026 request in flight holds in each server (below).

import { existsSync, readFileSync, rmSync } from 'node:fs'
import net from 'node:net'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { startHttpServer } from '../http-server-process.js'
import {
  checkToolCall,
  loadModernEcho,
  modernVersion,
  toolCallBody,
  toolCallHeaders,
} from '../modern-http.js'
import { makeRow } from '../rows.js'
import { readMemoryKib } from '../run-process.js'
import { median } from '../statistics.js'
import { expectToolsJson, timeCommands } from './process-timing.js'

const serverNames = {
  kit: 'mcp-kit serve',
  sdk: 'SDK v2 createMcpHandler',
}

const memoryProbe = fileURLToPath(new URL('../memory-probe.js', import.meta.url))

/**
 * @param {import('../context.js').Context} context
 * @param {'kit' | 'sdk'} kind
 * @param {string} [memoryFile]  load the memory probe, writing to this file
 */
function serverCommand(context, kind, memoryFile) {
  const script =
    kind === 'kit'
      ? [context.kitBin, 'serve', context.servers.benchRegistry, '--port', '0']
      : [context.anchors.sdkV2HttpServer, '0']
  return {
    label: kind === 'kit' ? 'mcp-kit serve (bench registry)' : 'SDK v2 anchor server',
    command: context.node,
    args: memoryFile === undefined ? script : ['--expose-gc', '--import', memoryProbe, ...script],
    env: memoryFile === undefined ? context.env : { ...context.env, MCP_KIT_BENCH_MEMORY_FILE: memoryFile },
  }
}

/**
 * Starts a fresh server, checks one 2026 call, runs `body`, and always stops the server.
 * @template T
 * @param {import('../context.js').Context} context
 * @param {'kit' | 'sdk'} kind
 * @param {(server: { url: string, pid: number }) => Promise<T>} body
 * @param {string} [memoryFile]
 * @returns {Promise<T>}
 */
async function withServer(context, kind, body, memoryFile) {
  const server = await startHttpServer(serverCommand(context, kind, memoryFile))
  try {
    await checkToolCall(server.url, 'echo', { message: 'bench' }, 'bench')
    return await body(server)
  } finally {
    await server.stop()
  }
}

/** A check that the output is an inspect document of a server spoken to in 2026-07-28. */
function expectModernDocument(stdout) {
  expectToolsJson(stdout)
  const { protocolVersion } = JSON.parse(stdout.toString('utf8'))
  if (protocolVersion !== modernVersion)
    throw new Error(`expected ${modernVersion}, spoke ${protocolVersion}`)
}

/** @type {import('../main.js').Measurement} */
export async function measureInspectModern(context, options, log) {
  const server = await startHttpServer(serverCommand(context, 'sdk'))
  let samples
  try {
    await checkToolCall(server.url, 'echo', { message: 'bench' }, 'bench')
    samples = await timeCommands(
      context,
      [
        {
          key: 'kit',
          label: 'mcp-kit inspect of the SDK v2 server',
          command: context.node,
          args: [context.kitBin, 'inspect', `mcp+${server.url}`, '--format', 'json'],
          check: expectModernDocument,
        },
        {
          key: 'sdk',
          label: 'SDK v2 client script (auto) on the SDK v2 server',
          command: context.node,
          args: [context.anchors.sdkV2Inspect, server.url],
          check: expectModernDocument,
        },
      ],
      { runs: options.runs, warmup: options.warmup, log },
    )
  } finally {
    await server.stop()
  }
  return [
    makeRow({
      id: 'inspect-2026-sdk-v2',
      group: 'inspect-2026',
      name: 'inspect of an SDK v2 server (2026-07-28, HTTP)',
      unit: 'ms',
      kit: samples.kit.wallMs,
      anchor: { name: 'SDK v2 client script, auto', samples: samples.sdk.wallMs },
      target: { op: '<=', value: 1.0 },
      note: 'both negotiate 2026-07-28 (server/discover), then list tools, resources, templates, prompts',
    }),
  ]
}

/** @type {import('../main.js').Measurement} */
export async function measureHttpModern(context, options, log) {
  /** @type {Record<'kit' | 'sdk', { requestsPerSecond: number[], p50: number[], p99: number[], peakRssMib: number[] }>} */
  const results = {
    kit: { requestsPerSecond: [], p50: [], p99: [], peakRssMib: [] },
    sdk: { requestsPerSecond: [], p50: [], p99: [], peakRssMib: [] },
  }
  const load = { connections: options.httpConnections, seconds: options.httpSeconds }
  for (let round = 0; round < options.httpRounds; round++) {
    for (const kind of /** @type {const} */ (['kit', 'sdk'])) {
      await withServer(context, kind, async (server) => {
        if (options.httpWarmupSeconds > 0) {
          await loadModernEcho(server.url, { ...load, seconds: options.httpWarmupSeconds })
        }
        const result = await loadModernEcho(server.url, load)
        results[kind].requestsPerSecond.push(result.requestsPerSecond)
        results[kind].p50.push(result.latencyP50)
        results[kind].p99.push(result.latencyP99)
        results[kind].peakRssMib.push((readMemoryKib(server.pid, 'VmHWM') ?? Number.NaN) / 1024)
        log(
          `  round ${round + 1}: ${serverNames[kind]} ${result.requestsPerSecond.toFixed(0)} req/s, p50 ${result.latencyP50.toFixed(2)} ms, p99 ${result.latencyP99.toFixed(2)} ms`,
        )
      })
    }
  }
  const settings = `${options.httpConnections} connections, ${options.httpSeconds} s`
  const anchor = (key) => ({ name: serverNames.sdk, samples: results.sdk[key] })
  return [
    makeRow({
      id: 'http-2026-throughput',
      group: 'http-2026',
      name: `2026 stateless tools/call echo throughput (${settings})`,
      unit: 'req/s',
      kit: results.kit.requestsPerSecond,
      anchor: anchor('requestsPerSecond'),
      target: { op: '>=', value: 3.0 },
      note: 'every request: _meta envelope, Mcp-Method/Mcp-Name headers, no session',
    }),
    makeRow({
      id: 'http-2026-latency-p50',
      group: 'http-2026',
      name: `2026 tools/call latency p50 (${options.httpConnections} connections)`,
      unit: 'ms',
      kit: results.kit.p50,
      anchor: anchor('p50'),
    }),
    makeRow({
      id: 'http-2026-latency-p99',
      group: 'http-2026',
      name: `2026 tools/call latency p99 (${options.httpConnections} connections)`,
      unit: 'ms',
      kit: results.kit.p99,
      anchor: anchor('p99'),
    }),
    makeRow({
      id: 'http-2026-peak-rss',
      group: 'http-2026',
      name: 'peak RSS of the server under that load',
      unit: 'MiB',
      kit: results.kit.peakRssMib,
      anchor: anchor('peakRssMib'),
    }),
  ]
}

/** CPU time (user + system, in clock ticks: 1/100 s) the process has used so far, all its threads. */
export function cpuTicks(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  // Fields after the command name (which may hold spaces) start at field 3.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return Number(fields[11]) + Number(fields[12])
}

/** Resolves once the process has used no CPU for `quietMs` (all work taken in, all parked). */
export async function untilIdle(pid, { quietMs = 150, limitMs = 30_000 } = {}) {
  const deadline = Date.now() + limitMs
  let last = cpuTicks(pid)
  let quietSince = Date.now()
  while (Date.now() < deadline) {
    await delay(25)
    const now = cpuTicks(pid)
    if (now !== last) {
      last = now
      quietSince = Date.now()
    } else if (Date.now() - quietSince >= quietMs) return
  }
  throw new Error(`process ${pid} did not go idle within ${limitMs} ms`)
}

/**
 * Opens `count` TCP connections to the server (100 at a time, so the listen backlog never
 * overflows) and sends nothing yet: a connection waiting for its first request.
 * @param {URL} url
 * @param {number} count
 * @returns {Promise<net.Socket[]>}
 */
async function openConnections(url, count) {
  /** @type {net.Socket[]} */
  const sockets = []
  for (let start = 0; start < count; start += 100) {
    const batch = Array.from(
      { length: Math.min(100, count - start) },
      () =>
        new Promise((resolve, reject) => {
          const socket = net.connect(Number(url.port), url.hostname)
          socket.once('connect', () => resolve(socket)).once('error', reject)
        }),
    )
    sockets.push(...(await Promise.all(batch)))
  }
  return sockets
}

/**
 * Sends one 2026 `tools/call wait` on each socket (`Connection: close`, so the server ends the
 * connection after its answer) and reads the answers.
 * @param {URL} url
 * @param {net.Socket[]} sockets
 * @param {number} ms  how long each call waits in the server
 */
function waitCalls(url, sockets, ms) {
  const expected = `waited ${ms} ms`
  let answered = 0
  const sent = []
  const done = sockets.map((socket, index) => {
    const body = toolCallBody(index + 1, 'wait', { ms })
    const headers = {
      ...toolCallHeaders('wait'),
      host: url.host,
      connection: 'close',
      'content-length': Buffer.byteLength(body),
    }
    const head = Object.entries(headers)
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('')
    sent.push(
      new Promise((resolve) => socket.write(`POST ${url.pathname} HTTP/1.1\r\n${head}\r\n${body}`, resolve)),
    )
    return new Promise((resolve, reject) => {
      const chunks = []
      socket.on('data', (chunk) => chunks.push(chunk))
      socket.once('error', reject)
      socket.once('end', () => {
        answered++
        const text = Buffer.concat(chunks).toString('utf8')
        if (!text.startsWith('HTTP/1.1 200') || !text.includes(expected)) {
          reject(new Error(`wait answered: ${text.slice(0, 300)}`))
        } else resolve(undefined)
        socket.destroy()
      })
    })
  })
  return { sent: Promise.all(sent), answered: Promise.all(done), count: () => answered }
}

/**
 * Has the memory probe in a server collect garbage and report process.memoryUsage().
 * @param {number} pid
 * @param {string} file
 * @returns {Promise<NodeJS.MemoryUsage>}
 */
export async function probeMemory(pid, file) {
  rmSync(file, { force: true })
  process.kill(pid, 'SIGUSR2')
  const deadline = Date.now() + 10_000
  while (Date.now() < deadline) {
    await delay(20)
    if (!existsSync(file)) continue
    try {
      return JSON.parse(readFileSync(file, 'utf8'))
    } catch {
      // being written
    }
  }
  throw new Error(`process ${pid} did not report its memory (is the probe loaded?)`)
}

/**
 * Memory per 2026 request in flight. Each server runs with the memory probe (memory-probe.js).
 * N `wait 0` calls, twice, load and compile whatever the server loads lazily. Then N connections
 * are opened and left waiting for their first request; once the server is idle the probe collects
 * garbage and reports. One `tools/call wait` goes out on each connection, parking in the server
 * for a few seconds; once the server has taken them all in (no CPU used for 150 ms, none answered
 * yet) the probe reports again. The row is the growth of live memory (V8 heap used + external
 * memory, after full garbage collections) ÷ N: what one request held by a slow tool costs, its
 * connection excluded. The note gives the RSS after collection, idle and with N in flight.
 * @type {import('../main.js').Measurement}
 */
export async function measureMemoryModern(context, options, log) {
  const count = options.inFlightRequests
  const holdMs = options.inFlightHoldMs
  const memoryFile = join(context.home, 'memory-probe.json')
  /** @type {Record<'kit' | 'sdk', { perRequestKib: number[], idleRssMib: number[], loadedRssMib: number[] }>} */
  const results = {
    kit: { perRequestKib: [], idleRssMib: [], loadedRssMib: [] },
    sdk: { perRequestKib: [], idleRssMib: [], loadedRssMib: [] },
  }
  const live = (usage) => usage.heapUsed + usage.external
  for (let round = 0; round < options.inFlightRounds; round++) {
    for (const kind of /** @type {const} */ (['kit', 'sdk'])) {
      await withServer(
        context,
        kind,
        async (server) => {
          const url = new URL(server.url)
          /** @type {net.Socket[]} */
          let sockets = []
          try {
            for (let warmup = 0; warmup < 2; warmup++) {
              sockets = await openConnections(url, count)
              await waitCalls(url, sockets, 0).answered
            }
            sockets = await openConnections(url, count)
            await untilIdle(server.pid)
            const idle = await probeMemory(server.pid, memoryFile)
            const calls = waitCalls(url, sockets, holdMs)
            await calls.sent
            await untilIdle(server.pid)
            const loaded = await probeMemory(server.pid, memoryFile)
            if (calls.count() > 0) {
              throw new Error(
                `${serverNames[kind]}: calls were answered before all ${count} were in; raise --in-flight-hold`,
              )
            }
            await calls.answered
            const perRequestKib = (live(loaded) - live(idle)) / 1024 / count
            results[kind].perRequestKib.push(perRequestKib)
            results[kind].idleRssMib.push(idle.rss / 2 ** 20)
            results[kind].loadedRssMib.push(loaded.rss / 2 ** 20)
            log(
              `  round ${round + 1}: ${serverNames[kind]} live ${(live(idle) / 2 ** 20).toFixed(1)} → ${(live(loaded) / 2 ** 20).toFixed(1)} MiB (RSS ${(idle.rss / 2 ** 20).toFixed(1)} → ${(loaded.rss / 2 ** 20).toFixed(1)} MiB), ${perRequestKib.toFixed(1)} KiB per request in flight`,
            )
          } finally {
            for (const socket of sockets) socket.destroy()
          }
        },
        memoryFile,
      )
    }
  }
  const rss = (kind) =>
    `${serverNames[kind]} ${median(results[kind].idleRssMib).toFixed(1)} → ${median(results[kind].loadedRssMib).toFixed(1)} MiB`
  return [
    makeRow({
      id: 'memory-2026-in-flight',
      group: 'memory-2026',
      name: `live memory per 2026 request in flight (${count.toLocaleString('en-US')} at once, after GC)`,
      unit: 'KiB',
      kit: results.kit.perRequestKib,
      anchor: { name: serverNames.sdk, samples: results.sdk.perRequestKib },
      note: `V8 heap used + external after full GCs, ${count} open connections idle vs each with a tools/call parked; RSS: ${rss('kit')}; ${rss('sdk')}`,
    }),
  ]
}

function delay(milliseconds) {
  return new Promise((resolve) => setTimeout(resolve, milliseconds))
}
