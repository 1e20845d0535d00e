// The in-memory TaskStore and the TaskManager's rules that need no wire: records are copies
// (nobody holds a reference into the store, as with a shared store), expiry, owner filters, the
// change feed, and tasks bound to the principal that created them.

import fc from 'fast-check'
import { expect, test } from 'vitest'
import { takeAnswers } from '../../src/tasks/input.js'
import { TaskManager } from '../../src/tasks/manager.js'
import { memoryTaskStore, type TaskRecord } from '../../src/tasks/store.js'

function record(taskId: string, fields: Partial<TaskRecord> = {}): TaskRecord {
  return {
    taskId,
    status: 'working',
    createdAt: 1000,
    lastUpdatedAt: 1000,
    expiresAt: null,
    keepMs: 60_000,
    pollIntervalMs: 1000,
    owner: 'a',
    leaseExpiresAt: 31_000,
    method: 'tools/call',
    name: 'tool',
    ...fields,
  }
}

test('memory store: copies in and out, atomic updates, owner filter, expiry, change feed', async () => {
  let now = 5000
  const store = memoryTaskStore({ now: () => now })
  const seen: string[] = []
  const stopWatching = store.watch((changed) => seen.push(`${changed.taskId}:${changed.status}`))
  const followed: string[] = []
  store.watch(
    (changed) => followed.push(`${changed.taskId}:${changed.status}`),
    (taskId) => taskId === 'one',
  )
  const first = record('one')
  await store.create(first)
  await store.create(record('two', { owner: 'b', expiresAt: 6000 }))
  await expect(store.create(record('one'))).rejects.toThrow(/exists/)
  first.status = 'failed'
  const read = (await store.get('one')) as TaskRecord
  expect(read.status).toBe('working')
  read.status = 'failed'
  expect((await store.get('one'))?.status).toBe('working')

  const updated = await store.update('one', (current) => ({ ...current, status: 'completed' }))
  expect(updated?.status).toBe('completed')
  expect(await store.update('one', () => undefined)).toMatchObject({ status: 'completed' })
  expect(await store.update('missing', (current) => current)).toBeUndefined()
  expect((await store.list({ owner: 'b' })).map((each) => each.taskId)).toEqual(['two'])

  now = 6000
  expect(await store.get('two')).toBeUndefined()
  await store.create(record('three', { expiresAt: 7000 }))
  expect(await store.expire(7000)).toBe(1)
  expect((await store.list()).map((each) => each.taskId)).toEqual(['one'])

  await Promise.resolve()
  expect(seen).toEqual(['one:working', 'two:working', 'one:completed', 'three:working'])
  expect(followed).toEqual(['one:working', 'one:completed'])
  stopWatching()
})

test('a task is only visible to the principal that created it', async () => {
  const manager = new TaskManager({ store: memoryTaskStore() })
  const created = await manager.create(
    { method: 'tools/call', name: 'tool', principal: 'alice' },
    new AbortController(),
  )
  await expect(manager.find(created.taskId, 'alice')).resolves.toMatchObject({ status: 'working' })
  for (const attempt of [
    manager.find(created.taskId, 'bob'),
    manager.find(created.taskId, undefined),
    manager.cancel(created.taskId, 'bob'),
    manager.deliver(created.taskId, {}, 'bob'),
  ]) {
    await expect(attempt).rejects.toMatchObject({ code: -32602 })
  }
  expect((await manager.find(created.taskId, 'alice')).status).toBe('working')
  await manager.close()
  expect((await manager.find(created.taskId, 'alice')).status).toBe('failed')
})

test('tasks/update answers, whatever a client sends: only outstanding keys move, the rest stays', () => {
  const question = {
    method: 'elicitation/create' as const,
    params: { message: 'Name?', requestedSchema: { type: 'object' as const, properties: {} } },
  }
  const key = fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom('constructor', '__proto__', 'toString'))
  const answer = fc.oneof(
    fc.record({ action: fc.constantFrom('accept', 'decline', 'cancel') }),
    fc.jsonValue(),
  )
  fc.assert(
    fc.property(
      fc.uniqueArray(key, { maxLength: 4 }),
      fc.dictionary(key, answer, { maxKeys: 6 }),
      (asked, responses) => {
        const current = record('t', {
          status: asked.length > 0 ? 'input_required' : 'working',
          inputRequests: Object.fromEntries(asked.map((key) => [key, question])),
        })
        const { next, invalid } = takeAnswers(current, responses, 2000)
        const answered = asked.filter((each) => Object.hasOwn(responses, each))
        if (invalid !== undefined || answered.length === 0) {
          expect(next).toBeUndefined()
          return
        }
        const taken = next as TaskRecord
        expect(Object.keys(taken.inputResponses ?? {}).sort()).toEqual([...answered].sort())
        const left = asked.filter((each) => !Object.hasOwn(responses, each))
        expect(Object.keys(taken.inputRequests ?? {}).sort()).toEqual(left.sort())
        expect(taken.status).toBe(left.length > 0 ? 'input_required' : 'working')
      },
    ),
  )
})
