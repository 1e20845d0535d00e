// The store rows (`--only store`): what keeping shared state on Redis costs one `mcp-kit serve`
// instance, against the same instance on its in-memory store (the anchor). Every Redis instance
// gets its own key prefix (`mcp-kit-bench:<uuid>:`), deleted when it stops.
// - 2026 `tools/call echo` throughput and p99 under autocannon, fresh servers, rounds interleaved.
// - Task round trips (`echo_task` runs as a task and finishes at once, so the store is what is
//   timed): creation → `tasks/get` at once until the completed result is seen, one at a time; and
//   tasks completed per second with 10 clients.
// - Live memory per finished task kept: 10,000 tasks run to completion, then the server's heap
//   after GC (the memory probe) minus its idle baseline; Redis's own used_memory growth too.
// - Redis commands per operation, counted with MONITOR on the commands of the instance's own
//   Redis connections (other clients of the same Redis are left out) for a 2026 call, a task
//   round trip and a 2025 session call.
// Without a Redis answering, every row fails at once with a message naming the URL.

import { randomUUID } from 'node:crypto'
import { readdirSync, readFileSync, readlinkSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { startHttpServer } from '../http-server-process.js'
import { checkEcho, openSession } from '../http-session.js'
import { checkToolCall, getTask, loadModernEcho, taskRoundTrip } from '../modern-http.js'
import { connectRedis } from '../redis-connection.js'
import { failedRow, makeRow } from '../rows.js'
import { median } from '../statistics.js'
import { cpuTicks, probeMemory, untilIdle } from './modern.js'

const storeNames = { redis: 'Redis store', memory: 'memory store' }
const anchorName = 'same server, memory store'
const memoryProbe = fileURLToPath(new URL('../memory-probe.js', import.meta.url))
/** How many task round trips run at once in the rate and memory rows. */
const taskClients = 10

/**
 * @param {import('../context.js').Context} context
 * @param {import('../options.js').BenchOptions} options
 * @param {'redis' | 'memory'} kind
 * @param {{ prefix?: string, memoryFile?: string }} settings
 */
function serverCommand(context, options, kind, { prefix, memoryFile }) {
  // Finished tasks must outlive the memory row; the bench deletes its prefix afterwards anyway.
  const serve = [context.kitBin, 'serve', context.servers.benchRegistry, '--port', '0', '--task-keep', '3600']
  if (kind === 'redis')
    serve.push('--store', options.redisUrl, '--store-prefix', /** @type {string} */ (prefix))
  // A store set in the environment must not turn the memory side into a Redis one.
  const { MCP_KIT_STORE: _ignored, ...env } = context.env
  return {
    label: `mcp-kit serve (${storeNames[kind]})`,
    command: context.node,
    args: memoryFile === undefined ? serve : ['--expose-gc', '--import', memoryProbe, ...serve],
    env: memoryFile === undefined ? env : { ...env, MCP_KIT_BENCH_MEMORY_FILE: memoryFile },
  }
}

/**
 * Starts a fresh server on the store, checks one 2026 call, runs `body`, stops the server and
 * deletes what it left in Redis.
 * @template T
 * @param {import('../context.js').Context} context
 * @param {import('../options.js').BenchOptions} options
 * @param {'redis' | 'memory'} kind
 * @param {(server: { url: string, pid: number, prefix: string | undefined }) => Promise<T>} body
 * @param {{ memoryFile?: string }} [settings]
 * @returns {Promise<T>}
 */
async function withStoreServer(context, options, kind, body, { memoryFile } = {}) {
  const prefix = kind === 'redis' ? `mcp-kit-bench:${randomUUID()}:` : undefined
  const server = await startHttpServer(serverCommand(context, options, kind, { prefix, memoryFile }))
  try {
    await checkToolCall(server.url, 'echo', { message: 'bench' }, 'bench')
    return await body({ ...server, prefix })
  } finally {
    await server.stop()
    if (prefix !== undefined) {
      const redis = await connectRedis(options.redisUrl)
      try {
        await redis.deletePrefix(prefix)
      } finally {
        redis.close()
      }
    }
  }
}

/**
 * Task round trips of `echo_task`, `clients` at a time, until `count` are done or `until`
 * (hrtime ms) has passed. Every answer is checked.
 * @param {string} url
 * @param {{ count?: number, until?: number, clients: number }} settings
 */
async function runTasks(
  url,
  { count = Number.POSITIVE_INFINITY, until = Number.POSITIVE_INFINITY, clients },
) {
  /** @type {number[]} */
  const times = []
  /** @type {string | undefined} */
  let firstTaskId
  let polls = 0
  let started = 0
  const now = () => Number(process.hrtime.bigint()) / 1e6
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (started < count && now() < until) {
        const message = `task ${started++}`
        const trip = await taskRoundTrip(url, 'echo_task', { message }, message)
        times.push(trip.ms)
        polls += trip.polls
        firstTaskId ??= trip.taskId
      }
    }),
  )
  return { times, polls, firstTaskId }
}

function percentile(values, fraction) {
  const sorted = [...values].sort((left, right) => left - right)
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))]
}

/** @type {import('../main.js').Measurement} */
export async function measureStore(context, options, log) {
  const calls = `${options.httpConnections} connections, ${options.httpSeconds} s`
  const taskCount = options.storeTasks.toLocaleString('en-US')
  /** The rows, for failing them all when Redis is not there. */
  const planned = {
    throughput: [
      {
        id: 'store-throughput',
        name: `2026 tools/call echo throughput, Redis store (${calls})`,
        unit: 'req/s',
        target: /** @type {const} */ ({ op: '>=', value: 0.8 }),
        anchorName,
      },
      { id: 'store-latency-p99', name: '2026 tools/call latency p99, Redis store', unit: 'ms', anchorName },
      {
        id: 'store-cpu-per-call',
        name: 'server CPU per 2026 tools/call, Redis store',
        unit: 'µs',
        anchorName,
      },
    ],
    tasks: [
      {
        id: 'store-task-round-trip',
        name: 'task round trip, one at a time (create → completed seen)',
        unit: 'ms',
        anchorName,
      },
      {
        id: 'store-task-rate',
        name: `tasks completed per second, ${taskClients} clients`,
        unit: 'tasks/s',
        anchorName,
      },
    ],
    memory: [
      {
        id: 'store-memory-per-task',
        name: `live memory per finished task kept (${taskCount} tasks, after GC)`,
        unit: 'KiB',
        anchorName,
      },
      {
        id: 'store-redis-memory-per-task',
        name: `Redis used_memory per finished task (${taskCount} tasks)`,
        unit: 'KiB',
      },
    ],
    commands: [
      { id: 'store-commands-2026-call', name: 'Redis commands per 2026 tools/call', unit: 'commands' },
      { id: 'store-commands-task', name: 'Redis commands per task round trip', unit: 'commands' },
      {
        id: 'store-commands-2025-call',
        name: 'Redis commands per 2025 session tools/call',
        unit: 'commands',
      },
    ],
  }
  const failAll = (rows, error) => rows.map((row) => failedRow({ ...row, group: 'store' }, error))

  try {
    const redis = await connectRedis(options.redisUrl)
    try {
      await redis.command('PING')
    } finally {
      redis.close()
    }
  } catch (error) {
    const message = `no Redis answers at ${options.redisUrl} (start one, or point REDIS_URL or --redis-url at one): ${error instanceof Error ? error.message : String(error)}`
    log(`  ${message}`)
    return Object.values(planned).flatMap((rows) => failAll(rows, new Error(message)))
  }

  const rows = []
  for (const [part, measure] of /** @type {const} */ ([
    ['throughput', measureThroughput],
    ['tasks', measureTasks],
    ['memory', measureTaskMemory],
    ['commands', measureCommands],
  ])) {
    try {
      rows.push(...(await measure(context, options, log, planned[part])))
    } catch (error) {
      log(`  ${part} FAILED: ${error instanceof Error ? error.message : String(error)}`)
      rows.push(...failAll(planned[part], error))
    }
  }
  return rows
}

/** Fills a planned row with samples. */
function row(planned, kit, anchor, note) {
  return makeRow({
    ...planned,
    group: 'store',
    kit,
    ...(anchor === undefined ? {} : { anchor: { name: planned.anchorName, samples: anchor } }),
    ...(note === undefined ? {} : { note }),
  })
}

/** 2026 tools/call echo under autocannon, a fresh server per store per round. */
async function measureThroughput(context, options, log, [throughputRow, p99Row, cpuRow]) {
  /** @type {Record<'redis' | 'memory', { requestsPerSecond: number[], p50: number[], p99: number[], cpuMicroseconds: number[] }>} */
  const results = {
    redis: { requestsPerSecond: [], p50: [], p99: [], cpuMicroseconds: [] },
    memory: { requestsPerSecond: [], p50: [], p99: [], cpuMicroseconds: [] },
  }
  const load = { connections: options.httpConnections, seconds: options.httpSeconds }
  for (let round = 0; round < options.httpRounds; round++) {
    for (const kind of /** @type {const} */ (['redis', 'memory'])) {
      await withStoreServer(context, options, kind, async (server) => {
        if (options.httpWarmupSeconds > 0) {
          await loadModernEcho(server.url, { ...load, seconds: options.httpWarmupSeconds })
        }
        const ticks = cpuTicks(server.pid)
        const result = await loadModernEcho(server.url, load)
        // CPU time per request hardly moves when another process takes a core for a while (this
        // machine's cores are shared); requests per second does.
        const cpuMicroseconds = ((cpuTicks(server.pid) - ticks) * 10_000) / result.requests
        results[kind].requestsPerSecond.push(result.requestsPerSecond)
        results[kind].p50.push(result.latencyP50)
        results[kind].p99.push(result.latencyP99)
        results[kind].cpuMicroseconds.push(cpuMicroseconds)
        log(
          `  round ${round + 1}: ${storeNames[kind]} ${result.requestsPerSecond.toFixed(0)} req/s, p50 ${result.latencyP50.toFixed(2)} ms, p99 ${result.latencyP99.toFixed(2)} ms, server CPU ${cpuMicroseconds.toFixed(1)} µs per call`,
        )
      })
    }
  }
  const p50 = (kind) => `${storeNames[kind]} ${median(results[kind].p50).toFixed(2)} ms`
  return [
    row(
      throughputRow,
      results.redis.requestsPerSecond,
      results.memory.requestsPerSecond,
      'one instance, bench registry; --store redis://… vs no --store; a 2026 call should not touch Redis',
    ),
    row(p99Row, results.redis.p99, results.memory.p99, `p50: ${p50('redis')}, ${p50('memory')}`),
    row(
      cpuRow,
      results.redis.cpuMicroseconds,
      results.memory.cpuMicroseconds,
      'user + system CPU of the server process (all threads) during the measured load ÷ requests answered',
    ),
  ]
}

/** Task round trips one at a time (latency), then `taskClients` at a time (rate). */
async function measureTasks(context, options, log, [roundTripRow, rateRow]) {
  /** @type {Record<'redis' | 'memory', { median: number[], p99: number[], polls: number[], rate: number[] }>} */
  const results = {
    redis: { median: [], p99: [], polls: [], rate: [] },
    memory: { median: [], p99: [], polls: [], rate: [] },
  }
  for (let round = 0; round < options.httpRounds; round++) {
    for (const kind of /** @type {const} */ (['redis', 'memory'])) {
      await withStoreServer(context, options, kind, async (server) => {
        await runTasks(server.url, { count: Math.min(50, options.storeRoundTrips), clients: 1 })
        const one = await runTasks(server.url, { count: options.storeRoundTrips, clients: 1 })
        results[kind].median.push(median(one.times))
        results[kind].p99.push(percentile(one.times, 0.99))
        results[kind].polls.push(one.polls / one.times.length)
        const now = Number(process.hrtime.bigint()) / 1e6
        const many = await runTasks(server.url, {
          until: now + options.httpSeconds * 1000,
          clients: taskClients,
        })
        const rate = many.times.length / ((Number(process.hrtime.bigint()) / 1e6 - now) / 1000)
        results[kind].rate.push(rate)
        log(
          `  round ${round + 1}: ${storeNames[kind]} round trip median ${median(one.times).toFixed(2)} ms, p99 ${percentile(one.times, 0.99).toFixed(2)} ms, ${(one.polls / one.times.length).toFixed(2)} tasks/get per task; ${rate.toFixed(0)} tasks/s with ${taskClients} clients`,
        )
      })
    }
  }
  const detail = (kind) =>
    `${storeNames[kind]} p99 ${median(results[kind].p99).toFixed(2)} ms, ${median(results[kind].polls).toFixed(2)} tasks/get per task`
  return [
    row(
      roundTripRow,
      results.redis.median,
      results.memory.median,
      `median of ${options.storeRoundTrips} per round; tools/call echo_task, then tasks/get again at once until completed; ${detail('redis')}; ${detail('memory')}`,
    ),
    row(
      rateRow,
      results.redis.rate,
      results.memory.rate,
      `${options.httpSeconds} s per round, each client one task at a time`,
    ),
  ]
}

/**
 * Live memory per finished task: a warm-up of 1,000 tasks, the idle baseline after GC, N more
 * tasks run to completion, the server idle again, the probe again. With Redis the records live
 * there: Redis's used_memory is read before and after too (other clients of that Redis move it as
 * well). The warm-up is that long because the Redis side's heap grows by a few MiB once (compiled
 * code, the Redis client's buffers); after 200 tasks that step still showed as 0.1–0.4 KiB per
 * task. What is left moves by up to ±2 MiB either way whatever the task count (V8's own upkeep),
 * so on the Redis side the row reads about ±0.2 KiB per task: flat.
 */
async function measureTaskMemory(context, options, log, [instanceRow, redisRow]) {
  const memoryFile = join(context.home, 'store-memory-probe.json')
  const count = options.storeTasks
  /** @type {Record<'redis' | 'memory', { perTaskKib: number[], rssPerTaskKib: number[], idleRssMib: number[], redisPerTaskKib: number[] }>} */
  const results = {
    redis: { perTaskKib: [], rssPerTaskKib: [], idleRssMib: [], redisPerTaskKib: [] },
    memory: { perTaskKib: [], rssPerTaskKib: [], idleRssMib: [], redisPerTaskKib: [] },
  }
  const live = (usage) => usage.heapUsed + usage.external
  const usedMemory = async (redis) => Number((await redis.info('memory')).get('used_memory'))
  const warmup = Math.min(1000, count)
  for (let round = 0; round < options.storeMemoryRounds; round++) {
    for (const kind of /** @type {const} */ (['redis', 'memory'])) {
      await withStoreServer(
        context,
        options,
        kind,
        async (server) => {
          const redis = await connectRedis(options.redisUrl)
          try {
            const first = await runTasks(server.url, { count: warmup, clients: taskClients })
            await untilIdle(server.pid)
            const idle = await probeMemory(server.pid, memoryFile)
            const redisBefore = await usedMemory(redis)
            const started = Date.now()
            const tasks = await runTasks(server.url, { count, clients: taskClients })
            const seconds = (Date.now() - started) / 1000
            await untilIdle(server.pid)
            const loaded = await probeMemory(server.pid, memoryFile)
            const redisAfter = await usedMemory(redis)
            if (tasks.times.length !== count || first.times.length !== warmup) {
              throw new Error(`${storeNames[kind]}: ${tasks.times.length} of ${count} tasks ran`)
            }
            // The finished tasks are still kept: the first one is readable, and in Redis the
            // index holds every task the instance ran.
            const kept = await getTask(server.url, /** @type {string} */ (tasks.firstTaskId))
            if (kept.status !== 'completed') {
              throw new Error(`${storeNames[kind]}: the first finished task reads back ${kept.status}`)
            }
            if (server.prefix !== undefined) {
              const indexed = await redis.command('SCARD', `${server.prefix}tasks`)
              if (indexed !== warmup + count) {
                throw new Error(
                  `Redis holds ${indexed} task ids under the prefix, expected ${warmup + count}`,
                )
              }
            }
            const perTaskKib = (live(loaded) - live(idle)) / 1024 / count
            results[kind].perTaskKib.push(perTaskKib)
            results[kind].rssPerTaskKib.push((loaded.rss - idle.rss) / 1024 / count)
            results[kind].idleRssMib.push(idle.rss / 2 ** 20)
            results[kind].redisPerTaskKib.push((redisAfter - redisBefore) / 1024 / count)
            log(
              `  round ${round + 1}: ${storeNames[kind]} ${count} tasks in ${seconds.toFixed(1)} s; live ${(live(idle) / 2 ** 20).toFixed(1)} → ${(live(loaded) / 2 ** 20).toFixed(1)} MiB (RSS ${(idle.rss / 2 ** 20).toFixed(1)} → ${(loaded.rss / 2 ** 20).toFixed(1)} MiB), ${perTaskKib.toFixed(2)} KiB per task; Redis used_memory ${((redisAfter - redisBefore) / 2 ** 20).toFixed(1)} MiB more`,
            )
          } finally {
            redis.close()
          }
        },
        { memoryFile },
      )
    }
  }
  const rss = (kind) =>
    `${storeNames[kind]} ${median(results[kind].rssPerTaskKib).toFixed(2)} KiB/task (idle ${median(results[kind].idleRssMib).toFixed(1)} MiB)`
  return [
    row(
      instanceRow,
      results.redis.perTaskKib,
      results.memory.perTaskKib,
      `V8 heap used + external after full GCs, minus the idle baseline (after ${warmup} warm-up tasks); RSS growth: ${rss('redis')}; ${rss('memory')}`,
    ),
    row(
      redisRow,
      results.redis.redisPerTaskKib,
      undefined,
      `INFO memory used_memory growth ÷ tasks; the memory-store side adds ${median(results.memory.redisPerTaskKib).toFixed(2)} KiB/task (other clients of this Redis move both)`,
    ),
  ]
}

/**
 * The local ports of a process's TCP connections to `port` (its Redis connections), from /proc:
 * the socket inodes among its file descriptors, looked up in its network namespace's tables.
 * @param {number} pid
 * @param {number} port
 */
function connectionPorts(pid, port) {
  const inodes = new Set()
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const match = readlinkSync(`/proc/${pid}/fd/${fd}`).match(/^socket:\[(\d+)\]$/)
      if (match) inodes.add(match[1])
    } catch {
      // closed meanwhile
    }
  }
  const ports = []
  for (const table of ['tcp', 'tcp6']) {
    let text = ''
    try {
      text = readFileSync(`/proc/${pid}/net/${table}`, 'utf8')
    } catch {
      continue
    }
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/)
      if (fields.length < 10 || !inodes.has(fields[9])) continue
      const local = Number.parseInt(fields[1].split(':').at(-1) ?? '', 16)
      const remote = Number.parseInt(fields[2].split(':').at(-1) ?? '', 16)
      if (remote === port) ports.push(local)
    }
  }
  return ports
}

/** The commands `background` ignores: the task upkeep's timer (every 10 s), not any request. */
const upkeepCommands = new Set(['smembers', 'mget', 'srem'])

/**
 * Runs `work` while MONITOR watches Redis; counts the commands sent on the server's own Redis
 * connections (by their local ports), and those its scripts ran on its prefix.
 * @param {import('../options.js').BenchOptions} options
 * @param {{ pid: number, prefix: string }} server
 * @param {() => Promise<void>} work
 */
async function countCommands(options, server, work) {
  const redisPort = Number(new URL(options.redisUrl).port || 6379)
  const ports = new Set(connectionPorts(server.pid, redisPort).map((port) => `:${port}`))
  if (ports.size < 2) {
    throw new Error(`found ${ports.size} Redis connections of the server (pid ${server.pid}), expected 2`)
  }
  const monitor = await connectRedis(options.redisUrl)
  const control = await connectRedis(options.redisUrl)
  const marker = `mcp-kit-bench-marker-${randomUUID()}`
  /** @type {Record<string, number>} */
  const sent = {}
  /** @type {Record<string, number>} */
  const scripted = {}
  /** @type {Record<string, number>} */
  const upkeep = {}
  let markerSeen = () => {}
  const done = new Promise((resolve) => {
    markerSeen = () => resolve(undefined)
  })
  try {
    await monitor.monitor((line) => {
      // 1712345678.123456 [0 127.0.0.1:54321] "GET" "mcp-kit-bench:…:task:…"
      const match = line.match(/^\d+\.\d+ \[\d+ ([^\]]+)\] "((?:[^"\\]|\\.)*)"/)
      if (match === null) return
      const [, address, name] = match
      if (line.includes(marker)) return markerSeen()
      const command = name.toLowerCase()
      if (address === 'lua') {
        if (line.includes(server.prefix)) scripted[command] = (scripted[command] ?? 0) + 1
        return
      }
      if (!ports.has(address.slice(address.lastIndexOf(':')))) return
      const tally = upkeepCommands.has(command) ? upkeep : sent
      tally[command] = (tally[command] ?? 0) + 1
    })
    await work()
    // Everything Redis ran before the marker has been fed to MONITOR before it.
    await control.command('ECHO', marker)
    await Promise.race([
      done,
      new Promise((_, reject) =>
        setTimeout(() => reject(new Error('MONITOR did not show the end marker within 5 s')), 5000),
      ),
    ])
  } finally {
    monitor.close()
    control.close()
  }
  return { sent, scripted, upkeep }
}

const total = (tally) => Object.values(tally).reduce((sum, value) => sum + value, 0)

/** `eval 2, get 1.3` per operation. */
function breakdown(tally, count) {
  const entries = Object.entries(tally).sort(([, left], [, right]) => right - left)
  if (entries.length === 0) return 'none'
  return entries.map(([name, value]) => `${name} ${+(value / count).toFixed(2)}`).join(', ')
}

/**
 * Redis commands per operation on one Redis-store server, in three MONITOR windows: 2026 calls,
 * task round trips, calls in a 2025 session (and, in the note, what opening a session costs).
 */
async function measureCommands(context, options, log, [modernRow, taskRow, sessionRow]) {
  const count = options.storeCountCalls
  return withStoreServer(context, options, 'redis', async (server) => {
    const prefix = /** @type {string} */ (server.prefix)
    const counted = { ...server, prefix }
    // Whatever runs once (lazy loading, the first task starting the upkeep timer) runs now.
    await runTasks(server.url, { count: 5, clients: 1 })
    let nextMessage = 0
    const modern = await countCommands(options, counted, async () => {
      for (let call = 0; call < count; call++) {
        const message = `call ${nextMessage++}`
        await checkToolCall(server.url, 'echo', { message }, message)
      }
    })
    let polls = 0
    const tasks = await countCommands(options, counted, async () => {
      polls = (await runTasks(server.url, { count, clients: 1 })).polls
    })
    /** @type {import('../http-session.js').Session[]} */
    const sessions = []
    const opening = await countCommands(options, counted, async () => {
      for (let index = 0; index < 10; index++) sessions.push(await openSession(server.url))
    })
    const session = /** @type {import('../http-session.js').Session} */ (sessions[0])
    const legacy = await countCommands(options, counted, async () => {
      for (let call = 0; call < count; call++) await checkEcho(session)
    })
    const upkeep = [modern, tasks, opening, legacy].reduce((sum, tally) => sum + total(tally.upkeep), 0)
    const scripts = (tally, per) =>
      total(tally.scripted) > 0 ? `; inside scripts: ${breakdown(tally.scripted, per)}` : ''
    log(
      `  per 2026 call ${total(modern.sent) / count}, per task ${total(tasks.sent) / count} (${breakdown(tasks.sent, count)}${scripts(tasks, count)}), per session opened ${total(opening.sent) / 10}, per 2025 call ${total(legacy.sent) / count}; upkeep commands in the windows: ${upkeep}`,
    )
    const note = (tally, per) => `${breakdown(tally.sent, per)}${scripts(tally, per)}`
    return [
      row(modernRow, [total(modern.sent) / count], undefined, `${count} calls: ${note(modern, count)}`),
      row(
        taskRow,
        [total(tasks.sent) / count],
        undefined,
        `${count} tasks, ${(polls / count).toFixed(2)} tasks/get per task (a GET each): ${note(tasks, count)}; the upkeep timer adds SMEMBERS + MGET of every task id under the prefix every 10 s per instance (${upkeep} such commands fell in these windows)`,
      ),
      row(
        sessionRow,
        [total(legacy.sent) / count],
        undefined,
        `at the time of measuring; ${count} calls in one session: ${note(legacy, count)}; opening a session (initialize + initialized): ${total(opening.sent) / 10} commands (${note(opening, 10)})`,
      ),
    ]
  })
}
