// A chat-completions answer as a sampling result: the first choice's text, its tool calls as
// `tool_use` blocks (their JSON arguments as `input`), the model that answered, and why it
// stopped (`stop` → endTurn, `length` → maxTokens, `tool_calls` → toolUse; others as they are).
// An answer of another shape is refused with what is wrong with it.

import type { SamplingRequest, SamplingResult } from '@mcp-kit/client'
import { isRecord } from '@mcp-kit/core'
import { applyStopSequences, offeredTools, samplingFailed } from './sampling-answer.js'

const stopReasons: Record<string, string> = {
  stop: 'endTurn',
  length: 'maxTokens',
  tool_calls: 'toolUse',
  function_call: 'toolUse',
}

/** The message's text: a string, or the text of its parts (some servers answer with parts). */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content
  if (Array.isArray(content))
    return content.map((part) => (isRecord(part) && typeof part.text === 'string' ? part.text : '')).join('')
  return ''
}

function toolUse(
  call: unknown,
  index: number,
  tools: ReadonlySet<string> | undefined,
): Record<string, unknown> {
  const fn = isRecord(call) && isRecord(call.function) ? call.function : undefined
  const name = fn?.name
  if (typeof name !== 'string')
    throw samplingFailed(`the endpoint's tool call ${index + 1} names no function`)
  if (tools === undefined || !tools.has(name))
    throw samplingFailed(`the model called ${JSON.stringify(name)}, which is not one of the tools offered`)
  const text = typeof fn?.arguments === 'string' ? fn.arguments : JSON.stringify(fn?.arguments ?? {})
  let input: unknown
  try {
    input = text.trim() === '' ? {} : JSON.parse(text)
  } catch {
    throw samplingFailed(`the model called ${name} with arguments that are not JSON`)
  }
  if (!isRecord(input)) throw samplingFailed(`the model called ${name} with arguments that are not an object`)
  const id = isRecord(call) && typeof call.id === 'string' && call.id !== '' ? call.id : `call_${index + 1}`
  return { type: 'tool_use', id, name, input }
}

/** The sampling result for a chat-completions response body. */
export function samplingResult(
  body: unknown,
  request: SamplingRequest,
  requestedModel: string,
): SamplingResult {
  const choice = isRecord(body) && Array.isArray(body.choices) ? body.choices[0] : undefined
  const message = isRecord(choice) ? choice.message : undefined
  if (!isRecord(message))
    throw samplingFailed('the endpoint answered without a message (no choices[0].message)')
  const tools = offeredTools(request)
  const calls = Array.isArray(message.tool_calls) ? message.tool_calls : []
  const text = textOf(message.content)
  const finish =
    isRecord(choice) && typeof choice.finish_reason === 'string' ? choice.finish_reason : undefined
  const model =
    isRecord(body) && typeof body.model === 'string' && body.model !== '' ? body.model : requestedModel
  const uses = calls.map((call, index) => toolUse(call, index, tools))
  // Some servers say `stop` for an answer that calls tools: the calls are what it is.
  const stopReason =
    uses.length > 0 ? 'toolUse' : finish === undefined ? undefined : (stopReasons[finish] ?? finish)
  const result: SamplingResult =
    uses.length === 0
      ? { role: 'assistant', content: { type: 'text', text }, model }
      : {
          role: 'assistant',
          content: [...(text === '' ? [] : [{ type: 'text', text }]), ...uses] as never,
          model,
        }
  if (stopReason !== undefined) result.stopReason = stopReason
  // An endpoint takes a few stop sequences; the rest are applied here.
  return applyStopSequences(result, request)
}
