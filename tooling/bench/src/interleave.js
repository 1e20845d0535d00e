// Runs competing measurements in turns (A, B, A, B, …) after one warm-up each, so a slow patch of
// the machine (another process, thermal drift, a filling page cache) hits every side alike.

/**
 * @template T
 * @param {object} options
 * @param {{ key: string, run: () => Promise<T> }[]} options.contestants
 * @param {number} options.runs
 * @param {boolean} options.warmup
 * @param {(key: string, value: T, round: number) => void} [options.onSample]
 * @returns {Promise<Record<string, T[]>>}
 */
export async function interleave({ contestants, runs, warmup, onSample }) {
  /** @type {Record<string, T[]>} */
  const samples = Object.fromEntries(contestants.map(({ key }) => [key, []]))
  if (warmup) for (const contestant of contestants) await contestant.run()
  for (let round = 0; round < runs; round++) {
    for (const contestant of contestants) {
      const value = await contestant.run()
      samples[contestant.key].push(value)
      onSample?.(contestant.key, value, round)
    }
  }
  return samples
}
