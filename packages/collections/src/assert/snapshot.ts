// A result against its snapshot (`expect.result`), masks applied to both: every place they
// differ, with its path, what was expected and what came.

import { isRecord } from '@mcp-kit/core'
import type { Failure, Mask } from '../collection-types.js'
import { formatPath, preview, type Segments } from './json-path.js'
import { applyMasks, maskedValue } from './masks.js'

export interface Difference {
  segments: Segments
  kind: 'changed' | 'missing' | 'unexpected'
  expected?: unknown
  actual?: unknown
}

const maximumDifferences = 20

/** Where `actual` differs from `expected` (at most `limit` places, in document order). */
export function differences(expected: unknown, actual: unknown, limit = maximumDifferences): Difference[] {
  const found: Difference[] = []
  const walk = (left: unknown, right: unknown, segments: Segments) => {
    if (found.length >= limit || left === right) return
    if (Array.isArray(left) && Array.isArray(right)) {
      const length = Math.max(left.length, right.length)
      for (let index = 0; index < length && found.length < limit; index++) {
        if (index >= right.length)
          found.push({ segments: [...segments, index], kind: 'missing', expected: left[index] })
        else if (index >= left.length)
          found.push({ segments: [...segments, index], kind: 'unexpected', actual: right[index] })
        else walk(left[index], right[index], [...segments, index])
      }
      return
    }
    if (isRecord(left) && isRecord(right) && left !== maskedValue && right !== maskedValue) {
      for (const key of Object.keys(left)) {
        if (found.length >= limit) return
        if (!Object.hasOwn(right, key))
          found.push({ segments: [...segments, key], kind: 'missing', expected: left[key] })
        else walk(left[key], right[key], [...segments, key])
      }
      for (const key of Object.keys(right)) {
        if (found.length >= limit) return
        if (!Object.hasOwn(left, key))
          found.push({ segments: [...segments, key], kind: 'unexpected', actual: right[key] })
      }
      return
    }
    if (typeof left === 'number' && typeof right === 'number' && Number.isNaN(left) && Number.isNaN(right))
      return
    found.push({ segments, kind: 'changed', expected: left, actual: right })
  }
  walk(expected, actual, [])
  return found
}

function shown(value: unknown): string {
  return value === maskedValue ? '(masked)' : preview(value)
}

/** The failures of a snapshot comparison, one per difference. */
export function compareSnapshot(expected: unknown, actual: unknown, masks: readonly Mask[]): Failure[] {
  const found = differences(applyMasks(expected, masks), applyMasks(actual, masks), maximumDifferences + 1)
  const failures = found.slice(0, maximumDifferences).map((difference): Failure => {
    const path = formatPath(difference.segments)
    const message =
      difference.kind === 'missing'
        ? `${path}: missing (expected ${shown(difference.expected)})`
        : difference.kind === 'unexpected'
          ? `${path}: not in the snapshot (got ${shown(difference.actual)})`
          : `${path}: expected ${shown(difference.expected)}, got ${shown(difference.actual)}`
    return {
      assertion: 'result',
      message,
      path,
      ...(difference.kind === 'unexpected' ? {} : { expected: difference.expected }),
      ...(difference.kind === 'missing' ? {} : { actual: difference.actual }),
    }
  })
  if (found.length > maximumDifferences)
    failures.push({ assertion: 'result', message: `and more differences after these ${maximumDifferences}` })
  return failures
}
