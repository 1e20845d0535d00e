// Which era a message belongs to, decided once where it arrives: by the HTTP POST path for every
// message it reads, by the protocol server for transports that leave it undecided (stdio). A
// request claims 2026-07-28 by carrying its version in `_meta`; over HTTP, a request that names a
// 2026 version in MCP-Protocol-Version without that claim is of 2026 too (and refused there, for
// the missing envelope). Everything else, and every response, belongs to a 2025 session.

import { type Era, isModernVersion, isRecord } from '@mcp-kit/core'
import type { MessageKind } from './message.js'
import { metaKeys } from './meta-keys.js'

/** True when a request's `_meta` claims a 2026-07-28 (per-request) protocol version. */
export function claimsModern(params: unknown): boolean {
  return isRecord(params) && isRecord(params._meta) && metaKeys.protocolVersion in params._meta
}

/** The era of a message of `kind` with `params`; `versionHeader`: HTTP's MCP-Protocol-Version. */
export function eraOf(kind: MessageKind, params: unknown, versionHeader?: string): Era {
  if (kind === 'response') return 'legacy'
  return claimsModern(params) || (versionHeader !== undefined && isModernVersion(versionHeader))
    ? 'modern'
    : 'legacy'
}
