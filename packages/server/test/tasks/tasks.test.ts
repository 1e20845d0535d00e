// The tasks extension (SEP-2663) over real HTTP: a registry tool that declares `taskSupport` runs
// as a task for a 2026-07-28 client that declared the extension; tasks/get follows it, its
// questions are answered with tasks/update, tasks/cancel stops it, notifications/tasks report it
// on subscriptions/listen, finished tasks are kept `keepMs`, and a task whose instance went away
// fails instead of hanging. The conformance suite (tooling/conformance) checks the wire broadly;
// these pin mcp-kit's own behaviour.

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { createTaskSessionFromClient } from '@modelcontextprotocol/ext-tasks/client'
import { describe, expect, test } from 'vitest'
import { createToolRegistry } from '../../src/registry/registry.js'
import { TaskManager } from '../../src/tasks/manager.js'
import { memoryTaskStore } from '../../src/tasks/store.js'
import { eventually, post, postStream, serve, stop } from '../helpers/http.js'

const version = '2026-07-28'
const tasksExtension = 'io.modelcontextprotocol/tasks'
const following = { elicitation: {}, extensions: { [tasksExtension]: {} } }
let nextId = 1
// biome-ignore lint/suspicious/noExplicitAny: JSON off the wire, which the assertions check
type Wire = Record<string, any>

/** A 2026-07-28 request with its envelope and standard headers (Mcp-Name: tool name or task id). */
async function rpc(
  url: string,
  method: string,
  params: Record<string, unknown>,
  capabilities: Record<string, unknown> = following,
) {
  const name = (params.name ?? params.taskId) as string | undefined
  const headers: Record<string, string> = { 'mcp-protocol-version': version, 'mcp-method': method }
  if (name !== undefined) headers['mcp-name'] = name
  const body = {
    jsonrpc: '2.0',
    id: nextId++,
    method,
    params: {
      ...params,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': version,
        'io.modelcontextprotocol/clientCapabilities': capabilities,
      },
    },
  }
  const response = await post(url, body, headers)
  return response.json as { result?: Wire; error?: { code: number; message: string; data?: Wire } }
}

/** Calls a task tool; resolves to the id of the task it created. */
async function startTask(url: string, name: string): Promise<string> {
  const created = await rpc(url, 'tools/call', { name, arguments: {} })
  expect(created.result).toMatchObject({ resultType: 'task' })
  return created.result?.taskId as string
}

const getTask = async (url: string, taskId: string) =>
  (await rpc(url, 'tasks/get', { taskId })).result as Wire

/** A promise the test resolves: lets a handler run step by step without timing. */
function gate() {
  let open = () => {}
  const opened = new Promise<void>((resolve) => {
    open = resolve
  })
  return { open, opened }
}

describe('tools that run as tasks', () => {
  test('a handle at once; tasks/get follows the task, progress as its status message, the result inlined', async () => {
    const first = gate()
    const second = gate()
    const registry = createToolRegistry().tool({
      name: 'report',
      taskSupport: 'optional',
      handler: async (_args, context) => {
        await first.opened
        await context.progress(1, 2, 'half way')
        await context.log('info', 'dropped: tasks have no channel for log messages')
        await second.opened
        return { rows: 2, task: context.taskId }
      },
    })
    const server = await serve(registry, { tasks: { pollIntervalMs: 250 } })
    const created = (await rpc(server.url, 'tools/call', { name: 'report', arguments: {} })).result as Wire
    expect(created).toMatchObject({ resultType: 'task', status: 'working', pollIntervalMs: 250 })
    expect(created.taskId).toMatch(/^[0-9a-f-]{36}$/)
    expect(Number.isInteger(created.ttlMs)).toBe(true)
    expect(created).not.toHaveProperty('result')
    const taskId = created.taskId as string
    expect(await getTask(server.url, taskId)).toMatchObject({
      resultType: 'complete',
      taskId,
      status: 'working',
    })
    first.open()
    await eventually(async () => (await getTask(server.url, taskId)).statusMessage === 'half way')
    second.open()
    await eventually(async () => (await getTask(server.url, taskId)).status === 'completed')
    const done = await getTask(server.url, taskId)
    expect(done.result).toMatchObject({
      structuredContent: { rows: 2, task: taskId },
      resultType: 'complete',
    })
    expect(done).not.toHaveProperty('inputRequests')
  })

  test('without the extension: optional tools answer in the request, required ones and tasks/* get -32021', async () => {
    const registry = createToolRegistry()
      .tool({ name: 'maybe', taskSupport: 'optional', handler: () => 'in the request' })
      .tool({ name: 'only_task', taskSupport: 'required', handler: () => 'never here' })
    const server = await serve(registry)
    const plain = await rpc(server.url, 'tools/call', { name: 'maybe', arguments: {} }, {})
    expect(plain.result).toMatchObject({
      resultType: 'complete',
      content: [{ type: 'text', text: 'in the request' }],
    })
    const refused = await rpc(server.url, 'tools/call', { name: 'only_task', arguments: {} }, {})
    expect(refused.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { extensions: { [tasksExtension]: {} } } },
    })
    for (const method of ['tasks/get', 'tasks/cancel']) {
      expect((await rpc(server.url, method, { taskId: 'x' }, {})).error?.code).toBe(-32021)
    }
    // The 2025-11-25 surface is gone: tasks/result and tasks/list are unknown methods.
    expect((await rpc(server.url, 'tasks/result', { taskId: 'x' })).error?.code).toBe(-32601)
    expect((await rpc(server.url, 'tasks/get', { taskId: 'no-such-task' })).error?.code).toBe(-32602)
  })

  test('questions become inputRequests, answered one at a time with tasks/update', async () => {
    const registry = createToolRegistry().tool({
      name: 'two_questions',
      taskSupport: 'optional',
      handler: async (_args, context) => {
        const form = { message: 'Name?', requestedSchema: { type: 'object' as const, properties: {} } }
        const [a, b] = await Promise.all([
          context.elicit(form, { key: 'first' }),
          context.elicit(form, { key: 'second' }),
        ])
        // A key asked again later in the task gets a fresh one on the wire.
        const again = await context.elicit(form, { key: 'first' })
        return `${a.action} ${b.action} ${again.action}`
      },
    })
    const server = await serve(registry)
    const taskId = await startTask(server.url, 'two_questions')
    await eventually(
      async () => Object.keys((await getTask(server.url, taskId)).inputRequests ?? {}).length === 2,
    )
    const asked = await getTask(server.url, taskId)
    expect(asked.status).toBe('input_required')
    expect(asked.inputRequests.first).toMatchObject({
      method: 'elicitation/create',
      params: { message: 'Name?' },
    })
    const invalid = await rpc(server.url, 'tasks/update', { taskId, inputResponses: { first: { nope: 1 } } })
    expect(invalid.error?.code).toBe(-32602)
    const ack = await rpc(server.url, 'tasks/update', {
      taskId,
      inputResponses: { first: { action: 'accept', content: {} }, unknown: { action: 'accept' } },
    })
    expect(ack.result).toEqual({
      resultType: 'complete',
      _meta: { 'io.modelcontextprotocol/serverInfo': expect.any(Object) },
    })
    const partly = await getTask(server.url, taskId)
    expect(partly.status).toBe('input_required')
    expect(Object.keys(partly.inputRequests)).toEqual(['second'])
    await rpc(server.url, 'tasks/update', { taskId, inputResponses: { second: { action: 'decline' } } })
    await eventually(async () => 'first-2' in ((await getTask(server.url, taskId)).inputRequests ?? {}))
    await rpc(server.url, 'tasks/update', { taskId, inputResponses: { 'first-2': { action: 'cancel' } } })
    await eventually(async () => (await getTask(server.url, taskId)).status === 'completed')
    expect((await getTask(server.url, taskId)).result.content[0].text).toBe('accept decline cancel')
  })

  test('tasks/cancel aborts the handler; the task ends cancelled and a second cancel is the same ack', async () => {
    let aborted = false
    const registry = createToolRegistry().tool({
      name: 'forever',
      taskSupport: 'optional',
      handler: (_args, context) =>
        new Promise((_resolve, reject) => {
          context.signal.addEventListener('abort', () => {
            aborted = true
            reject(context.signal.reason)
          })
        }),
    })
    const server = await serve(registry)
    const taskId = await startTask(server.url, 'forever')
    const ack = await rpc(server.url, 'tasks/cancel', { taskId })
    expect(Object.keys(ack.result ?? {}).sort()).toEqual(['_meta', 'resultType'])
    expect(aborted).toBe(true)
    expect(await getTask(server.url, taskId)).toMatchObject({ status: 'cancelled' })
    expect((await rpc(server.url, 'tasks/cancel', { taskId })).result?.resultType).toBe('complete')
  })

  test("taskStart 'handler': questions before startTask are input_required rounds, the task starts with the answers", async () => {
    const registry = createToolRegistry().tool({
      name: 'confirm_then_work',
      taskSupport: 'optional',
      taskStart: 'handler',
      handler: async (_args, context) => {
        const answer = await context.elicit({
          message: 'Go?',
          requestedSchema: { type: 'object', properties: {} },
        })
        await context.startTask()
        return `went: ${answer.action} as ${context.taskId === undefined ? 'request' : 'task'}`
      },
    })
    const server = await serve(registry)
    const first = (await rpc(server.url, 'tools/call', { name: 'confirm_then_work', arguments: {} })).result
    expect(first).toMatchObject({ resultType: 'input_required' })
    const key = Object.keys(first?.inputRequests)[0] as string
    const second = (
      await rpc(server.url, 'tools/call', {
        name: 'confirm_then_work',
        arguments: {},
        inputResponses: { [key]: { action: 'accept', content: {} } },
        requestState: first?.requestState,
      })
    ).result as Wire
    expect(second).toMatchObject({ resultType: 'task' })
    expect(second).not.toHaveProperty('requestState')
    await eventually(async () => (await getTask(server.url, second.taskId)).status === 'completed')
    expect((await getTask(server.url, second.taskId)).result.content[0].text).toBe('went: accept as task')
  })

  test('a task after a while: fast calls answer in the request, slow ones become tasks (per tool, or lent by the server)', async () => {
    const slow = gate()
    const registry = createToolRegistry()
      .tool({ name: 'fast', taskSupport: 'optional', taskStart: 60_000, handler: () => 'at once' })
      .tool({
        name: 'slow',
        taskSupport: 'optional',
        taskStart: 0,
        handler: async () => {
          await slow.opened
          return 'later'
        },
      })
      .tool({
        name: 'undeclared',
        handler: async () => {
          await slow.opened
          return 'lent'
        },
      })
      .tool({ name: 'never_a_task', taskSupport: 'forbidden', handler: () => 'in the request' })
    const server = await serve(registry, { tasks: { afterMs: 0 } })
    expect((await rpc(server.url, 'tools/call', { name: 'fast', arguments: {} })).result).toMatchObject({
      resultType: 'complete',
      content: [{ text: 'at once' }],
    })
    const slowTask = await startTask(server.url, 'slow')
    const lentTask = await startTask(server.url, 'undeclared')
    expect(
      (await rpc(server.url, 'tools/call', { name: 'never_a_task', arguments: {} })).result,
    ).toMatchObject({
      resultType: 'complete',
    })
    slow.open()
    for (const [taskId, text] of [
      [slowTask, 'later'],
      [lentTask, 'lent'],
    ] as const) {
      await eventually(async () => (await getTask(server.url, taskId)).status === 'completed')
      expect((await getTask(server.url, taskId)).result.content[0].text).toBe(text)
    }
  })

  test('finished tasks are kept keepMs: with 0 they are gone once they end', async () => {
    const registry = createToolRegistry().tool({
      name: 'quick',
      taskSupport: 'optional',
      handler: () => 'done',
    })
    const server = await serve(registry, { tasks: { keepMs: 0 } })
    const taskId = await startTask(server.url, 'quick')
    await eventually(async () => (await rpc(server.url, 'tasks/get', { taskId })).error?.code === -32602)
  })

  test('a task whose instance went away fails for whoever reads it; a stopping server fails its own', async () => {
    const store = memoryTaskStore()
    const never = new Promise<string>(() => {})
    const registry = createToolRegistry().tool({
      name: 'stuck',
      taskSupport: 'optional',
      handler: () => never,
    })
    const first = await serve(registry, { tasks: { store } })
    const second = await serve(createToolRegistry(), { tasks: { store } })
    const orphan = (await rpc(first.url, 'tools/call', { name: 'stuck', arguments: {} })).result
      ?.taskId as string
    const stopping = (await rpc(first.url, 'tools/call', { name: 'stuck', arguments: {} })).result
      ?.taskId as string
    // Another instance reads it while the owner's lease holds: still working.
    expect((await getTask(second.url, orphan)).status).toBe('working')
    // The owner stops renewing its lease (as a killed instance would).
    await store.update(orphan, (record) => ({ ...record, owner: 'gone', leaseExpiresAt: 0 }))
    expect(await getTask(second.url, orphan)).toMatchObject({
      status: 'failed',
      error: { code: -32603, message: 'the server instance running the task went away' },
    })
    await stop(first)
    expect(await getTask(second.url, stopping)).toMatchObject({ status: 'failed', error: { code: -32603 } })
  })

  test('a server stopping gracefully lets its running tasks finish within the grace period', async () => {
    const store = memoryTaskStore()
    const finish = gate()
    const registry = createToolRegistry().tool({
      name: 'finishing',
      taskSupport: 'optional',
      handler: async () => {
        await finish.opened
        return 'finished'
      },
    })
    const server = await serve(registry, { tasks: { store } })
    const taskId = await startTask(server.url, 'finishing')
    const stopping = server.close({ graceMs: 30_000 })
    finish.open()
    await stopping
    expect(await store.get(taskId)).toMatchObject({
      status: 'completed',
      result: { content: [{ text: 'finished' }] },
    })
  })

  test('subscriptions/listen with taskIds: agreed for known tasks, their state now and on each change', async () => {
    const release = gate()
    const registry = createToolRegistry().tool({
      name: 'waits',
      taskSupport: 'optional',
      handler: async () => {
        await release.opened
        return 'released'
      },
    })
    const server = await serve(registry)
    const taskId = await startTask(server.url, 'waits')
    const stream = await postStream(
      server.url,
      {
        jsonrpc: '2.0',
        id: 'sub-tasks',
        method: 'subscriptions/listen',
        params: {
          _meta: {
            'io.modelcontextprotocol/protocolVersion': version,
            'io.modelcontextprotocol/clientCapabilities': following,
          },
          notifications: { taskIds: [taskId, 'not-a-task'] },
        },
      },
      { 'mcp-protocol-version': version, 'mcp-method': 'subscriptions/listen' },
    )
    const messages = () => stream.messages()
    await eventually(() => messages().length >= 2)
    release.open()
    await eventually(() => messages().some((message) => message.params?.status === 'completed'))
    const [ack, ...updates] = messages()
    expect(ack).toMatchObject({
      method: 'notifications/subscriptions/acknowledged',
      params: { notifications: { taskIds: [taskId] } },
    })
    expect(updates[0]).toMatchObject({ method: 'notifications/tasks', params: { taskId, status: 'working' } })
    expect(updates.at(-1)).toMatchObject({
      method: 'notifications/tasks',
      params: {
        taskId,
        status: 'completed',
        result: { content: [{ type: 'text', text: 'released' }] },
        _meta: { 'io.modelcontextprotocol/subscriptionId': 'sub-tasks' },
      },
    })
    stream.close()
    await eventually(() => server.handler.stats().inFlight === 0)
  })
})

describe("the SDK's tasks client (@modelcontextprotocol/ext-tasks on the SDK v2 client)", () => {
  test('follows a task tool to its result, answering its question through tasks/update', async () => {
    const registry = createToolRegistry().tool({
      name: 'delete_note',
      inputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
      taskSupport: 'required',
      handler: async ({ id }, context) => {
        const answer = await context.elicit({
          message: `Delete note ${id}?`,
          requestedSchema: {
            type: 'object',
            properties: { confirm: { type: 'boolean' } },
            required: ['confirm'],
          },
        })
        return answer.action === 'accept' && answer.content?.confirm === true ? `deleted ${id}` : 'kept'
      },
    })
    const server = await serve(registry, { tasks: { pollIntervalMs: 50 } })
    const client = new Client(
      { name: 'ext-tasks-interop', version: '1.0.0' },
      { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: 'auto' } },
    )
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)))
    const asked: string[] = []
    const session = createTaskSessionFromClient(client, {
      endpointId: 'interop',
      // The SDK client cannot send the task wire shapes itself: the host posts them.
      rawDispatch: async (request) => {
        const message = request as { method: string; params?: Record<string, unknown> }
        const name = (message.params?.taskId ?? message.params?.name) as string | undefined
        const headers: Record<string, string> = {
          'mcp-protocol-version': version,
          'mcp-method': message.method,
        }
        if (name !== undefined) headers['mcp-name'] = name
        const response = await post(server.url, { jsonrpc: '2.0', id: nextId++, ...message }, headers)
        const body = response.json as { result?: never; error?: never }
        return body.error === undefined
          ? { kind: 'result', result: body.result as never }
          : { kind: 'error', error: body.error }
      },
      v2RequestFraming: {
        protocolVersion: version,
        clientInfo: { name: 'ext-tasks-interop', version: '1.0.0' },
        clientCapabilities: { elicitation: { form: {} } },
      },
      onInputRequest: async (request) => {
        asked.push(String(request.params?.message))
        return { action: 'accept', content: { confirm: true } } as never
      },
    })
    try {
      expect(session.capabilities.execution).toBe(true)
      const execution = await session.callTool('delete_note', { id: 'n1' })
      expect(execution.kind).toBe('task')
      const { outcome } = await execution.settle()
      expect(outcome).toMatchObject({
        status: 'completed',
        result: { content: [{ type: 'text', text: 'deleted n1' }] },
      })
      expect(asked).toEqual(['Delete note n1?'])
    } finally {
      await session.close()
      await client.close()
    }
  })

  test('at the bound of running tasks: an optional task tool answers in the request, a required one is refused', async () => {
    const held = gate()
    let entered = 0
    const registry = createToolRegistry()
      .tool({
        name: 'hold',
        taskSupport: 'optional',
        handler: async () => {
          entered += 1
          await held.opened
          return 'released'
        },
      })
      .tool({ name: 'must', taskSupport: 'required', handler: () => 'ran as a task' })
    const server = await serve(registry, { tasks: { maxRunning: 2 } })
    const running = [await startTask(server.url, 'hold'), await startTask(server.url, 'hold')]
    // Before, every call became a task, without bound: a client could start work without end.
    const refused = await rpc(server.url, 'tools/call', { name: 'must', arguments: {} })
    expect(refused.error).toMatchObject({
      code: -32000,
      message: 'too many tasks running on this server (limit 2); retry later',
    })
    const inRequest = rpc(server.url, 'tools/call', { name: 'hold', arguments: {} })
    await eventually(() => entered === 3)
    held.open()
    expect((await inRequest).result).toMatchObject({
      resultType: 'complete',
      content: [{ type: 'text', text: 'released' }],
    })
    for (const taskId of running)
      await eventually(async () => (await getTask(server.url, taskId)).status === 'completed')
    // Room again: the required tool runs as a task.
    const created = await rpc(server.url, 'tools/call', { name: 'must', arguments: {} })
    expect(created.result).toMatchObject({ resultType: 'task' })
    await stop(server)
  })

  test('one authenticated caller may run a quarter of the bound; others still get tasks', async () => {
    const manager = new TaskManager({ maxRunning: 8 })
    const start = (principal: string) =>
      manager.create({ method: 'tools/call', name: 'hold', principal }, new AbortController())
    await start('alice')
    await start('alice')
    expect(manager.refusal('alice')).toBe('too many tasks running for this caller (limit 2); retry later')
    expect(manager.refusal('bob')).toBeUndefined()
    expect(manager.refusal(undefined)).toBeUndefined()
    await manager.close(0)
  })

  test('a call that would become a task later is answered in the request if the bound was reached meanwhile', async () => {
    const held = gate()
    const slow = gate()
    let slowEntered = false
    const registry = createToolRegistry()
      .tool({
        name: 'hold',
        taskSupport: 'optional',
        handler: async () => {
          await held.opened
          return 'released'
        },
      })
      .tool({
        name: 'slow',
        handler: async () => {
          slowEntered = true
          await slow.opened
          return 'slow done'
        },
      })
    // `slow` declares nothing: the server makes it a task once it ran 1.5 s (afterMs).
    const server = await serve(registry, { tasks: { maxRunning: 1, afterMs: 1500 } })
    const pending = rpc(server.url, 'tools/call', { name: 'slow', arguments: {} })
    await eventually(() => slowEntered)
    const holding = await startTask(server.url, 'hold')
    await new Promise((resolve) => setTimeout(resolve, 1800))
    slow.open()
    // Before, the task was created when the time came, past the bound.
    expect((await pending).result).toMatchObject({ resultType: 'complete', content: [{ text: 'slow done' }] })
    held.open()
    await eventually(async () => (await getTask(server.url, holding)).status === 'completed')
    await stop(server)
  })
})
