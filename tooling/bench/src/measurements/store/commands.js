// Redis commands per operation on one Redis-store server, each kind of traffic in its own MONITOR
// window: 2026 calls, task round trips, opening 2025-11-25 sessions (initialize + initialized),
// calls in one such session answered as JSON, and answered as SSE streams (which a resumable
// session copies to the store).

import { checkEcho, openSession } from '../../http-session.js'
import { checkToolCall } from '../../modern-http.js'
import { connectRedis } from '../../redis.js'
import { breakdown, countCommands, total } from './command-count.js'
import { sessionVersion, storeRow, withStoreServer } from './server.js'
import { runTasks } from './tasks.js'

/** Sessions opened in the window that counts what opening one costs. */
const sessionsOpened = 10

/** What one session record takes in Redis, by MEMORY USAGE (fails when the record is not there). */
async function sessionRecordBytes(url, key) {
  const redis = await connectRedis(url)
  try {
    const bytes = await redis.memoryUsage(key)
    if (bytes === null) throw new Error(`no session record at ${key}`)
    return bytes
  } finally {
    redis.destroy()
  }
}

export async function measureCommands(context, options, log, planned) {
  const [modernRow, taskRow, sessionCallRow, sessionOpenRow, sessionSseRow] = planned
  const count = options.storeCountCalls
  return withStoreServer(context, options, 'redis', async (server) => {
    const counted = { ...server, prefix: /** @type {string} */ (server.prefix) }
    // Whatever runs once (lazy loading, the first task starting the upkeep timer, the first
    // session) runs now.
    await runTasks(server.url, { count: 5, clients: 1 })
    const open = () => openSession(server.url, { protocolVersion: sessionVersion })
    const warm = await open()
    await checkEcho(warm)
    await checkEcho(warm, { sse: true })

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
    /** @type {import('../../http-session.js').Session[]} */
    const sessions = []
    const opening = await countCommands(options, counted, async () => {
      for (let index = 0; index < sessionsOpened; index++) sessions.push(await open())
    })
    const session = /** @type {import('../../http-session.js').Session} */ (sessions[0])
    if (session.protocolVersion !== sessionVersion)
      throw new Error(`the server agreed on ${session.protocolVersion}, not ${sessionVersion}`)
    const recordBytes = await sessionRecordBytes(
      options.redisUrl,
      `${counted.prefix}session-record:${session.sessionId}`,
    )
    const jsonCalls = await countCommands(options, counted, async () => {
      for (let call = 0; call < count; call++) await checkEcho(session)
    })
    const sseCalls = await countCommands(options, counted, async () => {
      for (let call = 0; call < count; call++) await checkEcho(session, { sse: true })
    })

    const windows = [modern, tasks, opening, jsonCalls, sseCalls]
    const upkeep = windows.reduce((sum, tally) => sum + total(tally.upkeep), 0)
    const per = (tally, operations) => total(tally.sent) / operations
    const scripts = (tally, operations) =>
      total(tally.scripted) > 0 ? `; inside scripts: ${breakdown(tally.scripted, operations)}` : ''
    const note = (tally, operations) => `${breakdown(tally.sent, operations)}${scripts(tally, operations)}`
    log(
      `  per 2026 call ${per(modern, count)}, per task ${per(tasks, count)} (${note(tasks, count)}), per ${sessionVersion} session opened ${per(opening, sessionsOpened)} (${note(opening, sessionsOpened)}), per session call ${per(jsonCalls, count)} (${note(jsonCalls, count)}), per SSE-answered call ${per(sseCalls, count)} (${note(sseCalls, count)}); upkeep commands in the windows: ${upkeep}`,
    )
    return [
      storeRow(modernRow, [per(modern, count)], undefined, `${count} calls: ${note(modern, count)}`),
      storeRow(
        taskRow,
        [per(tasks, count)],
        undefined,
        `${count} tasks, ${(polls / count).toFixed(2)} tasks/get per task (a GET each): ${note(tasks, count)}; the upkeep timer adds one ZREMRANGEBYSCORE every 10 s per instance, the heartbeat a SET every 2 s (${upkeep} such commands fell in these windows, not counted)`,
      ),
      storeRow(
        sessionCallRow,
        [per(jsonCalls, count)],
        undefined,
        `${count} calls in one session, JSON answers: ${note(jsonCalls, count)}`,
      ),
      storeRow(
        sessionOpenRow,
        [per(opening, sessionsOpened)],
        undefined,
        `${sessionsOpened} sessions: ${note(opening, sessionsOpened)}; a session record takes ${recordBytes} bytes of Redis memory (MEMORY USAGE)`,
      ),
      storeRow(
        sessionSseRow,
        [per(sseCalls, count)],
        undefined,
        `${count} calls in one session, Accept: text/event-stream first; the stream is copied to a Redis Stream for resumption: ${note(sseCalls, count)}`,
      ),
    ]
  })
}
