// Requests of the 2026-07-28 protocol revision over Streamable HTTP, as a 2026 client sends them:
// no session and no `initialize`; every request carries the protocol version, the client's
// capabilities and its name in `_meta`, and repeats its method (and the tool's name) in the
// `Mcp-Method` and `Mcp-Name` headers next to `MCP-Protocol-Version`. One checked call, and the
// same requests under autocannon. Tasks (the io.modelcontextprotocol/tasks extension): a call
// from a client that declares the extension, then `tasks/get` until the task is over.

import { driveLoad } from './http-session.js'

export const modernVersion = '2026-07-28'

const envelope = {
  'io.modelcontextprotocol/protocolVersion': modernVersion,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'mcp-kit-bench', version: '1' },
}

export const tasksExtension = 'io.modelcontextprotocol/tasks'

/** The envelope of a client that follows tasks. */
const taskEnvelope = {
  ...envelope,
  'io.modelcontextprotocol/clientCapabilities': { extensions: { [tasksExtension]: {} } },
}

/**
 * The headers of a 2026 request (`Mcp-Name` mirrors the tool's name or the task's id).
 * @param {string} method
 * @param {string} name
 */
function requestHeaders(method, name) {
  return {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': modernVersion,
    'mcp-method': method,
    'mcp-name': name,
  }
}

/**
 * The headers of a 2026 `tools/call` of `tool`.
 * @param {string} tool
 */
export function toolCallHeaders(tool) {
  return requestHeaders('tools/call', tool)
}

/**
 * The body of a 2026 `tools/call`.
 * @param {number} id
 * @param {string} tool
 * @param {Record<string, unknown>} args
 * @param {{ tasks?: boolean }} [settings]  declare the tasks extension
 */
export function toolCallBody(id, tool, args, { tasks = false } = {}) {
  return JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: tool, arguments: args, _meta: tasks ? taskEnvelope : envelope },
  })
}

/** The JSON-RPC message of an answer that may be plain JSON or an SSE stream. */
function parseAnswer(text, contentType) {
  if (!contentType.includes('text/event-stream')) return JSON.parse(text)
  const messages = text
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => JSON.parse(line.slice(5)))
    .filter((message) => 'id' in message && !('method' in message))
  if (messages.length === 0) throw new Error(`no JSON-RPC answer in SSE body: ${text.slice(0, 200)}`)
  return messages[0]
}

/**
 * One 2026 `tools/call`; throws unless it answers 200 with a text result equal to `expected`.
 * @param {string} url
 * @param {string} tool
 * @param {Record<string, unknown>} args
 * @param {string} expected
 */
export async function checkToolCall(url, tool, args, expected) {
  const response = await fetch(url, {
    method: 'POST',
    headers: toolCallHeaders(tool),
    body: toolCallBody(1, tool, args),
  })
  const text = await response.text()
  const message = response.ok ? parseAnswer(text, response.headers.get('content-type') ?? '') : undefined
  if (message?.result?.content?.[0]?.text !== expected) {
    throw new Error(`2026 tools/call ${tool} answered ${response.status}: ${text.slice(0, 300)}`)
  }
}

/**
 * 2026 `tools/call echo` under autocannon: each request its own id, its own `_meta` envelope.
 * @param {string} url
 * @param {{ connections: number, seconds: number }} settings
 */
export function loadModernEcho(url, { connections, seconds }) {
  return driveLoad({
    url,
    connections,
    seconds,
    headers: toolCallHeaders('echo'),
    body: (id) => toolCallBody(id, 'echo', { message: 'hello' }),
  })
}

/** POSTs one 2026 request and returns its JSON-RPC answer; throws unless it is a 200 with a result. */
async function request(url, method, name, body) {
  const response = await fetch(url, { method: 'POST', headers: requestHeaders(method, name), body })
  const text = await response.text()
  const message = response.ok ? parseAnswer(text, response.headers.get('content-type') ?? '') : undefined
  if (message?.result === undefined) {
    throw new Error(`2026 ${method} ${name} answered ${response.status}: ${text.slice(0, 300)}`)
  }
  return message.result
}

let nextTaskRequestId = 1

/**
 * One task from creation to its result: `tools/call` of `tool` (which runs as a task) with the
 * tasks extension declared, then `tasks/get` again at once until the task is over. Throws unless
 * the call created a task and the task completed with a text result equal to `expected`.
 * @param {string} url
 * @param {string} tool
 * @param {Record<string, unknown>} args
 * @param {string} expected
 * @returns {Promise<{ ms: number, polls: number, taskId: string }>}  polls: tasks/get requests sent
 */
export async function taskRoundTrip(url, tool, args, expected) {
  const started = process.hrtime.bigint()
  const created = await request(
    url,
    'tools/call',
    tool,
    toolCallBody(nextTaskRequestId++, tool, args, { tasks: true }),
  )
  if (created.resultType !== 'task' || typeof created.taskId !== 'string') {
    throw new Error(`tools/call ${tool} did not create a task: ${JSON.stringify(created).slice(0, 300)}`)
  }
  const taskId = created.taskId
  for (let polls = 1; polls <= 10_000; polls++) {
    const task = await getTask(url, taskId)
    if (task.status === 'working') continue
    const ms = Number(process.hrtime.bigint() - started) / 1e6
    if (task.status !== 'completed' || task.result?.content?.[0]?.text !== expected) {
      throw new Error(`task ${taskId} ended ${task.status}: ${JSON.stringify(task).slice(0, 300)}`)
    }
    return { ms, polls, taskId }
  }
  throw new Error(`task ${taskId} was still working after 10,000 tasks/get`)
}

/**
 * `tasks/get` of a task (the client declares the extension).
 * @param {string} url
 * @param {string} taskId
 */
export function getTask(url, taskId) {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: nextTaskRequestId++,
    method: 'tasks/get',
    params: { taskId, _meta: taskEnvelope },
  })
  return request(url, 'tasks/get', taskId, body)
}
