// What a command or a person answers, as the sampling result the server gets. The answer is a
// JSON result (an object with `content`; `role`, `model` and `stopReason` optional) or else plain
// text. Either way it is checked against the request: content blocks of the kinds a result may
// hold, tool calls only of the tools offered, one block unless tools were offered. Stop sequences
// the answerer did not heed are applied here: the text ends before the first one.

import type { SamplingRequest, SamplingResult } from '@mcp-kit/client'
import { isRecord } from '@mcp-kit/core'
import { CliError } from '../base/errors.js'

type Block = Record<string, unknown>

/** A failed answer: the call fails (2026) or the server is told (2025), exit 1 either way. */
export function samplingFailed(message: string, details?: Record<string, unknown>): CliError {
  return new CliError('sampling_failed', message, details === undefined ? {} : { details })
}

function checkBlock(block: unknown, index: number, tools: ReadonlySet<string> | undefined): Block {
  const where = `content block ${index + 1}`
  if (!isRecord(block)) throw samplingFailed(`the answer's ${where} is not an object`)
  switch (block.type) {
    case 'text':
      if (typeof block.text !== 'string') throw samplingFailed(`the answer's ${where} has no text`)
      return block
    case 'image':
    case 'audio':
      if (typeof block.data !== 'string' || typeof block.mimeType !== 'string')
        throw samplingFailed(`the answer's ${where} (${block.type}) needs base64 "data" and a "mimeType"`)
      return block
    case 'tool_use': {
      if (tools === undefined)
        throw samplingFailed(`the answer's ${where} calls a tool, but the request offered none`)
      if (typeof block.name !== 'string' || !tools.has(block.name))
        throw samplingFailed(
          `the answer's ${where} calls ${JSON.stringify(block.name)}, which is not one of the tools offered (${[...tools].join(', ')})`,
        )
      if (typeof block.id !== 'string' || block.id === '')
        throw samplingFailed(`the answer's ${where} (a tool call) needs an "id"`)
      if (!isRecord(block.input))
        throw samplingFailed(`the answer's ${where} (a tool call) needs an "input" object`)
      return block
    }
    default:
      throw samplingFailed(
        `the answer's ${where} is of type ${JSON.stringify(block.type)}; an answer holds text, image, audio${tools ? ' or tool_use' : ''} blocks`,
      )
  }
}

/** The tools a request offers, by name (undefined: none). */
export function offeredTools(request: SamplingRequest): ReadonlySet<string> | undefined {
  const tools = (request as { tools?: unknown }).tools
  if (!Array.isArray(tools)) return undefined
  return new Set(
    tools.flatMap((tool) => (isRecord(tool) && typeof tool.name === 'string' ? [tool.name] : [])),
  )
}

/** A result object (from JSON) checked and completed: role, model and stopReason filled in. */
export function checkResult(
  value: Record<string, unknown>,
  request: SamplingRequest,
  model: string,
): SamplingResult {
  const tools = offeredTools(request)
  const listed = Array.isArray(value.content) ? value.content : [value.content]
  if (listed.length === 0) throw samplingFailed('the answer has no content')
  const blocks = listed.map((block, index) => checkBlock(block, index, tools))
  if (blocks.length > 1 && tools === undefined)
    throw samplingFailed('the answer has several content blocks; without tools in the request it holds one')
  if (value.role !== undefined && value.role !== 'assistant')
    throw samplingFailed(`the answer's role must be "assistant", not ${JSON.stringify(value.role)}`)
  if (value.model !== undefined && typeof value.model !== 'string')
    throw samplingFailed("the answer's model must be a string")
  if (value.stopReason !== undefined && typeof value.stopReason !== 'string')
    throw samplingFailed("the answer's stopReason must be a string")
  const callsTools = blocks.some((block) => block.type === 'tool_use')
  return {
    role: 'assistant',
    content: (blocks.length === 1 && !Array.isArray(value.content) ? blocks[0] : blocks) as never,
    model: (value.model as string | undefined) ?? model,
    stopReason: (value.stopReason as string | undefined) ?? (callsTools ? 'toolUse' : 'endTurn'),
    ...(isRecord(value._meta) ? { _meta: value._meta } : {}),
  }
}

/** What a command printed or a person typed: a JSON result (an object with `content`), else text. */
export function parseAnswer(text: string, request: SamplingRequest, model: string): SamplingResult {
  const trimmed = text.trim()
  if (trimmed.startsWith('{')) {
    let parsed: unknown
    try {
      parsed = JSON.parse(trimmed)
    } catch {
      parsed = undefined
    }
    if (isRecord(parsed) && 'content' in parsed) return checkResult(parsed, request, model)
  }
  // Plain text: the answer as written, without the line end a program or a prompt adds.
  return {
    role: 'assistant',
    content: { type: 'text', text: text.replace(/\r?\n$/, '') },
    model,
    stopReason: 'endTurn',
  }
}

/**
 * The answer cut at the request's first stop sequence, if the answerer did not stop there: the
 * text before it is kept and what follows (blocks too) is dropped, as a model stopping there would.
 */
export function applyStopSequences(result: SamplingResult, request: SamplingRequest): SamplingResult {
  const stops = (request.stopSequences ?? []).filter((stop) => typeof stop === 'string' && stop !== '')
  if (stops.length === 0) return result
  const single = !Array.isArray(result.content)
  const blocks = (single ? [result.content] : result.content) as Block[]
  for (const [index, block] of blocks.entries()) {
    if (block.type !== 'text' || typeof block.text !== 'string') continue
    const text = block.text
    const cut = Math.min(...stops.map((stop) => text.indexOf(stop)).filter((at) => at !== -1))
    if (!Number.isFinite(cut)) continue
    const kept = [...blocks.slice(0, index), { ...block, text: text.slice(0, cut) }]
    return {
      ...result,
      content: (single ? kept[0] : kept) as never,
      stopReason: 'stopSequence',
    }
  }
  return result
}
