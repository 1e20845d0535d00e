// An API's answer as an MCP tool result, decoded by its Content-Type: JSON as text and
// structuredContent (an object as it is, anything else as `{ result }` when the tool's shape says
// so), other text in its charset, images and audio as such, other bytes as an embedded resource.
// A 2xx JSON answer is checked against the document's schema for it (check.ts). 3xx, 4xx and 5xx:
// an error result with the status, the API's own message and its whole error body (capped), so
// field errors reach the model. Everything said passes the redactor and loses control characters.

import { STATUS_CODES } from 'node:http'
import { isRecord } from '@mcp-kit/core'
import type { ToolOutput } from '@mcp-kit/server'
import { cleanText } from '../schema/clean-text.js'
import type { OutputShape } from '../tools/output-schema.js'
import { type AnswerCheck, checkAnswer, warningKey } from './check.js'
import type { Redactor } from './redact.js'
import type { HttpAnswer } from './send.js'

const jsonType = /^application\/(?:[\w.+-]+\+)?json\b/i
const textType = /^(text\/|application\/(xml|javascript|x-www-form-urlencoded|yaml|x-yaml)\b|[^;]*\+xml\b)/i
const messageLength = 1000
/** How much of an error body an error result carries. */
export const errorBodyLength = 8000

/** What a result is made with, for one operation. */
export interface AnswerContext {
  where: string
  shape: OutputShape
  check: AnswerCheck | undefined
  redactor: Redactor
}

function typeOf(answer: HttpAnswer): string {
  return answer.headers['content-type']?.split(';')[0]?.trim() ?? ''
}

/** The body as text, in the charset its Content-Type names (UTF-8 when it names none or an unknown one). */
function textOf(answer: HttpAnswer): string {
  const charset = /;\s*charset="?([\w.:-]+)"?/i.exec(answer.headers['content-type'] ?? '')?.[1]
  if (charset === undefined || /^utf-?8$/i.test(charset)) return answer.body.toString('utf8')
  try {
    return new TextDecoder(charset).decode(answer.body)
  } catch {
    return answer.body.toString('utf8')
  }
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

function capped(text: string, length: number): string {
  return text.length > length ? `${text.slice(0, length)}… (${text.length - length} more characters)` : text
}

function oneLine(text: string): string {
  return capped(text.replace(/\s+/g, ' ').trim(), messageLength)
}

/** Every string of a JSON value (keys too) without control characters: escaped in JSON they would survive. */
function cleanValue(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return cleanText(value)
  if (typeof value !== 'object' || value === null || depth > 64) return value
  if (Array.isArray(value)) return value.map((item) => cleanValue(item, depth + 1))
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [cleanText(key), cleanValue(item, depth + 1)]),
  )
}

/** True when an error body holds more than its message and words for its status. */
function saysMore(value: unknown, said: string | undefined, status: number): boolean {
  if (!isRecord(value)) return value !== said
  const phrase = (STATUS_CODES[status] ?? '').toLowerCase()
  return Object.values(value).some((item) => {
    if (item === said || item === status || item === null || item === 'about:blank') return false
    if (typeof item !== 'string') return true
    const lower = item.toLowerCase()
    return lower === '' ? false : !(phrase.includes(lower) || lower.includes(phrase))
  })
}

function failure(answer: HttpAnswer, context: AnswerContext): ToolOutput {
  const status = `HTTP ${answer.status} ${STATUS_CODES[answer.status] ?? ''}`.trim()
  let said: string | undefined
  let body: string | undefined
  const type = typeOf(answer)
  const text = answer.body.length === 0 ? '' : textOf(answer)
  if (answer.status >= 300 && answer.status < 400 && answer.headers.location !== undefined) {
    said = `redirected to ${answer.headers.location} (redirects are not followed)`
  } else if (jsonType.test(type)) {
    try {
      const value: unknown = JSON.parse(text)
      said = apiMessage(value)
      // The whole body when it says more than the message and the status: field errors live there.
      if (saysMore(value, said, answer.status)) body = JSON.stringify(cleanValue(value))
    } catch {
      said = text
    }
  } else if (textType.test(type) || type === '') {
    said = text
  }
  // Secrets out before anything is cut: a cut could leave the start of one.
  const redact = context.redactor.text
  const line = said === undefined || said.trim() === '' ? '' : `: ${oneLine(redact(said))}`
  const detail = body === undefined ? '' : `\n${capped(redact(body), errorBodyLength)}`
  const message = cleanText(`${context.where}: ${status}${line}${detail}`)
  return { isError: true, content: [{ type: 'text', text: message }] }
}

export function toToolResult(answer: HttpAnswer, context: AnswerContext, url: URL): ToolOutput {
  if (answer.status < 200 || answer.status >= 300) return failure(answer, context)
  const type = typeOf(answer)
  if (answer.body.length === 0) {
    return {
      content: [{ type: 'text', text: `${answer.status} ${STATUS_CODES[answer.status] ?? ''}`.trim() }],
    }
  }
  if (jsonType.test(type)) {
    const raw = answer.body.toString('utf8')
    const text = context.redactor.text(raw)
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch {
      return { content: [{ type: 'text', text }] }
    }
    const structured = context.shape === 'wrapped' ? { result: value } : isRecord(value) ? value : undefined
    const result: ToolOutput & Record<string, unknown> = { content: [{ type: 'text', text }] }
    if (structured !== undefined) result.structuredContent = structured
    if (context.check !== undefined) {
      const problems = checkAnswer(context.check, structured ?? value)
      if (problems !== undefined && context.check.strict) {
        return {
          isError: true,
          content: [
            {
              type: 'text',
              text: cleanText(
                `${context.where}: HTTP ${answer.status}: the answer does not match the API's document:\n${problems.join('\n')}`,
              ),
            },
          ],
        }
      }
      if (problems !== undefined) {
        result._meta = { [warningKey]: { warnings: problems.map((problem) => cleanText(problem)) } }
      }
    }
    return result
  }
  if (textType.test(type) || type === '') {
    return { content: [{ type: 'text', text: context.redactor.text(textOf(answer)) }] }
  }
  const data = answer.body.toString('base64')
  if (/^image\//i.test(type)) return { content: [{ type: 'image', mimeType: type, data }] }
  if (/^audio\//i.test(type)) return { content: [{ type: 'audio', mimeType: type, data }] }
  return {
    content: [
      { type: 'resource', resource: { uri: `${url.origin}${url.pathname}`, mimeType: type, blob: data } },
    ],
  }
}
