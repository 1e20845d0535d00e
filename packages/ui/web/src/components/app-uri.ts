// Whether a tool has an MCP App view: in the page's first script (the tools list marks them),
// while the view's own code loads only when one opens.

import type { Tool } from '../types.ts'

/** The `ui://` URI a tool's view is at, if it has one (`_meta.ui.resourceUri`, or the older flat key). */
export function appUri(tool: Tool): string | undefined {
  const meta = tool._meta as { ui?: { resourceUri?: unknown }; 'ui/resourceUri'?: unknown } | undefined
  const uri = meta?.ui?.resourceUri ?? meta?.['ui/resourceUri']
  return typeof uri === 'string' && uri.startsWith('ui://') ? uri : undefined
}
