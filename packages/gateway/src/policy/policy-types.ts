// The policy as the gateway's config writes it (docs: the gateway README, "Policy"): rules that
// allow or deny tools, resources and prompts to principals, tried in order, the first that
// matches deciding, and a default for what none decides.

import type { PrincipalSpec } from './principal.js'

/** What a rule is about: every field given must match the item. */
export interface ItemSpec {
  /** The upstream that offers it (names, globs). */
  upstream?: string[]
  /** Tools by the names clients see (`upstream__tool`; globs). Without tools/resources/prompts: every kind. */
  tools?: string[]
  /** Resources by URI, and resource templates by URI template (globs). */
  resources?: string[]
  /** Prompts by the names clients see (globs). */
  prompts?: string[]
  /** Tool annotations that must have these values (e.g. `destructiveHint: true`); only tools match. */
  annotations?: Record<string, boolean>
}

/** A condition on one argument of a call: a value, or `$sub`, `$token`, `$clientId`, `$claims.NAME`. */
export interface ArgumentCondition {
  equals?: string | number | boolean
  oneOf?: Array<string | number | boolean>
  prefix?: string
}

export interface RuleSpec {
  effect: 'allow' | 'deny'
  what: ItemSpec
  /** Only for these principals (default: everyone). */
  for?: PrincipalSpec
  /** Not for these principals. */
  unless?: PrincipalSpec
  /** The call's arguments must meet these (the rule does not match otherwise). */
  arguments?: Record<string, ArgumentCondition>
}

export interface PolicySpec {
  /** What no rule decides (default `allow`: everything a token's scopes allow, as without a policy). */
  default: 'allow' | 'deny'
  rules: RuleSpec[]
}

/** One item a client may list or use. */
export interface PolicyItem {
  kind: 'tool' | 'resource' | 'prompt'
  upstream: string
  /** The name clients see (tools, prompts), or the URI or URI template (resources). */
  name: string
  /** A tool's annotations. */
  annotations?: Readonly<Record<string, unknown>> | undefined
}
