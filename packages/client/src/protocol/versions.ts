// The protocol versions this client speaks, by era: 2025-11-25 and older in an `initialize`d session
// ("legacy"), 2026-07-28 with the envelope on every request ("modern").

/** `modern` (2026-07-28: stateless, per-request envelope) or `legacy` (an initialized session). */
export type Era = 'legacy' | 'modern'

/** Protocol versions this client speaks in an initialized session, newest first (kept equal to the SDK's list by a test). */
export const supportedProtocolVersions = [
  '2025-11-25',
  '2025-06-18',
  '2025-03-26',
  '2024-11-05',
  '2024-10-07',
] as const
export const latestProtocolVersion = supportedProtocolVersions[0]

/** The modern revisions this client speaks, newest first. */
export const modernProtocolVersions = ['2026-07-28'] as const

export const isModernVersion = (version: string): boolean =>
  (modernProtocolVersions as readonly string[]).includes(version)
