// @module-tag integration
// Tasks across three `mcp-kit serve --store redis://…` instances behind a round-robin proxy (no
// affinity): a task started through one instance is polled to its result through all three, and
// a task whose instance is killed (SIGKILL: no shutdown, its lease simply stops being renewed)
// ends `failed` once the lease (`--task-lease`) runs out, never stuck `working`. Which instance
// runs a task: the fixture's task names its pid in the status message.

import { randomUUID } from 'node:crypto'
import { fileURLToPath } from 'node:url'
import { redisForTests } from '@mcp-kit/fixtures/redis'
import { afterAll, afterEach, describe, expect, test } from 'vitest'
import { type Serving, startServe, stopStarted } from '../../helpers/helpers.js'
import { describeAnswer, type ModernAnswer, modernRequest } from '../../helpers/modern-request.js'
import { pollUntil } from '../../helpers/poll.js'
import { closeProxies, roundRobin } from '../../helpers/round-robin.js'

const registry = fileURLToPath(new URL('../../fixtures/scale-task-registry.mjs', import.meta.url))
const redis = await redisForTests({ what: 'apps/mcp-kit/test/commands/serve/scale-out-tasks.test.ts' })

afterEach(async () => {
  await closeProxies()
  await stopStarted()
})

afterAll(async () => {
  await redis?.stop()
})

interface Proxy {
  url: string
  /** The instance each request went to, in order. */
  served: string[]
}

async function threeInstances(extra: string[] = []): Promise<{ proxy: Proxy; instances: Serving[] }> {
  const prefix = `mcp-kit-test:${randomUUID()}:`
  const instances = await Promise.all(
    [1, 2, 3].map(() =>
      startServe([
        registry,
        '--port',
        '0',
        '--store',
        redis?.url as string,
        '--store-prefix',
        prefix,
        ...extra,
      ]),
    ),
  )
  const served: string[] = []
  const url = await roundRobin(
    instances.map((instance) => instance.url),
    (target) => served.push(target),
  )
  return { proxy: { url, served }, instances }
}

async function startTask(url: string, ms: number): Promise<string> {
  const created = await modernRequest(url, 'tools/call', { name: 'work', arguments: { ms } })
  if (created.result?.resultType !== 'task' || typeof created.result.taskId !== 'string')
    throw new Error(`tools/call work did not start a task: ${describeAnswer(created)}`)
  return created.result.taskId
}

/** Polls tasks/get until the task names the pid running it; the instance with that pid. */
async function ownerOf(url: string, taskId: string, instances: Serving[]): Promise<Serving> {
  let last: ModernAnswer | undefined
  const pid = await pollUntil(
    `task ${taskId} naming the instance that runs it`,
    async () => {
      last = await modernRequest(url, 'tasks/get', { taskId })
      const match = /running in (\d+)/.exec(String(last.result?.statusMessage ?? ''))
      return match ? Number(match[1]) : undefined
    },
    { lastSeen: () => (last ? describeAnswer(last) : 'nothing') },
  )
  const owner = instances.find((instance) => instance.child.pid === pid)
  if (owner === undefined) throw new Error(`pid ${pid} runs the task, but it is none of the three instances`)
  return owner
}

describe.skipIf(redis === undefined)('tasks across three instances on one Redis', () => {
  test('a task started through one instance is polled to its result through all three', async () => {
    const { proxy, instances } = await threeInstances()
    const taskId = await startTask(proxy.url, 1500)
    const owner = await ownerOf(proxy.url, taskId, instances)
    const pollsFrom = proxy.served.length
    const statuses: string[] = []
    let last: ModernAnswer | undefined
    const final = await pollUntil(
      `task ${taskId} completed`,
      async () => {
        last = await modernRequest(proxy.url, 'tasks/get', { taskId })
        const status = last.result?.status
        if (typeof status !== 'string') throw new Error(`tasks/get failed: ${describeAnswer(last)}`)
        if (statuses.at(-1) !== status) statuses.push(status)
        return status === 'working' ? undefined : last.result
      },
      { lastSeen: () => (last ? describeAnswer(last) : 'nothing'), intervalMs: 100 },
    )
    expect(statuses, 'the statuses seen while polling').toEqual(['working', 'completed'])
    expect(final?.result?.structuredContent).toEqual({ pid: owner.child.pid, ms: 1500 })
    // The round robin spread the polls: every instance answered some, two of them not the owner.
    expect(new Set(proxy.served.slice(pollsFrom)), 'instances that answered the polls').toEqual(
      new Set(instances.map((instance) => instance.url)),
    )
    // Each instance, asked directly, has the same result.
    for (const instance of instances) {
      const answer = await modernRequest(instance.url, 'tasks/get', { taskId })
      expect(answer.result, `tasks/get on ${instance.url}: ${describeAnswer(answer)}`).toMatchObject({
        status: 'completed',
        result: { structuredContent: { pid: owner.child.pid } },
      })
    }
  })

  test('the owner killed mid-task: the task ends failed once its lease runs out, never stuck working', async () => {
    const leaseSeconds = 3
    const { proxy, instances } = await threeInstances(['--task-lease', String(leaseSeconds)])
    const startedAt = Date.now()
    const taskId = await startTask(proxy.url, 3_600_000)
    const owner = await ownerOf(proxy.url, taskId, instances)
    // While the owner lives it renews the lease: past one and a half leases, every instance
    // still says working (without renewals the others would have failed it by now).
    let last: ModernAnswer | undefined
    while (Date.now() - startedAt < leaseSeconds * 1500) {
      last = await modernRequest(proxy.url, 'tasks/get', { taskId })
      expect(last.result?.status, `a live owner's task: ${describeAnswer(last)}`).toBe('working')
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    owner.child.kill('SIGKILL')
    await owner.exited
    const killedAt = Date.now()
    const final = await pollUntil(
      `task ${taskId} ending after its owner (pid ${owner.child.pid}) was killed, lease ${leaseSeconds} s`,
      async () => {
        last = await modernRequest(proxy.url, 'tasks/get', { taskId })
        const status = last.result?.status
        if (typeof status !== 'string') throw new Error(`tasks/get failed: ${describeAnswer(last)}`)
        return status === 'working' ? undefined : last.result
      },
      { timeoutMs: leaseSeconds * 1000 + 15_000, intervalMs: 100, lastSeen: () => describeAnswer(last!) },
    )
    const endedAfter = Date.now() - killedAt
    expect(final).toMatchObject({
      status: 'failed',
      error: { message: 'the server instance running the task went away' },
    })
    // The verdict is stored: both survivors, asked directly, say the same.
    for (const instance of instances.filter((each) => each !== owner)) {
      const answer = await modernRequest(instance.url, 'tasks/get', { taskId })
      expect(answer.result?.status, `tasks/get on ${instance.url}: ${describeAnswer(answer)}`).toBe('failed')
    }
    console.log(`owner killed; its task was seen failed ${endedAfter} ms later (lease ${leaseSeconds} s)`)
  })
})
