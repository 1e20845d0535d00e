// Sessions follow tasks (the io.modelcontextprotocol/tasks extension, 2026-07-28) against a real
// @mcp-kit/server over HTTP on 127.0.0.1: callTool returns the task's result as if the call had
// answered at once, reporting its states; the task's questions go to the session's InputHandler
// and back through tasks/update; status notifications wake the follower before the server's poll
// interval; giving up cancels the task; startTool, getTask and cancelTask expose the handle. The
// 2025-11-25 experimental tasks are followed in test/real-servers.test.ts (server-everything).

import { createToolRegistry, type RunningHttpServer, startHttpServer } from '@mcp-kit/server'
import { afterEach, expect, test } from 'vitest'
import { connect, noEraCache, type Session, type TaskState } from '../../src/index.js'
import { failureOf } from '../helpers/processes.js'

const open = new Set<{ close(): Promise<void> }>()
afterEach(async () => {
  for (const each of open) await each.close()
  open.clear()
})

function gate() {
  let release = () => {}
  const released = new Promise<void>((resolve) => {
    release = resolve
  })
  return { release, released }
}

async function serveTasks(
  register: (registry: ReturnType<typeof createToolRegistry>) => void,
  pollIntervalMs = 60_000,
): Promise<RunningHttpServer> {
  const registry = createToolRegistry()
  register(registry)
  // A poll interval of a minute: a test that finishes sooner was woken by notifications.
  const server = await startHttpServer(registry, { tasks: { pollIntervalMs } })
  open.add(server)
  return server
}

async function session(
  server: RunningHttpServer,
  options: Parameters<typeof connect>[1] = {},
): Promise<Session> {
  const connected = await connect(
    { transport: 'http', url: server.url },
    { eraCache: noEraCache, ...options },
  )
  open.add(connected)
  return connected
}

test('callTool follows a task to its result, reporting each state; notifications wake it early', async () => {
  const step = gate()
  const server = await serveTasks((registry) =>
    registry.tool({
      name: 'report',
      taskSupport: 'optional',
      handler: async (_args, context) => {
        await context.progress(1, 2, 'gathering')
        await step.released
        return { pages: 3 }
      },
    }),
  )
  const client = await session(server)
  expect(client.era).toBe('modern')
  const states: TaskState[] = []
  const calling = client.callTool('report', {}, { onTask: (task) => states.push(task) })
  await expect
    .poll(() => states.some((task) => task.statusMessage === 'gathering'), { timeout: 10_000 })
    .toBe(true)
  step.release()
  const result = await calling
  expect(result.structuredContent).toEqual({ pages: 3 })
  expect(result).not.toHaveProperty('resultType')
  expect(states[0]).toMatchObject({ status: 'working', pollIntervalMs: 60_000 })
  expect(states.at(-1)).toMatchObject({ status: 'completed' })
})

test("a task's questions go to the InputHandler and back through tasks/update", async () => {
  const server = await serveTasks(
    (registry) =>
      registry.tool({
        name: 'delete_note',
        inputSchema: { type: 'object', properties: { id: { type: 'string' } } },
        taskSupport: 'required',
        handler: async ({ id }, context) => {
          const answer = await context.elicit({
            message: `Delete ${id}?`,
            requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } } },
          })
          return answer.content?.confirm === true ? `deleted ${id}` : 'kept'
        },
      }),
    50,
  )
  const asked: string[] = []
  const client = await session(server, {
    input: {
      elicit: async (request, context) => {
        asked.push(`${request.message} (${context.during})`)
        return { action: 'accept', content: { confirm: true } }
      },
    },
  })
  expect(await client.callTool('delete_note', { id: 'n1' })).toMatchObject({
    content: [{ type: 'text', text: 'deleted n1' }],
  })
  expect(asked).toEqual(["Delete n1? (tools/call 'delete_note')"])
})

test('failed tasks throw like failed calls; aborting cancels the task on the server', async () => {
  const server = await serveTasks((registry) =>
    registry
      .tool({
        name: 'breaks',
        taskSupport: 'optional',
        handler: async () => {
          const { RpcFailure } = await import('@mcp-kit/server')
          throw new RpcFailure(-32603, 'the job broke down')
        },
      })
      .tool({
        name: 'forever',
        taskSupport: 'optional',
        handler: (_args, context) =>
          new Promise((_resolve, reject) =>
            context.signal.addEventListener('abort', () => reject(new Error('stop'))),
          ),
      }),
  )
  const client = await session(server)
  const failure = await failureOf(client.callTool('breaks'))
  expect(failure).toMatchObject({ code: 'server_error', details: { rpcCode: -32603 } })
  expect(failure.message).toMatch(/the job broke down/)

  const controller = new AbortController()
  let taskId: string | undefined
  const calling = client.callTool(
    'forever',
    {},
    { signal: controller.signal, onTask: (task) => (taskId = task.taskId) },
  )
  await expect.poll(() => taskId, { timeout: 10_000 }).toBeDefined()
  controller.abort()
  expect(await failureOf(calling)).toMatchObject({ code: 'cancelled' })
  expect(await client.getTask(taskId as string)).toMatchObject({ status: 'cancelled' })
})

test('startTool hands out the task; getTask reads it, followTask waits for it, cancelTask ends it', async () => {
  const finish = gate()
  const never = new Promise<void>(() => {})
  let calls = 0
  const server = await serveTasks((registry) =>
    registry.tool({ name: 'quick', handler: () => 'at once' }).tool({
      name: 'later',
      taskSupport: 'optional',
      handler: async () => {
        calls += 1
        await (calls === 1 ? finish.released : never)
        return 'done later'
      },
    }),
  )
  const client = await session(server)
  expect(await client.startTool('quick')).toMatchObject({
    kind: 'result',
    result: { content: [{ text: 'at once' }] },
  })
  const started = await client.startTool('later')
  if (started.kind !== 'task') throw new Error('expected a task')
  expect(await client.getTask(started.task.taskId)).toMatchObject({ status: 'working' })
  const following = client.followTask(started.task.taskId)
  finish.release()
  expect(await following).toMatchObject({ content: [{ type: 'text', text: 'done later' }] })
  expect(await client.getTask(started.task.taskId)).toMatchObject({
    status: 'completed',
    result: { content: [{ type: 'text', text: 'done later' }] },
  })
  const other = await client.startTool('later')
  if (other.kind !== 'task') throw new Error('expected a task')
  await client.cancelTask(other.task.taskId)
  expect((await client.getTask(other.task.taskId)).status).toBe('cancelled')
  expect(await failureOf(client.getTask('no-such-task'))).toMatchObject({ details: { rpcCode: -32602 } })
})
