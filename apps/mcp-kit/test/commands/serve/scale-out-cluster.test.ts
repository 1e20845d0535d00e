// @module-tag integration
// Three `mcp-kit serve --store redis-cluster://…` instances on a Redis Cluster of 3 masters and 3
// replicas (`cluster-node-timeout` 2 s), behind HAProxy (round robin, no affinity), as an
// operator would run them: calls, 2025 sessions and tasks through the balancer; then a master
// is killed with SIGKILL while twelve tasks run, and every task still ends with its result, read
// through the balancer, and every session opened before still answers: what the instances
// acknowledged lived on the replica that took over. The conformance suites run through the same
// setup in tooling/conformance/run.js.

import { randomUUID } from 'node:crypto'
import { fileURLToPath } from 'node:url'
import { haproxyMissing, type RunningHaproxy, startHaproxy } from '@mcp-kit/fixtures/haproxy'
import { clusterForTests } from '@mcp-kit/fixtures/redis-cluster'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type Serving, startServe, stopStarted } from '../../helpers/helpers.js'
import { openLegacySession } from '../../helpers/legacy-session.js'
import { describeAnswer, type ModernAnswer, modernRequest } from '../../helpers/modern-request.js'
import { pollUntil } from '../../helpers/poll.js'

const registry = fileURLToPath(new URL('../../fixtures/scale-task-registry.mjs', import.meta.url))
const what = 'apps/mcp-kit/test/commands/serve/scale-out-cluster.test.ts'
const cluster = haproxyMissing({ what }) === undefined ? await clusterForTests({ what }) : undefined
const prefix = `mcp-kit-test:${randomUUID()}:`
let balancer: RunningHaproxy
let instances: Serving[]

beforeAll(async () => {
  if (cluster === undefined) return
  instances = await Promise.all(
    [1, 2, 3].map(() =>
      startServe([registry, '--port', '0', '--store', cluster.url, '--store-prefix', prefix]),
    ),
  )
  balancer = await startHaproxy({ backends: instances.map((instance) => instance.url) })
}, 60_000)

afterAll(async () => {
  await balancer?.stop()
  await stopStarted()
  await cluster?.stop()
})

/** A 2025-11-25 `tools/call whoami` in a session, through the balancer: the answering pid. */
async function sessionCall(headers: Record<string, string>): Promise<string> {
  const response = await fetch(balancer.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'whoami' } }),
  })
  const text = await response.text()
  const json = /\{.*"jsonrpc".*\}/s.exec(text)?.[0]
  const answer =
    json === undefined ? undefined : (JSON.parse(json) as { result?: { content?: [{ text: string }] } })
  const pid = answer?.result?.content?.[0]?.text
  if (response.status !== 200 || pid === undefined)
    throw new Error(`session call: ${response.status} ${text}`)
  return pid
}

async function startTask(ms: number): Promise<string> {
  const created = await modernRequest(balancer.url, 'tools/call', { name: 'work', arguments: { ms } })
  if (created.result?.resultType !== 'task' || typeof created.result.taskId !== 'string')
    throw new Error(`tools/call work did not start a task: ${describeAnswer(created)}`)
  return created.result.taskId
}

describe.skipIf(cluster === undefined)('three instances on a Redis Cluster behind HAProxy', () => {
  test('calls, a 2025 session and a task go round the three instances', async () => {
    const pids = new Set<string>()
    for (let call = 0; call < 6; call++) {
      const answer = await modernRequest(balancer.url, 'tools/call', { name: 'whoami', arguments: {} })
      pids.add(String(answer.result?.content?.[0]?.text))
    }
    expect(pids, 'the instances that answered, round robin').toEqual(
      new Set(instances.map((instance) => String(instance.child.pid))),
    )
    const session = await openLegacySession(balancer.url)
    const sessionPids = new Set<string>()
    for (let call = 0; call < 6; call++) sessionPids.add(await sessionCall(session))
    expect(sessionPids.size, 'instances that served the one session').toBe(3)
    const taskId = await startTask(100)
    const final = await pollUntil(`task ${taskId} completed`, async () => {
      const answer = await modernRequest(balancer.url, 'tasks/get', { taskId })
      return answer.result?.status === 'completed' ? answer.result : undefined
    })
    expect(final.result.structuredContent.ms).toBe(100)
  })

  test('a master killed with SIGKILL while twelve tasks run: all twelve end with their results', async () => {
    const taskMs = 9000
    const startedAt = Date.now()
    const taskIds = await Promise.all(Array.from({ length: 12 }, () => startTask(taskMs)))
    const sessions = await Promise.all(Array.from({ length: 6 }, () => openLegacySession(balancer.url)))
    // The master holding the most of these tasks' records (each task's keys share a hash tag).
    const owners = new Map<number, number>()
    for (const master of await cluster!.masters()) {
      const keys = await cluster!.cli(master, ['--scan', '--pattern', `${prefix}*task:*`])
      const held = taskIds.filter((taskId) => keys.includes(`task:${taskId}`)).length
      owners.set(master, held)
    }
    expect(
      [...owners.values()].reduce((sum, held) => sum + held, 0),
      'task records found',
    ).toBe(12)
    const [victim, held] = [...owners].sort((left, right) => right[1] - left[1])[0]!
    // Every task runs before the kill.
    for (const taskId of taskIds) {
      const answer = await modernRequest(balancer.url, 'tasks/get', { taskId })
      expect(answer.result?.status, describeAnswer(answer)).toBe('working')
    }
    await cluster!.kill(victim)
    const killedAt = Date.now()
    expect(killedAt - startedAt, 'the kill came while the tasks ran').toBeLessThan(taskMs)
    await cluster!.awaitFailover(victim)
    const failoverMs = Date.now() - killedAt
    // Every poll through the balancer answers (it may wait out the failover): count what did not.
    const failures: string[] = []
    const results = await Promise.all(
      taskIds.map((taskId) =>
        pollUntil(
          `task ${taskId} ended`,
          async () => {
            const answer: ModernAnswer = await modernRequest(balancer.url, 'tasks/get', { taskId })
            if (typeof answer.result?.status !== 'string') failures.push(describeAnswer(answer))
            return answer.result?.status === 'working' || answer.result?.status === undefined
              ? undefined
              : answer.result
          },
          { timeoutMs: taskMs + 30_000, intervalMs: 250 },
        ),
      ),
    )
    for (const result of results) {
      expect(result.status, JSON.stringify(result)).toBe('completed')
      expect(result.result.structuredContent.ms).toBe(taskMs)
      expect(instances.map((instance) => instance.child.pid)).toContain(result.result.structuredContent.pid)
    }
    expect(failures, 'polls answered with an error').toEqual([])
    // The sessions opened before the kill are all still there, on whichever master holds them now.
    for (const session of sessions) expect(await sessionCall(session)).toMatch(/^\d+$/)
    console.log(
      `cluster failover: master ${victim} held ${held} of 12 tasks; replaced in ${failoverMs} ms; all 12 completed`,
    )
  }, 90_000)
})
