// `mcp+registry://io.github.owner/name[@version][?query]`: a server named by its MCP Registry
// entry. Pure parsing; fetching the entry and turning it into a launch is the caller's (the
// registry client) and registry-launch.ts's.

import { ProfileError } from '../errors.js'
import type { ReferenceQuery, RegistryReference } from '../types.js'
import type { OperationPicker } from './operation.js'
import { decodeComponent } from './query.js'

/** The registry's form of a server name: a namespace, one slash, the server's own name. */
export const registryNamePattern = /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/
/** An exact version as a reference may pin it: no ranges, no spaces, no slashes. */
const versionPattern = /^[A-Za-z0-9][A-Za-z0-9.+_-]*$/

/** True for a name the registry accepts (`io.github.owner/name`, 3 to 200 characters). */
export function isRegistryName(name: string): boolean {
  return name.length >= 3 && name.length <= 200 && registryNamePattern.test(name)
}

/**
 * Parses what follows `mcp+registry://` up to `?`, with the query already parsed; `pick` chooses
 * the operation from it (see operation.ts).
 */
export function parseRegistryReference(
  rawTarget: string,
  query: ReferenceQuery,
  pick: OperationPicker,
): RegistryReference {
  const target = decodeComponent(rawTarget, 'registry name')
  if (target === '')
    throw new ProfileError('invalid_reference', 'empty server name in mcp+registry:// reference')
  const at = target.indexOf('@')
  const name = at === -1 ? target : target.slice(0, at)
  const version = at === -1 ? undefined : target.slice(at + 1)
  if (!isRegistryName(name)) {
    throw new ProfileError(
      'invalid_reference',
      `mcp+registry: ${JSON.stringify(name.slice(0, 200))} is not a registry server name (namespace/name, as in io.github.owner/server)`,
      { details: { name } },
    )
  }
  if (version !== undefined && (version.length > 255 || !versionPattern.test(version))) {
    throw new ProfileError(
      'invalid_reference',
      `mcp+registry: ${JSON.stringify(version.slice(0, 80))} is not an exact version (as in @1.2.0); ranges are not versions`,
      { details: { version } },
    )
  }
  if (query.command !== undefined) {
    throw new ProfileError(
      'invalid_reference',
      'malformed query: command= applies to mcp+npx and mcp+uvx; a registry entry says what to run',
    )
  }
  const reference: RegistryReference = { type: 'registry', name, ...pick(query) }
  if (version !== undefined && version !== 'latest') reference.version = version
  return reference
}
