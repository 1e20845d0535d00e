// An operator's controls of a gateway as its config writes them (the `gateway` object of the
// `--config` file, or a file of its own): named tokens, the policy, limits, and who may read
// `/admin/status`.

import type { LimitSpec } from '../limits/limits-types.js'
import type { PolicySpec } from '../policy/policy-types.js'
import type { PrincipalSpec } from '../policy/principal.js'

/** A static bearer token with a name (what rules and limits match) and what it may do. */
export interface NamedToken {
  name: string
  token: string
  /** Scopes the token carries, as an OAuth token's (rules match `scopes`). */
  scopes: string[]
  /** Claims rules can match (`claims`) and conditions can use (`$claims.NAME`). */
  claims: Record<string, unknown>
}

export interface ControlsSpec {
  tokens: NamedToken[]
  policy: PolicySpec | undefined
  limits: LimitSpec[]
  /** Who may read `/admin/status` (default: anyone the endpoint admits when it has no credentials; nobody otherwise). */
  admin: PrincipalSpec | undefined
}
