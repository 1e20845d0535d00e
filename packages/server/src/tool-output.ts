// Normalizes what handlers return into MCP results.

import type { CallToolResult, GetPromptResult, ReadResourceResult } from '@modelcontextprotocol/sdk/types.js'
import type { ToolOutput } from './registry.js'

function isCallToolResult(value: unknown): value is CallToolResult {
  return (
    typeof value === 'object' && value !== null && Array.isArray((value as { content?: unknown }).content)
  )
}

/** A string becomes one text item; a full result passes through; any other value becomes JSON text plus structuredContent (objects). */
export function toCallToolResult(output: ToolOutput): CallToolResult {
  if (isCallToolResult(output)) return output
  if (typeof output === 'string') return { content: [{ type: 'text', text: output }] }
  const result: CallToolResult = { content: [{ type: 'text', text: JSON.stringify(output) }] }
  if (typeof output === 'object' && output !== null && !Array.isArray(output))
    result.structuredContent = output as Record<string, unknown>
  return result
}

export function toReadResourceResult(
  output: ReadResourceResult | string,
  uri: string,
  mimeType: string | undefined,
): ReadResourceResult {
  if (typeof output !== 'string') return output
  return { contents: [{ uri, mimeType: mimeType ?? 'text/plain', text: output }] }
}

export function toGetPromptResult(output: GetPromptResult | string): GetPromptResult {
  if (typeof output !== 'string') return output
  return { messages: [{ role: 'user', content: { type: 'text', text: output } }] }
}
