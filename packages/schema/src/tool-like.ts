// The part of an MCP tool definition this package reads. Structural, so the SDK's Tool type,
// a profile's saved tool list or a registry entry can all be passed as they are; optional members
// also take `undefined`, as the SDK's types declare them, so that holds under
// `exactOptionalPropertyTypes` too.

import { isRecord } from '@mcp-kit/core'

export interface ToolLike {
  name: string
  inputSchema?: unknown
  outputSchema?: unknown
  annotations?: unknown
  description?: string | undefined
  title?: string | undefined
}

/** The entries of a tool list that are objects with a string name; the rest cannot be told apart. */
export function usableTools(tools: readonly ToolLike[]): ToolLike[] {
  if (!Array.isArray(tools)) return []
  return tools.filter((tool): tool is ToolLike => isRecord(tool) && typeof tool.name === 'string')
}
