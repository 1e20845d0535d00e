// The cluster rows (`--only cluster`): one `mcp-kit serve` instance on a Redis Cluster of 3
// masters and 3 replicas (`--store redis-cluster://…`; the writes that must survive a failover
// wait for a replica, WAIT) against the same instance on one Redis, and the cost of WAIT (the
// cluster with `?wait=0` as the anchor): task round trips one at a time; tasks completed per
// second with 10 clients, with the instance's CPU and all of Redis's (every node, replicas
// included) per task, which move far less than rates when other processes share the cores;
// 2025-11-25 sessions opened and ended per second; calls in one 2025 session. The bench starts
// its own redis-server and cluster (cluster-servers.js), so the Redis CPU it counts is theirs
// alone; --cluster-url names another cluster (on this machine, for the CPU rows).

import { startRedisServer } from '@mcp-kit/fixtures/redis'
import { startRedisCluster } from '@mcp-kit/fixtures/redis-cluster'
import { checkEcho, loadEcho, openSession } from '../../http-session.js'
import { failedRow } from '../../rows.js'
import { median } from '../../statistics.js'
import { cpuTicks } from '../modern.js'
import { churnSessions, kinds, names, redisPids, withServer } from './cluster-servers.js'
import { sessionVersion, storeRow } from './server.js'
import { runTasks, taskClients } from './tasks.js'

const single = 'same server, one Redis'
const noWait = 'same server, same cluster, ?wait=0'
const note = 'one instance; the cluster: 3 masters + 3 replicas, every redis-server on the same two cores'

/** The rows, in order: [id, name, unit, anchor, statistic, anchor kind, note]. */
function plannedRows(options) {
  const calls = `${options.httpConnections} connections, ${options.httpSeconds} s`
  const tasks = `${taskClients} clients, ${options.httpSeconds} s per round`
  return /** @type {const} */ ([
    [
      'cluster-task-round-trip',
      'task round trip on a 3+3 cluster',
      'ms',
      single,
      'trip',
      'redis',
      `median of ${options.storeRoundTrips} per round; ${note}`,
    ],
    [
      'cluster-task-rate',
      `tasks completed per second on the cluster, ${taskClients} clients`,
      'tasks/s',
      single,
      'rate',
      'redis',
      `${tasks}; ${note}`,
    ],
    [
      'cluster-task-redis-cpu',
      "Redis CPU per task on the cluster's masters (all three)",
      'µs',
      single,
      'redisCpu',
      'redis',
      `user + system CPU of the masters' redis-server processes while ${tasks} ÷ tasks completed`,
    ],
    [
      'cluster-task-replica-cpu',
      "Redis CPU per task on the cluster's replicas (all three)",
      'µs',
      undefined,
      'replicaCpu',
      undefined,
      "applying the masters' writes (one Redis has no replica)",
    ],
    [
      'cluster-task-instance-cpu',
      'instance CPU per task on the cluster',
      'µs',
      single,
      'instanceCpu',
      'redis',
      'user + system CPU of the mcp-kit process over the same load',
    ],
    [
      'cluster-session-rate',
      `${sessionVersion} sessions opened and ended per second on the cluster, ${taskClients} clients`,
      'sessions/s',
      single,
      'sessions',
      'redis',
      'initialize + notifications/initialized + DELETE, each client one session at a time',
    ],
    [
      'cluster-2025-throughput',
      `${sessionVersion} session tools/call throughput on the cluster (${calls})`,
      'req/s',
      single,
      'calls',
      'redis',
      'one session, JSON answers: the record is read at most once a second',
    ],
    [
      'cluster-wait-task-round-trip',
      'task round trip on the cluster, WAIT for a replica',
      'ms',
      noWait,
      'trip',
      'cluster-nowait',
      'creation and end of each task wait for WAIT 1 (500 ms at most)',
    ],
    [
      'cluster-wait-task-rate',
      `tasks per second on the cluster, WAIT for a replica, ${taskClients} clients`,
      'tasks/s',
      noWait,
      'rate',
      'cluster-nowait',
      tasks,
    ],
    [
      'cluster-wait-redis-cpu',
      "Redis CPU per task on the cluster's masters, WAIT for a replica",
      'µs',
      noWait,
      'redisCpu',
      'cluster-nowait',
      'the masters, as above',
    ],
    [
      'cluster-wait-session-rate',
      `${sessionVersion} sessions opened and ended per second, WAIT for a replica`,
      'sessions/s',
      noWait,
      'sessions',
      'cluster-nowait',
      'the session record and its deletion wait for WAIT 1',
    ],
  ]).map(([id, name, unit, anchorName, statistic, anchorKind, rowNote]) => ({
    planned: { id, name, unit, anchorName },
    statistic,
    anchorKind,
    note: rowNote,
  }))
}

/** Every measurement of one round on one store. */
async function measureRound(server, pids, options) {
  const now = () => Number(process.hrtime.bigint()) / 1e6
  const ticks = (list) => list.reduce((sum, pid) => sum + cpuTicks(pid), 0)
  await runTasks(server.url, { count: Math.min(50, options.storeRoundTrips), clients: 1 })
  const one = await runTasks(server.url, { count: options.storeRoundTrips, clients: 1 })
  const before = {
    at: now(),
    instance: cpuTicks(server.pid),
    masters: ticks(pids.masters),
    replicas: ticks(pids.replicas),
  }
  const many = await runTasks(server.url, {
    until: before.at + options.httpSeconds * 1000,
    clients: taskClients,
  })
  const count = many.times.length
  const result = {
    trip: median(one.times),
    rate: count / ((now() - before.at) / 1000),
    // Clock ticks of 10 ms, in µs per task.
    instanceCpu: ((cpuTicks(server.pid) - before.instance) * 10_000) / count,
    redisCpu: ((ticks(pids.masters) - before.masters) * 10_000) / count,
    replicaCpu: ((ticks(pids.replicas) - before.replicas) * 10_000) / count,
  }
  const started = now()
  const opened = await churnSessions(server.url, {
    until: started + options.httpSeconds * 1000,
    clients: taskClients,
  })
  const session = await openSession(server.url, { protocolVersion: sessionVersion })
  await checkEcho(session)
  const load = { connections: options.httpConnections }
  if (options.httpWarmupSeconds > 0) await loadEcho(session, { ...load, seconds: options.httpWarmupSeconds })
  const calls = await loadEcho(session, { ...load, seconds: options.httpSeconds })
  return { ...result, sessions: opened / ((now() - started) / 1000), calls: calls.requestsPerSecond }
}

/** @type {import('../../main.js').Measurement} */
export async function measureCluster(context, options, log) {
  const rows = plannedRows(options)
  const fail = (error) => rows.map((row) => failedRow({ ...row.planned, group: 'cluster' }, error))
  /** @type {Array<{ stop(): Promise<void> }>} */
  const started = []
  try {
    const redis = await startRedisServer()
    started.push({
      async stop() {
        await redis.stop('SIGKILL')
        redis.remove()
      },
    })
    const cluster = options.clusterUrl === undefined ? await startRedisCluster() : undefined
    if (cluster !== undefined) started.push(cluster)
    const urls = { redis: redis.url, cluster: options.clusterUrl ?? /** @type {string} */ (cluster?.url) }
    const pids = { redis: await redisPids(urls.redis), cluster: await redisPids(urls.cluster) }
    /** @type {Record<string, Record<string, number[]>>} */
    const results = Object.fromEntries(kinds.map((kind) => [kind, {}]))
    for (let round = 0; round < options.httpRounds; round++) {
      for (const kind of kinds) {
        const measured = await withServer(context, urls, kind, (server) =>
          measureRound(server, kind === 'redis' ? pids.redis : pids.cluster, options),
        )
        for (const [statistic, value] of Object.entries(measured)) {
          results[kind][statistic] ??= []
          results[kind][statistic].push(value)
        }
        log(
          `  round ${round + 1}: ${names[kind]}: task round trip ${measured.trip.toFixed(2)} ms, ${measured.rate.toFixed(0)} tasks/s (instance ${measured.instanceCpu.toFixed(0)} µs, Redis ${measured.redisCpu.toFixed(0)} + ${measured.replicaCpu.toFixed(0)} µs CPU per task, masters + replicas), ${measured.sessions.toFixed(0)} sessions opened and ended/s, ${measured.calls.toFixed(0)} session calls/s`,
        )
      }
    }
    return rows.map(({ planned, statistic, anchorKind, note: rowNote }) => ({
      ...storeRow(
        planned,
        results.cluster[statistic],
        anchorKind === undefined ? undefined : results[anchorKind][statistic],
        rowNote,
      ),
      group: 'cluster',
    }))
  } catch (error) {
    log(`  cluster FAILED: ${error instanceof Error ? error.message : String(error)}`)
    return fail(error)
  } finally {
    for (const each of started.reverse()) await each.stop()
  }
}
