// A policy compiled for the call path: each rule's item part is matched once per relayed entry
// and remembered, so a call checks only the rules that can apply to its item, their principal matchers (string
// compares) and, for rules that have them, the argument conditions.

import type { AuthInfo } from '@mcp-kit/server'
import { compileFilter } from '../naming.js'
import type { ArgumentCondition, ItemSpec, PolicyItem, PolicySpec, RuleSpec } from './policy-types.js'
import { claimOf, compilePrincipal, type PrincipalMatcher, tokenName } from './principal.js'

export interface Decision {
  allowed: boolean
  /** The rule that decided (its index in `rules`), or undefined for the default. */
  rule: number | undefined
}

export interface Policy {
  /** Whether `authInfo` may use `item` with these arguments. */
  decide(item: PolicyItem, authInfo: AuthInfo | undefined, args: Readonly<Record<string, unknown>>): Decision
  /**
   * Whether `authInfo` sees `item` in its lists: as `decide`, except that rules with argument
   * conditions are taken as allowing (a deny that depends on arguments is checked at the call).
   */
  visible(item: PolicyItem, authInfo: AuthInfo | undefined): boolean
}

interface CompiledRule {
  allow: boolean
  what: (item: PolicyItem) => boolean
  who: PrincipalMatcher
  args: ((args: Readonly<Record<string, unknown>>, authInfo: AuthInfo | undefined) => boolean) | undefined
}

export function compilePolicy(spec: PolicySpec): Policy {
  const rules = spec.rules.map(compileRule)
  const byDefault = spec.default === 'allow'
  // Remembered per item object: a relayed entry keeps one for its life (a changed tool is a new
  // entry), so a call matches the rules' item parts once per entry, not once per call.
  const applicable = new WeakMap<PolicyItem, number[]>()
  const rulesFor = (item: PolicyItem): number[] => {
    let found = applicable.get(item)
    if (found === undefined) {
      found = rules.flatMap((rule, index) => (rule.what(item) ? [index] : []))
      applicable.set(item, found)
    }
    return found
  }
  return {
    decide(item, authInfo, args) {
      for (const index of rulesFor(item)) {
        const rule = rules[index] as CompiledRule
        if (!rule.who(authInfo)) continue
        if (rule.args !== undefined && !rule.args(args, authInfo)) continue
        return { allowed: rule.allow, rule: index }
      }
      return { allowed: byDefault, rule: undefined }
    },
    visible(item, authInfo) {
      for (const index of rulesFor(item)) {
        const rule = rules[index] as CompiledRule
        if (!rule.who(authInfo)) continue
        if (rule.args !== undefined) {
          if (rule.allow) return true
          continue
        }
        return rule.allow
      }
      return byDefault
    },
  }
}

function compileRule(spec: RuleSpec): CompiledRule {
  const who = compileWho(spec)
  return {
    allow: spec.effect === 'allow',
    what: compileWhat(spec.what),
    who,
    args: spec.arguments === undefined ? undefined : compileArguments(spec.arguments),
  }
}

function compileWho(spec: RuleSpec): PrincipalMatcher {
  const included = spec.for === undefined ? undefined : compilePrincipal(spec.for)
  const excluded = spec.unless === undefined ? undefined : compilePrincipal(spec.unless)
  if (included === undefined && excluded === undefined) return () => true
  return (authInfo) =>
    (included === undefined || included(authInfo)) && (excluded === undefined || !excluded(authInfo))
}

function compileWhat(spec: ItemSpec): (item: PolicyItem) => boolean {
  const upstream = spec.upstream === undefined ? undefined : compileFilter(spec.upstream)
  const anyKind = spec.tools === undefined && spec.resources === undefined && spec.prompts === undefined
  const names = {
    tool: spec.tools === undefined ? undefined : compileFilter(spec.tools),
    resource: spec.resources === undefined ? undefined : compileFilter(spec.resources),
    prompt: spec.prompts === undefined ? undefined : compileFilter(spec.prompts),
  }
  const annotations = spec.annotations === undefined ? undefined : Object.entries(spec.annotations)
  return (item) => {
    if (upstream !== undefined && !upstream(item.upstream)) return false
    if (!anyKind) {
      const named = names[item.kind]
      if (named === undefined || !named(item.name)) return false
    }
    if (annotations !== undefined) {
      if (item.kind !== 'tool') return false
      // An annotation the tool does not state has the MCP default (destructiveHint: true,
      // readOnlyHint: false, idempotentHint: false, openWorldHint: true).
      for (const [hint, wanted] of annotations) {
        const stated = item.annotations?.[hint]
        const value = typeof stated === 'boolean' ? stated : (annotationDefaults[hint] ?? false)
        if (value !== wanted) return false
      }
    }
    return true
  }
}

const annotationDefaults: Readonly<Record<string, boolean>> = {
  destructiveHint: true,
  readOnlyHint: false,
  idempotentHint: false,
  openWorldHint: true,
}

/** A value of a condition: literal, or taken from the principal (`$sub`, `$claims.groups`…). */
function resolveValue(value: string | number | boolean, authInfo: AuthInfo | undefined): unknown {
  if (typeof value !== 'string' || !value.startsWith('$')) return value
  if (value.startsWith('$$')) return value.slice(1)
  if (value === '$sub') return authInfo?.subject
  if (value === '$token') return tokenName(authInfo)
  if (value === '$clientId') return authInfo?.clientId
  return claimOf(authInfo, value.slice('$claims.'.length))
}

function compileArguments(
  conditions: Record<string, ArgumentCondition>,
): (args: Readonly<Record<string, unknown>>, authInfo: AuthInfo | undefined) => boolean {
  const checks = Object.entries(conditions).map(([name, condition]) => {
    return (args: Readonly<Record<string, unknown>>, authInfo: AuthInfo | undefined): boolean => {
      const value = args[name]
      if (condition.equals !== undefined) {
        const wanted = resolveValue(condition.equals, authInfo)
        if (wanted === undefined || value !== wanted) return false
      }
      if (condition.oneOf !== undefined) {
        if (!condition.oneOf.some((option) => resolveValue(option, authInfo) === value)) return false
      }
      if (condition.prefix !== undefined) {
        if (typeof value !== 'string' || !value.startsWith(condition.prefix)) return false
      }
      return true
    }
  })
  return (args, authInfo) => checks.every((check) => check(args, authInfo))
}
