// MCP results as NDJSON records (docs/architecture.md "Records"): what cat/head/tail/put print.

import type { CallToolResult, GetPromptResult, ReadResourceResult } from '@mcp-kit/client'
import { inFlagTerms } from './flag-wording.js'

export type Record_ = Record<string, unknown>

function valueRecord(value: unknown): Record_ {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record_) : { value }
}

/** JSON text becomes its value (arrays flatten, scalars become {value}); other text a text record. */
function textRecords(text: string): Record_[] {
  const trimmed = text.trim()
  // Only try JSON.parse on text that can be JSON: saves work on prose.
  if (trimmed !== '' && /^[[{"\-0-9tfn]/.test(trimmed)) {
    try {
      const value: unknown = JSON.parse(trimmed)
      return Array.isArray(value) ? value.map(valueRecord) : [valueRecord(value)]
    } catch {
      // not JSON: a text record
    }
  }
  return [{ type: 'text', text }]
}

type ContentItem = CallToolResult['content'][number]

function contentRecords(item: ContentItem): Record_[] {
  switch (item.type) {
    case 'text':
      return textRecords(item.text)
    case 'image':
    case 'audio':
      return [{ type: item.type, mimeType: item.mimeType, data: item.data }]
    case 'resource': {
      const { uri, mimeType, ...rest } = item.resource as {
        uri: string
        mimeType?: string
        text?: string
        blob?: string
      }
      return [
        { type: 'resource', uri, mimeType, ...('text' in rest ? { text: rest.text } : { blob: rest.blob }) },
      ]
    }
    case 'resource_link':
      return [{ type: 'resource', uri: item.uri, mimeType: item.mimeType, name: item.name }]
    default:
      return [item as Record_]
  }
}

/** Records of a tool result: its structuredContent, or one per content item. */
export function toolResultRecords(result: CallToolResult): Record_[] {
  const structured = result.structuredContent as unknown
  if (structured !== undefined && structured !== null) {
    return Array.isArray(structured) ? structured.map(valueRecord) : [valueRecord(structured)]
  }
  return (result.content ?? []).flatMap(contentRecords)
}

/** Records of a resource read: one per contents item. */
export function resourceRecords(result: ReadResourceResult): Record_[] {
  return result.contents.map((item) => ({ ...item }) as Record_)
}

/** Records of a prompt: one per message, its content flattened next to its role. */
export function promptRecords(result: GetPromptResult): Record_[] {
  return result.messages.flatMap((message) =>
    contentRecords(message.content as ContentItem).map((record) => ({ role: message.role, ...record })),
  )
}

/** The text of a tool error result, for error records and messages. */
export function toolErrorMessage(result: CallToolResult): string {
  const text = (result.content ?? [])
    .filter((item): item is { type: 'text'; text: string } => item.type === 'text')
    .map((item) => item.text)
    .join('\n')
  return text === '' ? 'the tool reported an error' : text
}

export interface ErrorLike {
  code: string
  message: string
  details?: Record<string, unknown>
}

/** {"error": {code, message, details?}} (+ "input" for put). */
export function errorRecord(error: ErrorLike, input?: number): Record_ {
  const body: Record_ = { code: error.code, message: inFlagTerms(error.message) }
  if (error.details && Object.keys(error.details).length > 0) body.details = error.details
  return input === undefined ? { error: body } : { error: body, input }
}
