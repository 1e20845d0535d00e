// Small order statistics for benchmark samples: medians resist the odd slow run (a GC pause, the
// other core busy) better than means, and min–max shows how much a number can be trusted.

/** @param {number[]} values */
export function median(values) {
  if (values.length === 0) return Number.NaN
  const sorted = [...values].sort((left, right) => left - right)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/**
 * @param {number[]} samples
 * @returns {{ median: number, min: number, max: number, samples: number[] }}
 */
export function summarize(samples) {
  return {
    median: median(samples),
    min: samples.length ? Math.min(...samples) : Number.NaN,
    max: samples.length ? Math.max(...samples) : Number.NaN,
    samples,
  }
}

/**
 * Ratios of runs taken side by side (run i of one against run i of the other), so drift over the
 * whole benchmark cancels out of each ratio.
 * @param {number[]} numerators
 * @param {number[]} denominators
 */
export function pairedRatios(numerators, denominators) {
  const count = Math.min(numerators.length, denominators.length)
  return Array.from({ length: count }, (_, index) => numerators[index] / denominators[index])
}
