// Live memory per finished task kept: tasks run to completion, then the server's heap after GC
// (the memory probe) minus its idle baseline, Redis store against memory store; with Redis,
// Redis's own used_memory growth too.

import { join } from 'node:path'
import { getTask } from '../../modern-http.js'
import { connectRedis, usedMemory } from '../../redis.js'
import { median } from '../../statistics.js'
import { probeMemory, untilIdle } from '../modern.js'
import { storeKinds, storeNames, storeRow, withStoreServer } from './server.js'
import { runTasks, taskClients } from './tasks.js'

/**
 * A warm-up of 1,000 tasks, the idle baseline after GC, N more tasks run to completion, the
 * server idle again, the probe again. With Redis the records live there: Redis's used_memory is
 * read before and after too (other clients of that Redis move it as well). The warm-up is that
 * long because the Redis side's heap grows by a few MiB once (compiled code, the Redis client's
 * buffers); after 200 tasks that step still showed as 0.1–0.4 KiB per task. What is left moves by
 * up to ±2 MiB either way whatever the task count (V8's own upkeep), so on the Redis side the row
 * reads about ±0.2 KiB per task: flat.
 */
export async function measureTaskMemory(context, options, log, [instanceRow, redisRow]) {
  const memoryFile = join(context.home, 'store-memory-probe.json')
  const count = options.storeTasks
  const samples = () => ({ perTaskKib: [], rssPerTaskKib: [], idleRssMib: [], redisPerTaskKib: [] })
  /** @type {Record<import('./server.js').StoreKind, ReturnType<typeof samples>>} */
  const results = { redis: samples(), memory: samples() }
  const live = (usage) => usage.heapUsed + usage.external
  const warmup = Math.min(1000, count)
  for (let round = 0; round < options.storeMemoryRounds; round++) {
    for (const kind of storeKinds) {
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
              const indexed = await redis.zCard(`${server.prefix}task-index`)
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
            redis.destroy()
          }
        },
        { memoryFile },
      )
    }
  }
  const rss = (kind) =>
    `${storeNames[kind]} ${median(results[kind].rssPerTaskKib).toFixed(2)} KiB/task (idle ${median(results[kind].idleRssMib).toFixed(1)} MiB)`
  return [
    storeRow(
      instanceRow,
      results.redis.perTaskKib,
      results.memory.perTaskKib,
      `V8 heap used + external after full GCs, minus the idle baseline (after ${warmup} warm-up tasks); RSS growth: ${rss('redis')}; ${rss('memory')}`,
    ),
    storeRow(
      redisRow,
      results.redis.redisPerTaskKib,
      undefined,
      `INFO memory used_memory growth ÷ tasks; the memory-store side adds ${median(results.memory.redisPerTaskKib).toFixed(2)} KiB/task (other clients of this Redis move both)`,
    ),
  ]
}
