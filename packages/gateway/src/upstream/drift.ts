// A profile's drift policy over an upstream's tools: each tool whose schema changed against the
// profile's record is reported (a `drift` event), and under the `error` policy a breaking change
// hides the tool (and what it was renamed to).

import type { Tool } from '@mcp-kit/client'
import { diffTools } from '@mcp-kit/schema'
import type { GatewayEvent } from '../types.js'
import type { Upstream } from './upstream.js'

/** The tools to hide; every change is reported through `emit`. */
export function hiddenByDrift(
  upstream: Upstream,
  tools: readonly Tool[],
  emit: (event: GatewayEvent) => void,
): Set<string> {
  const drift = upstream.options.drift
  const hidden = new Set<string>()
  if (drift === undefined || drift.policy === 'ignore') return hidden
  for (const change of diffTools(drift.tools, tools)) {
    if (change.kind === 'tool_added') continue
    const hide = drift.policy === 'error' && change.class === 'breaking'
    if (hide) {
      hidden.add(change.tool)
      if (change.renamedTo !== undefined) hidden.add(change.renamedTo)
    }
    emit({ type: 'drift', upstream: upstream.name, tool: change.tool, message: change.message, hidden: hide })
  }
  return hidden
}
