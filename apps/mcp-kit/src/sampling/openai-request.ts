// A sampling request as an OpenAI-compatible chat-completions request body (Ollama, llama.cpp's
// server, vLLM, LM Studio and hosted APIs take this shape): the system prompt first, each MCP
// message as chat messages (text as text, images as data URLs, wav and mp3 audio as input
// audio, tool calls as `tool_calls`, tool results as `tool` messages), `max_tokens`, `stop`,
// `temperature`, and the offered tools as functions. What the format cannot carry is refused
// with a message saying so, never dropped.

import type { SamplingRequest } from '@mcp-kit/client'
import { samplingFailed } from './sampling-answer.js'

type Block = Record<string, unknown>
export type ChatMessage = Record<string, unknown>

/** The most stop sequences chat-completions endpoints take; the rest are applied by mcp-kit. */
export const endpointStopLimit = 4

const audioFormats: Record<string, string> = {
  'audio/wav': 'wav',
  'audio/x-wav': 'wav',
  'audio/wave': 'wav',
  'audio/mpeg': 'mp3',
  'audio/mp3': 'mp3',
}

function blocksOf(content: unknown): Block[] {
  return (Array.isArray(content) ? content : [content]).filter(
    (block): block is Block => typeof block === 'object' && block !== null,
  )
}

/** A user message's text, image or audio block as a content part. */
function userPart(block: Block): Record<string, unknown> {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: String(block.text ?? '') }
    case 'image':
      return { type: 'image_url', image_url: { url: `data:${block.mimeType};base64,${block.data}` } }
    case 'audio': {
      const format = audioFormats[String(block.mimeType).toLowerCase()]
      if (format === undefined)
        throw samplingFailed(
          `the request holds ${String(block.mimeType)} audio, which chat-completions endpoints do not take (only wav and mp3)`,
        )
      return { type: 'input_audio', input_audio: { data: block.data, format } }
    }
    default:
      throw samplingFailed(
        `a user message holds a ${JSON.stringify(block.type)} block, which this mapping does not carry`,
      )
  }
}

/** A tool result's content as the text of a `tool` message. */
function toolResultText(block: Block): string {
  const parts = blocksOf(block.content).map((part) =>
    part.type === 'text' && typeof part.text === 'string' ? part.text : JSON.stringify(part),
  )
  if (parts.length === 0 && block.structuredContent !== undefined)
    parts.push(JSON.stringify(block.structuredContent))
  const text = parts.join('\n')
  return block.isError === true ? `Error: ${text}` : text
}

function userMessages(blocks: Block[]): ChatMessage[] {
  const messages: ChatMessage[] = []
  // Tool results answer the assistant's calls: they come first, as `tool` messages.
  for (const block of blocks.filter((block) => block.type === 'tool_result')) {
    messages.push({
      role: 'tool',
      tool_call_id: String(block.toolUseId ?? ''),
      content: toolResultText(block),
    })
  }
  const parts = blocks.filter((block) => block.type !== 'tool_result').map(userPart)
  if (parts.length === 1 && parts[0]?.type === 'text') messages.push({ role: 'user', content: parts[0].text })
  else if (parts.length > 0) messages.push({ role: 'user', content: parts })
  return messages
}

function assistantMessage(blocks: Block[]): ChatMessage {
  const texts: string[] = []
  const calls: Record<string, unknown>[] = []
  for (const block of blocks) {
    if (block.type === 'text') texts.push(String(block.text ?? ''))
    else if (block.type === 'tool_use') {
      calls.push({
        id: String(block.id ?? ''),
        type: 'function',
        function: { name: String(block.name ?? ''), arguments: JSON.stringify(block.input ?? {}) },
      })
    } else
      throw samplingFailed(
        `an assistant message holds a ${JSON.stringify(block.type)} block; chat-completions endpoints take only text and tool calls from the assistant`,
      )
  }
  const message: ChatMessage = { role: 'assistant', content: texts.length > 0 ? texts.join('\n') : null }
  if (calls.length > 0) message.tool_calls = calls
  return message
}

/** The chat messages of a sampling request, its system prompt first. */
export function chatMessages(request: SamplingRequest): ChatMessage[] {
  const messages: ChatMessage[] = []
  if (typeof request.systemPrompt === 'string' && request.systemPrompt !== '')
    messages.push({ role: 'system', content: request.systemPrompt })
  for (const message of request.messages ?? []) {
    const blocks = blocksOf(message.content)
    if (message.role === 'assistant') messages.push(assistantMessage(blocks))
    else messages.push(...userMessages(blocks))
  }
  return messages
}

/** The chat-completions request body for `request`, to be answered by `model`. */
export function chatCompletionsBody(request: SamplingRequest, model: string): Record<string, unknown> {
  const body: Record<string, unknown> = {
    model,
    messages: chatMessages(request),
    max_tokens: request.maxTokens,
  }
  if (typeof request.temperature === 'number') body.temperature = request.temperature
  const stops = (request.stopSequences ?? []).filter((stop) => typeof stop === 'string' && stop !== '')
  if (stops.length > 0) body.stop = stops.slice(0, endpointStopLimit)
  const tools = (request as { tools?: Block[] }).tools
  if (Array.isArray(tools) && tools.length > 0) {
    body.tools = tools.map((tool) => ({
      type: 'function',
      function: {
        name: tool.name,
        ...(typeof tool.description === 'string' ? { description: tool.description } : {}),
        parameters: tool.inputSchema ?? { type: 'object', properties: {} },
      },
    }))
    const mode = (request as { toolChoice?: { mode?: string } }).toolChoice?.mode
    if (mode === 'auto' || mode === 'required' || mode === 'none') body.tool_choice = mode
  }
  return body
}
