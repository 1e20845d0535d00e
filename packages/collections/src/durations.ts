// Durations in a collection: a number of seconds (as profiles' `keepAlive` and the CLI's
// --timeout), or a number with a unit: `250ms`, `5s`, `2m`, `1h`.

const units: Record<string, number> = { '': 1000, ms: 1, s: 1000, m: 60_000, h: 3_600_000 }

/** Milliseconds, or undefined for what is not a duration (the schema refuses those first). */
export function durationMs(value: number | string | undefined): number | undefined {
  if (value === undefined) return undefined
  if (typeof value === 'number')
    return Number.isFinite(value) && value > 0 ? Math.round(value * 1000) : undefined
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/.exec(value)
  if (match === null) return undefined
  const milliseconds = Math.round(Number(match[1]) * (units[match[2] ?? ''] as number))
  // Past about 24 days a timer fires at once (setTimeout's 32-bit limit).
  return milliseconds > 0 && milliseconds <= 2 ** 31 - 1 ? milliseconds : undefined
}

/** `850 ms`, `3.2 s`, `2 min`: for messages. */
export function describeDuration(milliseconds: number): string {
  if (milliseconds < 1000) return `${Math.round(milliseconds)} ms`
  if (milliseconds < 60_000) return `${Number((milliseconds / 1000).toFixed(1))} s`
  return `${Number((milliseconds / 60_000).toFixed(1))} min`
}
