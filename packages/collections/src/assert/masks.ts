// Masks: the volatile parts of a result (timestamps, ids, what changed between two recordings)
// that a snapshot does not compare. A path mask hides the values a JSONPath matches; a pattern
// mask replaces its matches in every string with `<name>`. Both sides get the same masks.

import { isRecord } from '@mcp-kit/core'
import type { Mask } from '../collection-types.js'
import { matchesOf } from './json-path.js'
import { regexOf } from './json-values.js'

/** What a path mask leaves in a value's place: the same object on both sides, so they compare equal. */
export const maskedValue: Readonly<Record<string, never>> = Object.freeze({})

/** `value` with the masks applied (a copy; `value` is left as it is). */
export function applyMasks(value: unknown, masks: readonly Mask[]): unknown {
  let result = structuredClone(value)
  for (const mask of masks) {
    if ('path' in mask) {
      for (const match of matchesOf(result, mask.path).reverse())
        result = setAt(result, match.segments, maskedValue)
    }
  }
  const patterns = masks.flatMap((mask) =>
    'pattern' in mask
      ? [{ pattern: regexOf(mask.pattern, 'g'), replacement: `<${mask.name ?? 'masked'}>` }]
      : [],
  )
  return patterns.length === 0 ? result : replaceInStrings(result, patterns)
}

function setAt(root: unknown, segments: ReadonlyArray<string | number>, value: unknown): unknown {
  if (segments.length === 0) return value
  let parent = root as Record<string | number, unknown>
  for (const segment of segments.slice(0, -1)) parent = parent[segment] as Record<string | number, unknown>
  const last = segments[segments.length - 1] as string | number
  Object.defineProperty(parent, last, { value, enumerable: true, writable: true, configurable: true })
  return root
}

function replaceInStrings(
  value: unknown,
  patterns: ReadonlyArray<{ pattern: RegExp; replacement: string }>,
): unknown {
  if (typeof value === 'string') {
    let text = value
    for (const { pattern, replacement } of patterns) text = text.replace(pattern, replacement)
    return text
  }
  if (value === maskedValue) return value
  if (Array.isArray(value)) return value.map((item) => replaceInStrings(item, patterns))
  if (isRecord(value)) {
    const result: Record<string, unknown> = {}
    for (const [key, item] of Object.entries(value))
      Object.defineProperty(result, key, {
        value: replaceInStrings(item, patterns),
        enumerable: true,
        writable: true,
        configurable: true,
      })
    return result
  }
  return value
}
