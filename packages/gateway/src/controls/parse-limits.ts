// The `limits` and `tokens` of an operator's controls, checked field by field (parse-fields.ts).

import { isRecord } from '@mcp-kit/core'
import type { LimitKey, LimitSpec } from '../limits/limits-types.js'
import type { NamedToken } from './controls-types.js'
import { object, type Path, Problem, positive, principal, strings } from './parse-fields.js'

const periods: Record<string, number> = { second: 1, minute: 60, hour: 3600, day: 86_400 }
const limitKeys: LimitKey[] = ['principal', 'tool', 'upstream', 'principal+tool', 'principal+upstream']

export function limit(value: unknown, path: Path): LimitSpec {
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

export function tokens(value: unknown, path: Path): NamedToken[] {
  const fields = object(value, path, Object.keys(isRecord(value) ? value : {}))
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
    if (entry.claims !== undefined && !isRecord(entry.claims))
      throw new Problem([...at, 'claims'], 'must be an object')
    return { name, token, scopes, claims: (entry.claims as Record<string, unknown> | undefined) ?? {} }
  })
}
