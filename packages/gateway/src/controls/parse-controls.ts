// Reads an operator's controls (controls-types.ts) from JSON or JSONC text, checking every field
// at load: a mistake is a ConfigError pointing at its line and column (`file:12:7: …`), so a bad
// rule is refused before it could let a call through, and a reload keeps the running config.

import { findNodeAtLocation, type Node, type ParseError, parseTree, printParseErrorCode } from 'jsonc-parser'
import { ConfigError } from '../config-error.js'
import type { LimitKey, LimitSpec } from '../limits/limits-types.js'
import type { ArgumentCondition, ItemSpec, PolicySpec, RuleSpec } from '../policy/policy-types.js'
import type { PrincipalSpec } from '../policy/principal.js'
import type { ControlsSpec, NamedToken } from './controls-types.js'

type Path = Array<string | number>

/** A field that cannot be used, where it is. */
class Problem extends Error {
  readonly path: Path
  constructor(path: Path, message: string) {
    super(message)
    this.path = path
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value)

function shown(path: Path): string {
  return path
    .map((part, index) => (typeof part === 'number' ? `[${part}]` : index === 0 ? part : `.${part}`))
    .join('')
}

function object(value: unknown, path: Path, known: readonly string[]): Record<string, unknown> {
  if (!isObject(value)) throw new Problem(path, 'must be an object')
  for (const key of Object.keys(value)) {
    if (!known.includes(key)) throw new Problem([...path, key], `is not a known field (${known.join(', ')})`)
  }
  return value
}

function strings(value: unknown, path: Path): string[] | undefined {
  if (value === undefined) return undefined
  const list = typeof value === 'string' ? [value] : value
  if (!Array.isArray(list) || list.some((item) => typeof item !== 'string' || item === ''))
    throw new Problem(path, 'must be a name or a list of names (globs * and ? allowed)')
  return list as string[]
}

function positive(value: unknown, path: Path, whole = false): number {
  if (
    typeof value !== 'number' ||
    !Number.isFinite(value) ||
    value <= 0 ||
    (whole && !Number.isInteger(value))
  )
    throw new Problem(path, whole ? 'must be a whole number > 0' : 'must be a number > 0')
  return value
}

const principalFields = ['scopes', 'sub', 'clientId', 'token', 'claims', 'anonymous'] as const

function principal(value: unknown, path: Path): PrincipalSpec {
  const fields = object(value, path, principalFields)
  const spec: PrincipalSpec = {}
  for (const key of ['scopes', 'sub', 'clientId', 'token'] as const) {
    const list = strings(fields[key], [...path, key])
    if (list !== undefined) spec[key] = list
  }
  if (fields.claims !== undefined) {
    const claims = object(fields.claims, [...path, 'claims'], Object.keys(fields.claims ?? {}))
    spec.claims = {}
    for (const [claim, wanted] of Object.entries(claims)) {
      const list = typeof wanted === 'number' || typeof wanted === 'boolean' ? [String(wanted)] : wanted
      spec.claims[claim] = strings(list, [...path, 'claims', claim]) as string[]
    }
  }
  if (fields.anonymous !== undefined) {
    if (typeof fields.anonymous !== 'boolean')
      throw new Problem([...path, 'anonymous'], 'must be true or false')
    spec.anonymous = fields.anonymous
  }
  if (Object.keys(spec).length === 0)
    throw new Problem(path, `names nobody: give one of ${principalFields.join(', ')}`)
  return spec
}

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
  const conditions = object(value, path, Object.keys(isObject(value) ? value : {}))
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

const periods: Record<string, number> = { second: 1, minute: 60, hour: 3600, day: 86_400 }
const limitKeys: LimitKey[] = ['principal', 'tool', 'upstream', 'principal+tool', 'principal+upstream']

function limit(value: unknown, path: Path): LimitSpec {
  const fields = object(value, path, [
    'rate',
    'per',
    'burst',
    'by',
    'upstream',
    'tools',
    'for',
    'concurrency',
    'comment',
  ])
  if ((fields.rate === undefined) === (fields.concurrency === undefined))
    throw new Problem(path, 'needs exactly one of rate (calls per period) or concurrency (calls at once)')
  const upstream = strings(fields.upstream, [...path, 'upstream'])
  if (fields.concurrency !== undefined) {
    for (const key of ['per', 'burst', 'by', 'tools', 'for'] as const) {
      if (fields[key] !== undefined)
        throw new Problem([...path, key], 'applies to rate limits, not concurrency (a cap per upstream)')
    }
    const cap = positive(fields.concurrency, [...path, 'concurrency'], true)
    return upstream === undefined
      ? { kind: 'concurrency', concurrency: cap }
      : { kind: 'concurrency', concurrency: cap, upstream }
  }
  const rate = positive(fields.rate, [...path, 'rate'])
  const per = fields.per ?? 'second'
  const perSeconds = typeof per === 'number' ? positive(per, [...path, 'per']) : periods[String(per)]
  if (perSeconds === undefined)
    throw new Problem([...path, 'per'], 'must be second, minute, hour, day or a number of seconds')
  const by = fields.by ?? 'principal'
  if (!limitKeys.includes(by as LimitKey))
    throw new Problem([...path, 'by'], `must be one of ${limitKeys.join(', ')}`)
  const spec: LimitSpec = {
    kind: 'rate',
    rate,
    perSeconds,
    burst:
      fields.burst === undefined
        ? Math.max(1, Math.floor(rate))
        : positive(fields.burst, [...path, 'burst'], true),
    by: by as LimitKey,
  }
  if (upstream !== undefined) spec.upstream = upstream
  const tools = strings(fields.tools, [...path, 'tools'])
  if (tools !== undefined) spec.tools = tools
  if (fields.for !== undefined) spec.for = principal(fields.for, [...path, 'for'])
  return spec
}

const tokenName = /^[A-Za-z0-9][A-Za-z0-9_.@-]{0,63}$/

function tokens(value: unknown, path: Path): NamedToken[] {
  const fields = object(value, path, Object.keys(isObject(value) ? value : {}))
  const seen = new Map<string, string>()
  return Object.entries(fields).map(([name, written]) => {
    const at = [...path, name]
    if (!tokenName.test(name)) throw new Problem(at, 'a token name is letters, digits, _ . @ - (at most 64)')
    const entry =
      typeof written === 'string' ? { token: written } : object(written, at, ['token', 'scopes', 'claims'])
    const token = entry.token
    if (typeof token !== 'string' || !/^[\x21-\x7e]{16,}$/.test(token))
      throw new Problem(
        [...at, 'token'],
        'must be at least 16 printable ASCII characters without spaces (e.g. openssl rand -base64 32)',
      )
    const other = seen.get(token)
    if (other !== undefined) throw new Problem([...at, 'token'], `is the same as the token of '${other}'`)
    seen.set(token, name)
    const scopes = strings(entry.scopes, [...at, 'scopes']) ?? []
    if (entry.claims !== undefined && !isObject(entry.claims))
      throw new Problem([...at, 'claims'], 'must be an object')
    return { name, token, scopes, claims: (entry.claims as Record<string, unknown> | undefined) ?? {} }
  })
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
