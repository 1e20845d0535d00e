// The protocol revisions the server speaks and the reserved `_meta` keys of MCP 2026-07-28.
// Two eras (spec 2026-07-28 basic/versioning): "legacy" revisions negotiate once at
// `initialize`; "modern" ones carry version and client capabilities on every request.

/** The two eras: revisions negotiated at `initialize`, and revisions carried by every request. */
export type Era = 'legacy' | 'modern'

/** Revisions served through an `initialize`d session, newest first. */
export const legacyVersions = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05', '2024-10-07'] as const
/** The version a 2025 request without an MCP-Protocol-Version header is taken to speak (spec). */
export const defaultLegacyVersion = '2025-03-26'
/** Revisions served statelessly, per request. */
export const modernVersions = ['2026-07-28'] as const

const legacySet = new Set<string>(legacyVersions)
const modernSet = new Set<string>(modernVersions)

export function isLegacyVersion(version: string): boolean {
  return legacySet.has(version)
}

export function isModernVersion(version: string): boolean {
  return modernSet.has(version)
}

export const metaKeys = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  logLevel: 'io.modelcontextprotocol/logLevel',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
  subscriptionId: 'io.modelcontextprotocol/subscriptionId',
} as const
