// What a generated module knows about the tools it was written against, and how the live tools
// differ from it. The hashes are @mcp-kit/schema's (docs/architecture.md "Schema hashing and
// change detection"): the whole list's, and each tool's own (short) one so that a change can be
// traced to the tools it touches without the module carrying every schema.

import type { Tool } from '@modelcontextprotocol/client'

/** A module's record of the tools it was generated from. */
export interface SchemaFingerprint {
  /** `hashTools` of the whole list, as a profile's `schema_hash`. */
  schemaHash: string
  /** Each tool's own hash (16 hex digits of `hashTools([tool])`), by the server's name for it. */
  tools: Record<string, string>
}

/** How the live tools differ from a module's; empty lists: the module is current. */
export interface SchemaDrift {
  /** The module's tools whose name, required parameters or parameter types changed. */
  changed: string[]
  /** The module's tools the server no longer has. */
  removed: string[]
  /** Tools the server has that the module does not (its calls still work). */
  added: string[]
}

/** The fingerprint `mcp-kit generate` writes into a module, computed from a tools list. */
export async function schemaFingerprint(tools: readonly Tool[]): Promise<SchemaFingerprint> {
  const { hashTools } = await import('@mcp-kit/schema')
  const byName: Record<string, string> = {}
  const names = [...new Set(tools.map((tool) => tool.name))].sort()
  for (const name of names) {
    const same = tools.filter((tool) => tool.name === name)
    Object.defineProperty(byName, name, {
      value: hashTools(same).slice('sha256:'.length, 'sha256:'.length + 16),
      enumerable: true,
      writable: true,
      configurable: true,
    })
  }
  return { schemaHash: hashTools(tools), tools: byName }
}

/** Compares a module's fingerprint with the live tools. */
export async function compareGenerated(
  generated: SchemaFingerprint,
  tools: readonly Tool[],
): Promise<SchemaDrift> {
  const live = await schemaFingerprint(tools)
  if (live.schemaHash === generated.schemaHash) return { changed: [], removed: [], added: [] }
  const known = Object.keys(generated.tools).sort()
  const drift: SchemaDrift = { changed: [], removed: [], added: [] }
  for (const name of known) {
    if (!Object.hasOwn(live.tools, name)) drift.removed.push(name)
    else if (live.tools[name] !== generated.tools[name]) drift.changed.push(name)
  }
  drift.added = Object.keys(live.tools).filter((name) => !Object.hasOwn(generated.tools, name))
  return drift
}
