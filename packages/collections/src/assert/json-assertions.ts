// `expect.json`: assertions on the places a JSONPath matches in a result — equal to, matching,
// containing, of a type or length, above or below a number, valid against a JSON Schema.

import type { Failure, JsonAssertion } from '../collection-types.js'
import { formatPath, matchesOf, preview } from './json-path.js'
import { contains, deepEqual, hasType, jsonType, regexOf } from './json-values.js'

export async function checkJsonAssertion(document: unknown, assertion: JsonAssertion): Promise<Failure[]> {
  const matches = matchesOf(document, assertion.path)
  const fail = (message: string, extra: Partial<Failure> = {}): Failure => ({
    assertion: 'json',
    message,
    ...extra,
  })
  if (assertion.exists === false)
    return matches.length === 0
      ? []
      : [
          fail(
            `${formatPath(matches[0]?.segments ?? [])}: expected nothing at ${assertion.path}, got ${preview(matches[0]?.value)}`,
            { path: formatPath(matches[0]?.segments ?? []) },
          ),
        ]
  if (matches.length === 0) return [fail(`${assertion.path} matched nothing`, { path: assertion.path })]
  const failures: Failure[] = []
  for (const { segments, value } of matches) {
    const path = formatPath(segments)
    const at = (message: string, expected?: unknown) =>
      failures.push(
        fail(`${path}: ${message}`, { path, ...(expected === undefined ? {} : { expected }), actual: value }),
      )
    if (Object.hasOwn(assertion, 'equals') && !deepEqual(value, assertion.equals))
      at(`expected ${preview(assertion.equals)}, got ${preview(value)}`, assertion.equals)
    if (
      assertion.matches !== undefined &&
      (typeof value !== 'string' || !regexOf(assertion.matches).test(value))
    )
      at(`expected a string matching ${preview(assertion.matches)}, got ${preview(value)}`, assertion.matches)
    if (Object.hasOwn(assertion, 'contains') && !contains(value, assertion.contains))
      at(`expected it to contain ${preview(assertion.contains)}, got ${preview(value)}`, assertion.contains)
    if (assertion.type !== undefined && !hasType(value, assertion.type))
      at(
        `expected ${assertion.type === 'integer' || assertion.type === 'array' || assertion.type === 'object' ? 'an' : 'a'} ${assertion.type}, got ${jsonType(value)} ${preview(value, 40)}`,
        assertion.type,
      )
    if (assertion.length !== undefined) {
      const length =
        typeof value === 'string' || Array.isArray(value)
          ? value.length
          : value !== null && typeof value === 'object'
            ? Object.keys(value).length
            : undefined
      if (length !== assertion.length)
        at(
          `expected length ${assertion.length}, got ${length === undefined ? `${jsonType(value)} (no length)` : length}`,
          assertion.length,
        )
    }
    if (assertion.greaterThan !== undefined && !(typeof value === 'number' && value > assertion.greaterThan))
      at(`expected a number above ${assertion.greaterThan}, got ${preview(value)}`)
    if (assertion.lessThan !== undefined && !(typeof value === 'number' && value < assertion.lessThan))
      at(`expected a number below ${assertion.lessThan}, got ${preview(value)}`)
    if (assertion.schema !== undefined) {
      const { formatProblems, validateArguments } = await import('@mcp-kit/schema')
      const check = validateArguments(value, assertion.schema)
      if (!check.ok) at(`does not match the schema: ${formatProblems(check.errors).split('\n').join('; ')}`)
    }
  }
  return failures
}
