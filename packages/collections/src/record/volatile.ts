// Finding what changes from run to run in a recorded result, so that a replay does not fail on
// it: by rules (ISO-8601 timestamps and UUIDs anywhere in a string, long hex ids, epoch times
// and random-looking ids under keys named like them) and, when the same request was recorded
// twice, by the places where the two answers differ. Each finding is a mask a person can edit.

import { isRecord } from '@mcp-kit/core'
import { formatPath, type Segments } from '../assert/json-path.js'
import { differences } from '../assert/snapshot.js'
import type { Mask } from '../collection-types.js'

/** The pattern masks the rules know, by name. */
export const patternRules: ReadonlyArray<{ name: string; pattern: string; note: string }> = [
  {
    name: 'timestamp',
    pattern: '\\d{4}-\\d{2}-\\d{2}[T ]\\d{2}:\\d{2}(?::\\d{2}(?:\\.\\d+)?)?(?:Z|[+-]\\d{2}:?\\d{2})?',
    note: 'ISO-8601 date and time',
  },
  {
    name: 'uuid',
    pattern: '\\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\\b',
    note: 'UUID',
  },
  {
    name: 'time-of-day',
    pattern: '\\b\\d{1,2}:\\d{2}:\\d{2}(?:\\.\\d+)?(?:\\s?[AP]M)?\\b',
    note: 'a time of day',
  },
  { name: 'hex-id', pattern: '\\b[0-9a-f]{24,}\\b', note: 'a long hexadecimal id' },
]

const timeKey =
  /[Tt]ime|[Dd]ate|[Ss]tamp|(?:^|_)ts$|[a-z]At(?:Ms)?$|_at(?:_ms)?$|[Cc]reated|[Uu]pdated|[Ee]xpires/
const idKey = /(?:^|_)id$|[a-z]Id$|token|nonce|session|request|cursor|etag/i

interface Leaf {
  segments: Segments
  value: unknown
}

function leaves(value: unknown, segments: Segments = [], found: Leaf[] = []): Leaf[] {
  if (Array.isArray(value))
    for (const [index, item] of value.entries()) leaves(item, [...segments, index], found)
  else if (isRecord(value))
    for (const [key, item] of Object.entries(value)) leaves(item, [...segments, key], found)
  else found.push({ segments, value })
  return found
}

/** The rules' pattern masks that match somewhere in `values`. */
export function patternsFound(values: readonly unknown[]): Mask[] {
  const strings = values
    .flatMap((value) => leaves(value))
    .filter((leaf): leaf is { segments: Segments; value: string } => typeof leaf.value === 'string')
  return patternRules
    .filter((rule) => strings.some((leaf) => new RegExp(rule.pattern).test(leaf.value)))
    .map((rule) => ({ pattern: rule.pattern, name: rule.name, note: rule.note }))
}

/**
 * A tool result's text items that are its structuredContent as JSON (as servers are asked to
 * send it): compared there, with the masks that apply to it, not a second time as text.
 */
function structuredCopies(value: unknown): Mask[] {
  if (!isRecord(value) || value.structuredContent === undefined || !Array.isArray(value.content)) return []
  const structured = JSON.stringify(value.structuredContent)
  return value.content.flatMap((item, index) => {
    if (!isRecord(item) || item.type !== 'text' || typeof item.text !== 'string') return []
    try {
      if (JSON.stringify(JSON.parse(item.text)) !== structured) return []
    } catch {
      return []
    }
    return [
      { path: `$.content[${index}].text`, note: 'structuredContent as text: compared as structuredContent' },
    ]
  })
}

/** Path masks by rule: epoch times and random-looking ids under keys named like them, text copies of structuredContent. */
export function volatileKeys(value: unknown): Mask[] {
  const masks: Mask[] = structuredCopies(value)
  for (const leaf of leaves(value)) {
    const key = leaf.segments[leaf.segments.length - 1]
    if (typeof key !== 'string') continue
    const epoch =
      typeof leaf.value === 'number' && leaf.value >= 1e9 && leaf.value < 1e14 && timeKey.test(key)
    const randomId =
      typeof leaf.value === 'string' &&
      idKey.test(key) &&
      /^[A-Za-z0-9_-]{16,}$/.test(leaf.value) &&
      /\d/.test(leaf.value) &&
      /[A-Za-z]/.test(leaf.value)
    if (epoch || randomId)
      masks.push({
        path: formatPath(leaf.segments),
        note: epoch ? `a time under '${key}'` : `an id under '${key}'`,
      })
  }
  return masks
}

/** Path masks for where two answers to the same request differ. */
export function changedBetween(first: unknown, second: unknown): Mask[] {
  return differences(first, second, 50).map((difference) => ({
    path: formatPath(difference.segments),
    note: 'changed between two recorded answers to the same request',
  }))
}
