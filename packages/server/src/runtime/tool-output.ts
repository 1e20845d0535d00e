// Turns what handlers return into MCP results, so simple handlers can return plain values.

import type {
  CallToolResult,
  GetPromptResult,
  PromptMessage,
  ReadResourceResult,
} from '@modelcontextprotocol/server'
import type { PromptOutput, ResourceOutput, ToolOutput } from '../registry/registry.js'

function isCallToolResult(value: unknown): value is CallToolResult {
  return (
    typeof value === 'object' && value !== null && Array.isArray((value as { content?: unknown }).content)
  )
}

/**
 * A full result passes through; a string becomes one text item; undefined an empty result; any
 * other value becomes JSON text, and an object is also the structuredContent.
 */
export function toCallToolResult(output: ToolOutput): CallToolResult {
  if (isCallToolResult(output)) return output
  if (typeof output === 'string') return { content: [{ type: 'text', text: output }] }
  if (output === undefined) return { content: [] }
  const result: CallToolResult = { content: [{ type: 'text', text: JSON.stringify(output) }] }
  if (typeof output === 'object' && output !== null && !Array.isArray(output)) {
    result.structuredContent = output as Record<string, unknown>
  }
  return result
}

/** An error result whose text is safe to show: the message only, never a stack. */
export function toolErrorResult(message: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: message }] }
}

export function toReadResourceResult(
  output: ResourceOutput,
  uri: string,
  mimeType: string | undefined,
): ReadResourceResult {
  if (typeof output === 'string')
    return { contents: [{ uri, mimeType: mimeType ?? 'text/plain', text: output }] }
  if (output instanceof Uint8Array) {
    return {
      contents: [
        {
          uri,
          mimeType: mimeType ?? 'application/octet-stream',
          blob: Buffer.from(output.buffer, output.byteOffset, output.byteLength).toString('base64'),
        },
      ],
    }
  }
  return output
}

export function toGetPromptResult(output: PromptOutput, description: string | undefined): GetPromptResult {
  if (typeof output === 'string') {
    return { description, messages: [{ role: 'user', content: { type: 'text', text: output } }] }
  }
  if (Array.isArray(output)) return { description, messages: output as PromptMessage[] }
  return output
}
