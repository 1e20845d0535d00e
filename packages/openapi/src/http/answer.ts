// An API's answer as an MCP tool result. 2xx JSON: the value as text and as structuredContent
// (an object as it is, anything else as `{ result }` when the tool's outputSchema says so); other
// text as text; images and audio as such; other bytes as an embedded resource. 3xx, 4xx and 5xx:
// an error result with the status and the API's own message.

import { STATUS_CODES } from 'node:http'
import type { ToolOutput } from '@mcp-kit/server'
import type { OutputShape } from '../tools/output-schema.js'
import type { HttpAnswer } from './send.js'

const jsonType = /^application\/(?:[\w.+-]+\+)?json\b/i
const textType = /^(text\/|application\/(xml|javascript|x-www-form-urlencoded|yaml|x-yaml)\b|[^;]*\+xml\b)/i
const messageLength = 1000

function typeOf(answer: HttpAnswer): string {
  return answer.headers['content-type']?.split(';')[0]?.trim() ?? ''
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** What an error body says, in the shapes APIs use (`message`, `error`, `detail`, `title`, `errors`). */
export function apiMessage(value: unknown): string | undefined {
  if (typeof value === 'string') return value
  if (!isRecord(value)) return undefined
  for (const key of ['message', 'error_description', 'detail', 'title', 'error', 'description']) {
    const found = value[key]
    if (typeof found === 'string' && found.trim() !== '') return found
    if (isRecord(found)) {
      const inner = apiMessage(found)
      if (inner !== undefined) return inner
    }
  }
  if (Array.isArray(value.errors) && value.errors.length > 0) return apiMessage(value.errors[0])
  return undefined
}

function shorten(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length > messageLength ? `${flat.slice(0, messageLength)}…` : flat
}

function failure(answer: HttpAnswer, where: string): ToolOutput {
  const status = `HTTP ${answer.status} ${STATUS_CODES[answer.status] ?? ''}`.trim()
  let said: string | undefined
  const text = answer.body.toString('utf8')
  if (jsonType.test(typeOf(answer))) {
    try {
      const value: unknown = JSON.parse(text)
      said = apiMessage(value) ?? JSON.stringify(value)
    } catch {
      said = text
    }
  } else if (answer.status >= 300 && answer.status < 400 && answer.headers.location !== undefined) {
    said = `redirected to ${answer.headers.location} (redirects are not followed)`
  } else if (textType.test(typeOf(answer)) || typeOf(answer) === '') {
    said = text
  }
  const message = said === undefined || said.trim() === '' ? '' : `: ${shorten(said)}`
  return { isError: true, content: [{ type: 'text', text: `${where}: ${status}${message}` }] }
}

export function toToolResult(answer: HttpAnswer, shape: OutputShape, where: string, url: URL): ToolOutput {
  if (answer.status < 200 || answer.status >= 300) return failure(answer, where)
  const type = typeOf(answer)
  if (answer.body.length === 0) {
    return {
      content: [{ type: 'text', text: `${answer.status} ${STATUS_CODES[answer.status] ?? ''}`.trim() }],
    }
  }
  if (jsonType.test(type)) {
    const text = answer.body.toString('utf8')
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch {
      return { content: [{ type: 'text', text }] }
    }
    if (shape === 'wrapped')
      return { content: [{ type: 'text', text }], structuredContent: { result: value } }
    if (isRecord(value)) return { content: [{ type: 'text', text }], structuredContent: value }
    return { content: [{ type: 'text', text }] }
  }
  if (textType.test(type) || type === '')
    return { content: [{ type: 'text', text: answer.body.toString('utf8') }] }
  const data = answer.body.toString('base64')
  if (/^image\//i.test(type)) return { content: [{ type: 'image', mimeType: type, data }] }
  if (/^audio\//i.test(type)) return { content: [{ type: 'audio', mimeType: type, data }] }
  return {
    content: [
      { type: 'resource', resource: { uri: `${url.origin}${url.pathname}`, mimeType: type, blob: data } },
    ],
  }
}
