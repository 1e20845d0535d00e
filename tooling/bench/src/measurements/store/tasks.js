// Task round trips on one instance, Redis store against memory store (`echo_task` runs as a task
// and finishes at once, so the store is what is timed): creation → `tasks/get` at once until the
// completed result is seen, one at a time; and tasks completed per second with several clients.

import { taskRoundTrip } from '../../modern-http.js'
import { median } from '../../statistics.js'
import { percentile, storeKinds, storeNames, storeRow, withStoreServer } from './server.js'

/** How many task round trips run at once in the rate and memory rows. */
export const taskClients = 10

/**
 * Task round trips of `echo_task`, `clients` at a time, until `count` are done or `until`
 * (hrtime ms) has passed. Every answer is checked.
 * @param {string} url
 * @param {{ count?: number, until?: number, clients: number }} settings
 */
export async function runTasks(
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

/** Task round trips one at a time (latency), then `taskClients` at a time (rate). */
export async function measureTasks(context, options, log, [roundTripRow, rateRow]) {
  /** @type {Record<import('./server.js').StoreKind, { median: number[], p99: number[], polls: number[], rate: number[] }>} */
  const results = {
    redis: { median: [], p99: [], polls: [], rate: [] },
    memory: { median: [], p99: [], polls: [], rate: [] },
  }
  for (let round = 0; round < options.httpRounds; round++) {
    for (const kind of storeKinds) {
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
    storeRow(
      roundTripRow,
      results.redis.median,
      results.memory.median,
      `median of ${options.storeRoundTrips} per round; tools/call echo_task, then tasks/get again at once until completed; ${detail('redis')}; ${detail('memory')}`,
    ),
    storeRow(
      rateRow,
      results.redis.rate,
      results.memory.rate,
      `${options.httpSeconds} s per round, each client one task at a time`,
    ),
  ]
}
