// The shape of one table row and how its ratio, spread and verdict are computed, shared by every
// measurement so the table and latest.json read the same everywhere.

import { pairedRatios, summarize } from './statistics.js'

/**
 * @typedef {object} Target
 * @property {'<=' | '>='} op
 * @property {number} value
 */

/**
 * @typedef {object} Row
 * @property {string} id
 * @property {string} group
 * @property {string} name
 * @property {string} unit            ms, req/s, MiB, KiB, µs
 * @property {ReturnType<typeof summarize>} kit
 * @property {{ name: string } & ReturnType<typeof summarize> | null} anchor
 * @property {number | null} ratio    median(kit) ÷ median(anchor)
 * @property {{ min: number, max: number } | null} ratioSpread  min–max of the run-by-run ratios
 * @property {number} runs
 * @property {Target | null} target
 * @property {boolean | null} met     null when the row has no target
 * @property {string} [note]
 * @property {string} [error]         set when the measurement could not be taken
 */

/**
 * @param {object} options
 * @param {string} options.id
 * @param {string} options.group
 * @param {string} options.name
 * @param {string} options.unit
 * @param {number[]} options.kit
 * @param {{ name: string, samples: number[] }} [options.anchor]
 * @param {Target} [options.target]
 * @param {string} [options.note]
 * @returns {Row}
 */
export function makeRow({ id, group, name, unit, kit, anchor, target, note }) {
  const kitSummary = summarize(kit)
  const anchorSummary = anchor ? { name: anchor.name, ...summarize(anchor.samples) } : null
  const ratio = anchorSummary ? kitSummary.median / anchorSummary.median : null
  const ratios = anchor ? pairedRatios(kit, anchor.samples) : []
  const ratioSpread = ratios.length ? { min: Math.min(...ratios), max: Math.max(...ratios) } : null
  const met =
    target && ratio !== null && Number.isFinite(ratio)
      ? target.op === '<='
        ? ratio <= target.value
        : ratio >= target.value
      : null
  return {
    id,
    group,
    name,
    unit,
    kit: kitSummary,
    anchor: anchorSummary,
    ratio,
    ratioSpread,
    runs: kit.length,
    target: target ?? null,
    met,
    ...(note ? { note } : {}),
  }
}

/**
 * A row whose measurement failed: it stays in the table (so a broken anchor is visible) and
 * counts as not met when it has a target.
 * @param {{ id: string, group: string, name: string, unit: string, target?: Target, anchorName?: string }} row
 * @param {unknown} error
 * @returns {Row}
 */
export function failedRow({ id, group, name, unit, target, anchorName }, error) {
  return {
    id,
    group,
    name,
    unit,
    kit: summarize([]),
    anchor: anchorName ? { name: anchorName, ...summarize([]) } : null,
    ratio: null,
    ratioSpread: null,
    runs: 0,
    target: target ?? null,
    met: target ? false : null,
    error: error instanceof Error ? error.message : String(error),
  }
}
