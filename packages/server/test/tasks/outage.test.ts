// The TaskManager when its shared store goes away and comes back (a Redis outage or restart),
// on a store the test controls: away (every call fails, as the Redis store's do past the
// client's command timeout), emptied (a restart without persistence), and back (the reconnect
// signal). The end of a task is not lost to an outage, a store that lost running tasks gets
// them written back, and leases are not judged before their owners could renew them. The same
// on a real Redis, under load: apps/mcp-kit/test/commands/serve/scale-out-restart.test.ts.

import { expect, test } from 'vitest'
import { TaskManager } from '../../src/tasks/manager.js'
import { memoryTaskStore, type TaskRecord, type TaskStore } from '../../src/tasks/store.js'
import { eventually } from '../helpers/http.js'

/** A TaskStore that can be made unreachable, emptied, and announced back. */
function outageStore() {
  let inner = memoryTaskStore()
  let away = false
  const listeners = new Set<(record: TaskRecord) => void>()
  const reconnected = new Set<() => void>()
  const forward = (record: TaskRecord) => {
    for (const listener of listeners) listener(record)
  }
  inner.watch(forward)
  const reachable = () =>
    away ? Promise.reject(new Error('the task store is unavailable: test outage')) : Promise.resolve()
  const store: TaskStore = {
    create: (record) => reachable().then(() => inner.create(record)),
    get: (taskId) => reachable().then(() => inner.get(taskId)),
    update: (taskId, change) => reachable().then(() => inner.update(taskId, change)),
    list: (filter) => reachable().then(() => inner.list(filter)),
    expire: (now) => reachable().then(() => inner.expire(now)),
    watch(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    onReconnect(listener) {
      reconnected.add(listener)
      return () => reconnected.delete(listener)
    },
  }
  return {
    store,
    /** Peeks past an outage, as the test's own eyes on Redis. */
    peek: (taskId: string) => inner.get(taskId),
    goAway() {
      away = true
    },
    comeBack({ empty = false } = {}) {
      if (empty) {
        inner = memoryTaskStore()
        inner.watch(forward)
      }
      away = false
      for (const listener of reconnected) listener()
    },
  }
}

const call = { method: 'tools/call', name: 'tool', principal: undefined }

function deferred<T>() {
  let resolve: (value: T) => void = () => {}
  const promise = new Promise<T>((settle) => (resolve = settle))
  return { promise, resolve }
}

test('a task that ends while the store is away keeps its result: the end lands once the store is back', async () => {
  const outage = outageStore()
  const reports: string[] = []
  const manager = new TaskManager({ store: outage.store }, (error) => reports.push(error.message))
  const { taskId } = await manager.create(call, new AbortController())
  const work = deferred<Record<string, unknown>>()
  manager.settle(taskId, work.promise)
  outage.goAway()
  work.resolve({ content: [{ type: 'text', text: 'done' }] })
  await eventually(() =>
    reports.some((message) => message.includes(`cannot store the end of task ${taskId}`)),
  )
  expect((await outage.peek(taskId))?.status).toBe('working')
  outage.comeBack()
  await eventually(async () => (await outage.peek(taskId))?.status === 'completed')
  expect(await outage.peek(taskId)).toMatchObject({ result: { content: [{ text: 'done' }] } })
  await manager.close()
})

test('a store that comes back empty gets the running tasks written back, as last seen; their end follows', async () => {
  const outage = outageStore()
  const manager = new TaskManager({ store: outage.store })
  const { taskId } = await manager.create(call, new AbortController())
  await manager.statusMessage(taskId, 'half way')
  const work = deferred<Record<string, unknown>>()
  manager.settle(taskId, work.promise)
  outage.goAway()
  outage.comeBack({ empty: true })
  await eventually(async () => (await outage.peek(taskId)) !== undefined)
  expect(await outage.peek(taskId)).toMatchObject({ status: 'working', statusMessage: 'half way' })
  work.resolve({ content: [] })
  await eventually(async () => (await outage.peek(taskId))?.status === 'completed')
  await manager.close()
})

test('a task that ends after the store lost its record (no reconnect heard) is written whole', async () => {
  const outage = outageStore()
  const manager = new TaskManager({ store: outage.store })
  const { taskId } = await manager.create(call, new AbortController())
  const work = deferred<Record<string, unknown>>()
  manager.settle(taskId, work.promise)
  // Emptied behind the manager's back: the stop and return are one event here.
  outage.goAway()
  outage.comeBack({ empty: true })
  work.resolve({ structuredContent: { rows: 2 } })
  await eventually(async () => (await outage.peek(taskId))?.status === 'completed')
  expect(await outage.peek(taskId)).toMatchObject({ result: { structuredContent: { rows: 2 } } })
  await manager.close()
})

test('right after the store returns, an expired lease is judged only once owners had a lease to renew it', async () => {
  const outage = outageStore()
  const reader = new TaskManager({ store: outage.store, leaseMs: 300 })
  const orphan = (taskId: string): TaskRecord => ({
    taskId,
    status: 'working',
    createdAt: Date.now(),
    lastUpdatedAt: Date.now(),
    expiresAt: null,
    keepMs: 60_000,
    pollIntervalMs: 1000,
    owner: 'gone',
    leaseExpiresAt: 0,
    method: 'tools/call',
    name: 'tool',
  })
  // Before any outage, a run-out lease means the owner is gone: failed at once.
  await outage.store.create(orphan('before'))
  expect((await reader.find('before', undefined)).status).toBe('failed')
  // After one, the owner may have been cut off as well and not renewed yet: still working, until
  // a lease has passed with nobody renewing it.
  await outage.store.create(orphan('after'))
  outage.goAway()
  outage.comeBack()
  expect((await reader.find('after', undefined)).status).toBe('working')
  await eventually(async () => (await reader.find('after', undefined)).status === 'failed')
  expect(await outage.peek('after')).toMatchObject({
    error: { message: 'the server instance running the task went away' },
  })
  await reader.close()
})

test('progress the store cannot take is reported, and the work goes on', async () => {
  const outage = outageStore()
  const reports: string[] = []
  const manager = new TaskManager({ store: outage.store }, (error) => reports.push(error.message))
  const { taskId } = await manager.create(call, new AbortController())
  outage.goAway()
  await expect(manager.statusMessage(taskId, 'step 1')).resolves.toBeUndefined()
  expect(reports).toEqual([
    `cannot store the status of task ${taskId}: the task store is unavailable: test outage`,
  ])
  outage.comeBack()
  await manager.statusMessage(taskId, 'step 2')
  expect((await outage.peek(taskId))?.statusMessage).toBe('step 2')
  await manager.close()
})
