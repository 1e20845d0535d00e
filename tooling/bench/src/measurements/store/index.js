// The store rows (`--only store`): what keeping shared state on Redis costs one `mcp-kit serve`
// instance, against the same instance on its in-memory store (the anchor):
// - throughput.js: tools/call echo throughput and p99 under autocannon, 2026 stateless calls and
//   calls in one 2025-11-25 session;
// - tasks.js: task round trips one at a time, and tasks completed per second;
// - task-memory.js: live memory per finished task kept, and Redis's used_memory growth;
// - commands.js: Redis commands per operation, counted with MONITOR (command-count.js).
// Without a Redis answering, every row fails at once with a message naming the URL.

import { connectRedis } from '../../redis.js'
import { failedRow } from '../../rows.js'
import { measureCommands } from './commands.js'
import { anchorName, sessionVersion } from './server.js'
import { measureTaskMemory } from './task-memory.js'
import { measureTasks, taskClients } from './tasks.js'
import { measureSessionThroughput, measureThroughput } from './throughput.js'

/**
 * The rows of each part, planned before measuring so that they can all fail when Redis is not
 * there.
 * @param {import('../../options.js').BenchOptions} options
 * @returns {Record<string, import('./server.js').PlannedRow[]>}
 */
function plannedRows(options) {
  const calls = `${options.httpConnections} connections, ${options.httpSeconds} s`
  const taskCount = options.storeTasks.toLocaleString('en-US')
  const atLeast = (value) => /** @type {const} */ ({ op: '>=', value })
  return {
    throughput: [
      {
        id: 'store-throughput',
        name: `2026 tools/call echo throughput, Redis store (${calls})`,
        unit: 'req/s',
        target: atLeast(0.8),
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
    sessions: [
      {
        id: 'store-2025-throughput',
        name: `${sessionVersion} session tools/call echo throughput, Redis store (${calls}, one session)`,
        unit: 'req/s',
        target: atLeast(0.8),
        anchorName,
      },
      {
        id: 'store-2025-latency-p99',
        name: `${sessionVersion} session tools/call latency p99, Redis store`,
        unit: 'ms',
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
        name: `Redis commands per ${sessionVersion} session tools/call`,
        unit: 'commands',
      },
      {
        id: 'store-commands-2025-open',
        name: `Redis commands per ${sessionVersion} session opened (initialize + initialized)`,
        unit: 'commands',
      },
      {
        id: 'store-commands-2025-sse-call',
        name: `Redis commands per ${sessionVersion} session tools/call answered as SSE`,
        unit: 'commands',
      },
    ],
  }
}

const parts = /** @type {const} */ ([
  ['throughput', measureThroughput],
  ['sessions', measureSessionThroughput],
  ['tasks', measureTasks],
  ['memory', measureTaskMemory],
  ['commands', measureCommands],
])

/** @type {import('../../main.js').Measurement} */
export async function measureStore(context, options, log) {
  const planned = plannedRows(options)
  const failAll = (rows, error) => rows.map((row) => failedRow({ ...row, group: 'store' }, error))

  try {
    const redis = await connectRedis(options.redisUrl)
    try {
      await redis.ping()
    } finally {
      redis.destroy()
    }
  } catch (error) {
    const message = `no Redis answers at ${options.redisUrl} (start one, or point REDIS_URL or --redis-url at one): ${error instanceof Error ? error.message : String(error)}`
    log(`  ${message}`)
    return Object.values(planned).flatMap((rows) => failAll(rows, new Error(message)))
  }

  const rows = []
  for (const [part, measure] of parts) {
    try {
      rows.push(...(await measure(context, options, log, planned[part])))
    } catch (error) {
      log(`  ${part} FAILED: ${error instanceof Error ? error.message : String(error)}`)
      rows.push(...failAll(planned[part], error))
    }
  }
  return rows
}
