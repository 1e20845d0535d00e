// Rate limits and concurrency caps as the gateway's config writes them (the gateway README,
// "Limits").

import type { PrincipalSpec } from '../policy/principal.js'

/** What one bucket counts: each principal's calls, each tool's, each upstream's, or a pair. */
export type LimitKey = 'principal' | 'tool' | 'upstream' | 'principal+tool' | 'principal+upstream'

export interface RateLimitSpec {
  kind: 'rate'
  /** Calls allowed per `perSeconds`. */
  rate: number
  perSeconds: number
  /** Calls allowed at once after a quiet spell (default `rate`). */
  burst: number
  by: LimitKey
  /** Which calls count: upstreams and tools (by the names clients see; globs), principals. */
  upstream?: string[]
  tools?: string[]
  for?: PrincipalSpec
}

export interface ConcurrencySpec {
  kind: 'concurrency'
  /** Calls in flight at once per upstream (in this instance). */
  concurrency: number
  upstream?: string[]
}

export type LimitSpec = RateLimitSpec | ConcurrencySpec
