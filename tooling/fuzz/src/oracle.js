// What a case's answers must be, whatever was sent: no 5xx; an answer (or a close) in time;
// bodies that are JSON-RPC when they claim JSON, with error codes the spec and docs/architecture.md allow,
// one-line messages, and the request's own id; SSE events that are JSON-RPC messages; and no
// stack trace or source path anywhere. Each broken rule is a finding with its category.

import { isEventStream, sseData } from './http-wire.js'

/** Finding categories, in the order the summary prints them. */
export const categories = ['5xx', 'hang', 'crash', 'dead', 'internal', 'stack', 'malformed', 'truncated']

/** JSON-RPC error codes mcp-kit may answer with (JSON-RPC 2.0, MCP 2025-11-25 and 2026-07-28). */
export const allowedErrorCodes = new Set([
  -32700, -32600, -32601, -32602, -32603, -32000, -32001, -32002, -32020, -32021, -32022,
])

// A V8 stack frame, a source location, or a path into node's or a package's code.
const stackPattern =
  /\n\s+at \S|\bat (?:async )?[\w$.<>]+ \((?:file:|node:|\/)|node:internal|node_modules|(?:file:\/\/)?\/[\w./-]+\.(?:[cm]?js|ts):\d+/

/**
 * @typedef {{ category: string, detail: string }} Finding
 */

/** Stack-like text in `text` that the request did not carry itself (an echo is not a leak). */
export function leakedStack(text, requestText = '') {
  const match = stackPattern.exec(text)
  if (match === null) return undefined
  return requestText.includes(match[0].trim()) ? undefined : match[0].trim().slice(0, 120)
}

function isId(value) {
  return typeof value === 'string' || (typeof value === 'number' && Number.isInteger(value))
}

function isObject(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * Checks one JSON-RPC message the server sent. `requestId` is the id the answer must carry when
 * it answers our request (undefined: not known, or not a request we can expect an id for).
 * @returns {Finding[]}
 */
export function checkMessage(message, { requestId, answering = false } = {}) {
  /** @type {Finding[]} */
  const findings = []
  const bad = (detail) => findings.push({ category: 'malformed', detail })
  if (!isObject(message)) {
    bad(`not a JSON object: ${JSON.stringify(message)?.slice(0, 80)}`)
    return findings
  }
  if (message.jsonrpc !== '2.0') bad(`jsonrpc is ${JSON.stringify(message.jsonrpc)}`)
  const isResponse = !('method' in message)
  if (!isResponse) {
    if (typeof message.method !== 'string') bad('method is not a string')
    if ('id' in message && !isId(message.id)) bad('a server request has an invalid id')
    return findings
  }
  const extra = Object.keys(message).filter((key) => !['jsonrpc', 'id', 'result', 'error'].includes(key))
  if (extra.length > 0) bad(`unexpected keys ${extra.join(', ')}`)
  if (!('id' in message) || !(message.id === null || isId(message.id)))
    bad(`invalid id ${JSON.stringify(message.id)}`)
  if ('result' in message === 'error' in message) bad('a response needs exactly one of result and error')
  if ('result' in message) {
    if (!isObject(message.result)) bad('result is not an object')
    if (answering && requestId !== undefined && message.id !== requestId) {
      bad(`answers id ${JSON.stringify(message.id)}, the request had ${JSON.stringify(requestId)}`)
    }
  }
  if ('error' in message) {
    const error = message.error
    if (!isObject(error)) bad('error is not an object')
    else {
      if (!Number.isInteger(error.code) || !allowedErrorCodes.has(error.code))
        bad(`error code ${JSON.stringify(error.code)} is not one the server may use`)
      if (typeof error.message !== 'string' || error.message === '') bad('error message missing')
      else if (error.message.length > 2000)
        bad(
          `error message of ${error.message.length} characters: ${JSON.stringify(error.message.slice(0, 100))}…`,
        )
      // The generic answer of an exception nobody anticipated (a handler's own failure says more).
      if (error.code === -32603 && error.message === 'Internal error')
        findings.push({
          category: 'internal',
          detail: 'a request ended in an unanticipated exception (-32603 Internal error)',
        })
    }
    if (answering && requestId !== undefined && message.id !== null && message.id !== requestId) {
      bad(`error answers id ${JSON.stringify(message.id)}, the request had ${JSON.stringify(requestId)}`)
    }
  }
  return findings
}

/**
 * Checks one HTTP answer.
 * @param {import('./http-wire.js').Answer} answer
 * @param {{ requestText?: string, requestId?: string | number, method?: string }} context
 * @returns {Finding[]}
 */
export function checkAnswer(answer, context = {}) {
  /** @type {Finding[]} */
  const findings = []
  if (answer.status >= 500) findings.push({ category: '5xx', detail: `HTTP ${answer.status}` })
  if (answer.status === 0) findings.push({ category: 'malformed', detail: 'unreadable status line' })
  if (!answer.complete)
    findings.push({ category: 'truncated', detail: `HTTP ${answer.status} body cut short` })
  const text = answer.body.toString('utf8')
  const stack = leakedStack(text, context.requestText)
  if (stack !== undefined) findings.push({ category: 'stack', detail: stack })
  for (const [name, values] of answer.headers) {
    const headerStack = leakedStack(values.join('\n'), context.requestText)
    if (headerStack !== undefined) findings.push({ category: 'stack', detail: `${name}: ${headerStack}` })
  }
  if (answer.body.length === 0 || context.method === 'HEAD') return findings
  if (answer.status === 202 || answer.status === 204) {
    findings.push({ category: 'malformed', detail: `HTTP ${answer.status} with a body` })
    return findings
  }
  if (isEventStream(answer)) {
    const events = sseData(answer.body)
    let answered = false
    for (const data of events) {
      let message
      try {
        message = JSON.parse(data)
      } catch {
        findings.push({ category: 'malformed', detail: `SSE data is not JSON: ${data.slice(0, 80)}` })
        continue
      }
      findings.push(...checkMessage(message, { requestId: context.requestId, answering: true }))
      if (isObject(message) && !('method' in message) && message.id === context.requestId) answered = true
    }
    if (
      !answer.streamed &&
      answer.complete &&
      context.requestId !== undefined &&
      !answered &&
      answer.status === 200
    ) {
      findings.push({
        category: 'malformed',
        detail: 'an SSE answer ended without the response to the request',
      })
    }
    return findings
  }
  const contentType = answer.headers.get('content-type')?.[0] ?? ''
  if (!/^application\/json/i.test(contentType)) {
    findings.push({
      category: 'malformed',
      detail: `HTTP ${answer.status} body of type ${JSON.stringify(contentType)}`,
    })
    return findings
  }
  let message
  try {
    message = JSON.parse(text)
  } catch {
    findings.push({
      category: 'malformed',
      detail: `HTTP ${answer.status} body is not JSON: ${text.slice(0, 80)}`,
    })
    return findings
  }
  if (answer.status === 200 && context.healthz) return findings
  findings.push(...checkMessage(message, { requestId: context.requestId, answering: true }))
  if (answer.status >= 400 && isObject(message) && 'result' in message) {
    findings.push({ category: 'malformed', detail: `HTTP ${answer.status} with a result` })
  }
  return findings
}

/**
 * The id an answer must echo: the parsed body's id when the body is one valid JSON-RPC request
 * (what the server itself would read), else undefined.
 * @param {Buffer} body
 */
export function expectedId(body) {
  let value
  try {
    value = JSON.parse(body.toString('utf8'))
  } catch {
    return undefined
  }
  if (!isObject(value) || typeof value.method !== 'string' || !isId(value.id)) return undefined
  return value.id
}
