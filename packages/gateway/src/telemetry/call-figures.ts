// The per-tool figures an operator reads (`/admin/status`, the web UI): calls, errors, in flight
// and latency percentiles per upstream and name, estimated from the latency histogram's buckets
// as Prometheus's histogram_quantile does.

export interface CallFigures {
  upstream: string
  method: string
  name: string
  calls: number
  errors: number
  p50_ms: number | undefined
  p95_ms: number | undefined
  p99_ms: number | undefined
}

/** The latency bucket bounds (seconds) of the duration histogram. */
export const durationBuckets = [
  0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30,
]

/** The q-quantile (0..1) of a cumulative histogram, in ms; undefined without observations. */
export function quantileMs(
  q: number,
  bounds: readonly number[],
  cumulative: readonly number[],
): number | undefined {
  const total = cumulative.at(-1) ?? 0
  if (total === 0) return undefined
  const rank = q * total
  for (let index = 0; index < cumulative.length; index++) {
    const count = cumulative[index] as number
    if (count < rank) continue
    const upper = bounds[index]
    if (upper === undefined) return (bounds.at(-1) ?? 0) * 1000
    const lower = index === 0 ? 0 : (bounds[index - 1] as number)
    const below = index === 0 ? 0 : (cumulative[index - 1] as number)
    const inBucket = count - below
    const share = inBucket === 0 ? 0 : (rank - below) / inBucket
    return Math.round((lower + (upper - lower) * share) * 1e6) / 1000
  }
  return undefined
}
