// Reads an operator's controls (controls-types.ts) from JSON or JSONC text, checking every field
// at load: a mistake is a ConfigError pointing at its line and column (`file:12:7: …`), so a bad
// rule is refused before it could let a call through, and a reload keeps the running config.

import { isRecord } from '@mcp-kit/core'
import { findNodeAtLocation, type Node, type ParseError, parseTree, printParseErrorCode } from 'jsonc-parser'
import { ConfigError } from '../config-error.js'
import type { ArgumentCondition, ItemSpec, PolicySpec, RuleSpec } from '../policy/policy-types.js'
import type { ControlsSpec } from './controls-types.js'
import { object, type Path, Problem, principal, shown, strings } from './parse-fields.js'
import { limit, tokens } from './parse-limits.js'

const valuePattern = /^\$(sub|token|clientId|claims\.[A-Za-z0-9_:.-]+)$/

function conditionValue(value: unknown, path: Path): string | number | boolean {
  if (typeof value === 'number' || typeof value === 'boolean') return value
  if (typeof value !== 'string') throw new Problem(path, 'must be a string, number or boolean')
  if (value.startsWith('$') && !value.startsWith('$$') && !valuePattern.test(value))
    throw new Problem(
      path,
      `${JSON.stringify(value)}: a value from the caller is $sub, $token, $clientId or $claims.NAME ($$ for a literal $)`,
    )
  return value
}

function argumentConditions(value: unknown, path: Path): Record<string, ArgumentCondition> {
  const conditions = object(value, path, Object.keys(isRecord(value) ? value : {}))
  const result: Record<string, ArgumentCondition> = {}
  for (const [name, written] of Object.entries(conditions)) {
    const at = [...path, name]
    const fields = object(written, at, ['equals', 'oneOf', 'prefix'])
    const condition: ArgumentCondition = {}
    if (fields.equals !== undefined) condition.equals = conditionValue(fields.equals, [...at, 'equals'])
    if (fields.oneOf !== undefined) {
      if (!Array.isArray(fields.oneOf) || fields.oneOf.length === 0)
        throw new Problem([...at, 'oneOf'], 'must be a non-empty list')
      condition.oneOf = fields.oneOf.map((item, index) => conditionValue(item, [...at, 'oneOf', index]))
    }
    if (fields.prefix !== undefined) {
      if (typeof fields.prefix !== 'string') throw new Problem([...at, 'prefix'], 'must be a string')
      condition.prefix = fields.prefix
    }
    if (Object.keys(condition).length === 0) throw new Problem(at, 'needs equals, oneOf or prefix')
    result[name] = condition
  }
  return result
}

function item(value: unknown, path: Path): ItemSpec {
  const fields = object(value, path, ['upstream', 'tools', 'resources', 'prompts', 'annotations'])
  const spec: ItemSpec = {}
  for (const key of ['upstream', 'tools', 'resources', 'prompts'] as const) {
    const list = strings(fields[key], [...path, key])
    if (list !== undefined) spec[key] = list
  }
  if (fields.annotations !== undefined) {
    const hints = object(
      fields.annotations,
      [...path, 'annotations'],
      ['destructiveHint', 'readOnlyHint', 'idempotentHint', 'openWorldHint'],
    )
    for (const [hint, wanted] of Object.entries(hints)) {
      if (typeof wanted !== 'boolean')
        throw new Problem([...path, 'annotations', hint], 'must be true or false')
    }
    spec.annotations = hints as Record<string, boolean>
  }
  return spec
}

function rule(value: unknown, path: Path): RuleSpec {
  const fields = object(value, path, ['allow', 'deny', 'for', 'unless', 'arguments', 'comment'])
  if ((fields.allow === undefined) === (fields.deny === undefined))
    throw new Problem(path, 'needs exactly one of allow or deny (what the rule is about)')
  const effect = fields.allow === undefined ? 'deny' : 'allow'
  const spec: RuleSpec = { effect, what: item(fields[effect], [...path, effect]) }
  if (fields.for !== undefined) spec.for = principal(fields.for, [...path, 'for'])
  if (fields.unless !== undefined) spec.unless = principal(fields.unless, [...path, 'unless'])
  if (fields.arguments !== undefined)
    spec.arguments = argumentConditions(fields.arguments, [...path, 'arguments'])
  return spec
}

function policy(value: unknown, path: Path): PolicySpec {
  const fields = object(value, path, ['default', 'rules'])
  const byDefault = fields.default ?? 'allow'
  if (byDefault !== 'allow' && byDefault !== 'deny')
    throw new Problem([...path, 'default'], "must be 'allow' or 'deny'")
  if (fields.rules !== undefined && !Array.isArray(fields.rules))
    throw new Problem([...path, 'rules'], 'must be a list')
  const rules = ((fields.rules ?? []) as unknown[]).map((written, index) =>
    rule(written, [...path, 'rules', index]),
  )
  return { default: byDefault, rules }
}

/** The controls in `value` (a parsed `gateway` object); Problems name the field's path under `base`. */
function controlsOf(value: unknown, base: Path): ControlsSpec {
  const fields = object(value, base, ['tokens', 'policy', 'limits', 'admin'])
  if (fields.limits !== undefined && !Array.isArray(fields.limits))
    throw new Problem([...base, 'limits'], 'must be a list')
  return {
    tokens: fields.tokens === undefined ? [] : tokens(fields.tokens, [...base, 'tokens']),
    policy: fields.policy === undefined ? undefined : policy(fields.policy, [...base, 'policy']),
    limits: ((fields.limits ?? []) as unknown[]).map((written, index) =>
      limit(written, [...base, 'limits', index]),
    ),
    admin: fields.admin === undefined ? undefined : principal(fields.admin, [...base, 'admin']),
  }
}

function position(text: string, offset: number): string {
  const before = text.slice(0, offset)
  const line = before.split('\n').length
  return `${line}:${offset - before.lastIndexOf('\n')}`
}

/**
 * The controls of a config file's text: its `gateway` object (`key`), or the whole file when
 * `key` is undefined (a controls file of its own). Undefined when the config has none.
 * `substitute` fills `${NAME}` from the environment (tokens come from it).
 */
export function parseControls(
  text: string,
  file: string,
  key: string | undefined,
  substitute: (value: unknown) => unknown,
): ControlsSpec | undefined {
  const errors: ParseError[] = []
  const tree = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false })
  const first = errors[0]
  if (first !== undefined || tree === undefined) {
    const where = first === undefined ? '1:1' : position(text, first.offset)
    throw new ConfigError(
      `${file}:${where}: not valid JSON (${first === undefined ? 'empty' : printParseErrorCode(first.error)})`,
    )
  }
  const path: Path = key === undefined ? [] : [key]
  const node: Node | undefined = key === undefined ? tree : findNodeAtLocation(tree, path)
  if (node === undefined) return undefined
  try {
    return controlsOf(substitute(nodeValue(node)), path)
  } catch (error) {
    if (!(error instanceof Problem)) throw error
    // Point at the field, or at the deepest part of its path that is written.
    let at: Node | undefined
    for (let depth = error.path.length; depth >= 0 && at === undefined; depth--)
      at = findNodeAtLocation(tree, error.path.slice(0, depth))
    // A field's position is its key's, where it has one.
    const where = position(text, at?.parent?.type === 'property' ? at.parent.offset : (at?.offset ?? 0))
    throw new ConfigError(`${file}:${where}: ${shown(error.path) || '(top)'} ${error.message}`)
  }
}

function nodeValue(node: Node): unknown {
  switch (node.type) {
    case 'object':
      return Object.fromEntries(
        (node.children ?? []).map((property) => [
          property.children?.[0]?.value as string,
          nodeValue(property.children?.[1] as Node),
        ]),
      )
    case 'array':
      return (node.children ?? []).map(nodeValue)
    default:
      return node.value
  }
}
