// The MCP protocol revisions mcp-kit speaks, by era (spec 2026-07-28 basic/versioning): "legacy"
// revisions negotiate once at `initialize`; "modern" ones carry the version on every request.

/** `modern` (2026-07-28: stateless, per-request envelope) or `legacy` (an initialized session). */
export type Era = 'legacy' | 'modern'

/** Revisions spoken in an `initialize`d session, newest first (the client keeps it equal to the SDK's list by a test). */
export const legacyProtocolVersions = [
  '2025-11-25',
  '2025-06-18',
  '2025-03-26',
  '2024-11-05',
  '2024-10-07',
] as const

/** Revisions spoken statelessly, per request, newest first. */
export const modernProtocolVersions = ['2026-07-28'] as const

/** The newest legacy revision: what a client proposes at `initialize`. */
export const latestLegacyVersion = legacyProtocolVersions[0]

/** The newest modern revision. */
export const latestModernVersion = modernProtocolVersions[0]

/** The revision a 2025 request without an MCP-Protocol-Version header is taken to speak (spec). */
export const defaultLegacyVersion = '2025-03-26'

/** The first revision whose SSE streams resume with Last-Event-ID after a disconnect. */
export const resumableStreamsSince = '2025-11-25'

/** Every revision, modern first, then legacy, each newest first. */
export const protocolVersions: readonly string[] = [...modernProtocolVersions, ...legacyProtocolVersions]

const legacySet = new Set<string>(legacyProtocolVersions)
const modernSet = new Set<string>(modernProtocolVersions)

/** True for a revision negotiated at `initialize`. */
export function isLegacyVersion(version: string): boolean {
  return legacySet.has(version)
}

/** True for a revision carried by every request. */
export function isModernVersion(version: string): boolean {
  return modernSet.has(version)
}
