// The check a profile's schema_hash buys: on use, the live tools (the list the command needed
// anyway) are compared with the profile's; breaking changes warn, or stop the command before any
// call, as the profile's schema_validation says.

import type { Tool } from '@mcp-kit/client'
import type { ResolvedReference } from '@mcp-kit/profiles'
import type { ToolChange } from '@mcp-kit/schema'
import { CliError } from '../base/errors.js'
import { sanitizeLine } from '../output/sanitize.js'

export interface SchemaCheckReport {
  warn: (message: string) => void
  verbose: (message: string) => void
}

/** Lines describing changes, one per change: "breaking: tool 'search': …" (names are the server's: sanitized). */
export function describeChanges(changes: readonly ToolChange[]): string[] {
  return changes.map((change) => `${change.class}: ${sanitizeLine(change.message)}`)
}

/** Compares the live tools with the profile's stored ones when the profile has a schema_hash. */
export async function checkProfileSchema(
  resolved: ResolvedReference,
  tools: readonly Tool[],
  report: SchemaCheckReport,
): Promise<void> {
  const profile = resolved.profile
  if (!profile?.schemaHash || profile.schemaValidation === 'ignore') return
  const { diffTools, hashTools } = await import('@mcp-kit/schema')
  if (hashTools(tools) === profile.schemaHash) return
  const { loadProfileDocument, storedTools } = await import('@mcp-kit/profiles')
  const document = await loadProfileDocument(profile)
  const changes = diffTools(storedTools(document.tools), tools)
  const breaking = changes.filter((change) => change.class === 'breaking')
  const name = `@${profile.location.name}`
  if (breaking.length === 0) {
    report.verbose(
      `${name}: the server's tools changed in non-breaking ways since ${document.meta.schema_updated ?? 'the profile was saved'} (mcp-kit profile diff ${name})`,
    )
    return
  }
  const message = [
    `${name}: the server's tools changed since ${document.meta.schema_updated ?? 'the profile was saved'} (${breaking.length} breaking):`,
    ...describeChanges(breaking).map((line) => `  ${line}`),
    `see 'mcp-kit profile diff ${name}'; accept with 'mcp-kit profile update ${name}'`,
  ].join('\n')
  if (profile.schemaValidation === 'error') {
    throw new CliError(
      'schema_changed',
      `${message}\n(schema_validation is 'error' in ${profile.location.metaPath}: nothing was called)`,
      {
        details: { changes: breaking },
      },
    )
  }
  report.warn(message)
}
