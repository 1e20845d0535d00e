// Requests of the 2026-07-28 protocol revision over Streamable HTTP, as a 2026 client sends them:
// no session and no `initialize`; every request carries the protocol version, the client's
// capabilities and its name in `_meta`, and repeats its method (and the tool's name) in the
// `Mcp-Method` and `Mcp-Name` headers next to `MCP-Protocol-Version`. One checked call, and the
// same requests under autocannon.

import { driveLoad } from './http-session.js'

export const modernVersion = '2026-07-28'

const envelope = {
  'io.modelcontextprotocol/protocolVersion': modernVersion,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'mcp-kit-bench', version: '1' },
}

/**
 * The headers of a 2026 `tools/call` of `tool`.
 * @param {string} tool
 */
export function toolCallHeaders(tool) {
  return {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': modernVersion,
    'mcp-method': 'tools/call',
    'mcp-name': tool,
  }
}

/**
 * The body of a 2026 `tools/call`.
 * @param {number} id
 * @param {string} tool
 * @param {Record<string, unknown>} args
 */
export function toolCallBody(id, tool, args) {
  return JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: tool, arguments: args, _meta: envelope },
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
