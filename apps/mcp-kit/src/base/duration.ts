// Durations on the command line and in profiles: `60s`, `10m`, `1h`, `500ms`, `1d`, or a plain
// number of seconds (--keep-alive, a profile's `keepAlive`).

const durationUnits: Record<string, number> = {
  '': 1000,
  ms: 1,
  s: 1000,
  sec: 1000,
  m: 60_000,
  min: 60_000,
  h: 3_600_000,
  d: 86_400_000,
}

/** `60s`, `10m`, `1.5h`, `250ms`, `30` (seconds) → milliseconds; 0 stays 0; anything else is undefined. */
export function parseDuration(text: string | number): number | undefined {
  if (typeof text === 'number')
    return Number.isFinite(text) && text >= 0 ? Math.round(text * 1000) : undefined
  const match = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(text)
  if (match === null) return undefined
  const unit = durationUnits[(match[2] ?? '').toLowerCase()]
  if (unit === undefined) return undefined
  const milliseconds = Math.round(Number(match[1]) * unit)
  // Past about 24 days a timer fires at once (setTimeout's 32-bit limit).
  return milliseconds <= 2 ** 31 - 1 ? milliseconds : undefined
}
