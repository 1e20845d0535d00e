// What a generated module knows about the tools it was written against, and how the live tools
// differ from it (docs/architecture.md "Schema hashing and change detection"): each tool's
// contract — parameters and result fields, as names, type signatures and required flags — and
// its hash, so that a change is found by hash and classified by @mcp-kit/schema's diffContracts
// without the module carrying whole schemas.

import type { ToolChange, ToolContract } from '@mcp-kit/schema'
import type { Tool } from '@modelcontextprotocol/client'

/** One tool as a module records it. */
export interface GeneratedTool extends ToolContract {
  /** `hashContract` of the contract: 16 hex digits that change with any parameter or result field. */
  hash: string
}

/** A module's record of the tools it was generated from. */
export interface SchemaFingerprint {
  /** `hashTools` of the whole list, as a profile's `schema_hash`. */
  schemaHash: string
  /** Each tool, sorted by name; a list, so that any name (`__proto__` too) is only data. */
  tools: readonly GeneratedTool[]
}

/** How the live tools differ from a module's; empty lists: the module is current. */
export interface SchemaDrift {
  /** Every change to the module's tools, classified (breaking, non-breaking, behavioural). */
  changes: ToolChange[]
  /** The module's tools whose parameters or result fields changed. */
  changed: string[]
  /** The module's tools the server no longer has (or has renamed). */
  removed: string[]
  /** Tools the server has that the module does not (its calls still work). */
  added: string[]
}

const byText = (left: string, right: string) => (left < right ? -1 : left > right ? 1 : 0)

/** The fingerprint `mcp-kit generate` writes into a module; a name listed twice counts once. */
export async function schemaFingerprint(tools: readonly Tool[]): Promise<SchemaFingerprint> {
  const { hashContract, hashTools, toolContract } = await import('@mcp-kit/schema')
  const first = new Map<string, Tool>()
  for (const tool of tools) if (!first.has(tool.name)) first.set(tool.name, tool)
  const recorded = [...first.keys()].sort(byText).map((name) => {
    const { input, output } = toolContract(first.get(name) as Tool)
    const hash = hashContract({ name, input, output })
    return output === undefined ? { name, hash, input } : { name, hash, input, output }
  })
  return { schemaHash: hashTools(tools), tools: recorded }
}

/** Compares a module's fingerprint with the live tools. */
export async function compareGenerated(
  generated: SchemaFingerprint,
  tools: readonly Tool[],
): Promise<SchemaDrift> {
  const live = await schemaFingerprint(tools)
  const liveByName = new Map(live.tools.map((tool) => [tool.name, tool]))
  const known = new Map(generated.tools.map((tool) => [tool.name, tool]))
  const added = [...liveByName.keys()].filter((name) => !known.has(name))
  const drift: SchemaDrift = { changes: [], changed: [], removed: [], added }
  const moved = [...known.values()].filter((tool) => liveByName.get(tool.name)?.hash !== tool.hash)
  if (moved.length === 0) return drift
  const { diffContracts } = await import('@mcp-kit/schema')
  const theirs = [
    ...moved.map((tool) => liveByName.get(tool.name)),
    ...added.map((name) => liveByName.get(name)),
  ]
  // Added tools take part, so that a removed tool listed again under another name reads as renamed.
  drift.changes = diffContracts(
    moved,
    theirs.filter((tool) => tool !== undefined),
  ).filter((change) => change.kind !== 'tool_added')
  for (const tool of moved) (liveByName.has(tool.name) ? drift.changed : drift.removed).push(tool.name)
  return drift
}
