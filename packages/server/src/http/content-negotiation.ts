// Reads the Accept header of a POST: may the answer be JSON, may it be an SSE stream, and which
// does the client prefer. Preference follows q-values, then the client's own order (as the
// `negotiator` package behind Express does): `application/json, text/event-stream` (what SDK
// clients send) gets a plain JSON answer when the call needs no stream, and
// `text/event-stream, application/json` gets SSE.

export interface Negotiation {
  json: boolean
  sse: boolean
  /** Open an SSE stream even when a single JSON answer would do. */
  prefersSse: boolean
}

interface Range {
  type: string
  quality: number
  order: number
}

const cache = new Map<string, Negotiation>()
const maximumCached = 64
const anything: Negotiation = Object.freeze({ json: true, sse: true, prefersSse: false })

function parseRanges(header: string): Range[] {
  const ranges: Range[] = []
  let order = 0
  for (const part of header.split(',')) {
    const [mediaType = '', ...parameters] = part.split(';')
    const type = mediaType.trim().toLowerCase()
    if (type === '') continue
    let quality = 1
    for (const parameter of parameters) {
      const [key, value] = parameter.split('=')
      if (key?.trim().toLowerCase() === 'q') {
        const parsed = Number(value?.trim())
        quality = Number.isFinite(parsed) ? Math.min(Math.max(parsed, 0), 1) : 0
      }
    }
    ranges.push({ type, quality, order: order++ })
  }
  return ranges
}

function score(ranges: readonly Range[], type: string): Range | undefined {
  const [major] = type.split('/')
  let best: Range | undefined
  for (const range of ranges) {
    const matches = range.type === type || range.type === `${major}/*` || range.type === '*/*'
    if (!matches) continue
    // The most specific range decides (RFC 9110 §12.5.1); `*/*` loses to an exact match.
    const specificity = range.type === type ? 2 : range.type === '*/*' ? 0 : 1
    const bestSpecificity = best === undefined ? -1 : best.type === type ? 2 : best.type === '*/*' ? 0 : 1
    if (specificity > bestSpecificity) best = range
  }
  return best
}

export function negotiate(accept: string | undefined): Negotiation {
  if (accept === undefined || accept === '') return anything
  const cached = cache.get(accept)
  if (cached !== undefined) return cached
  const ranges = parseRanges(accept)
  const json = score(ranges, 'application/json')
  const sse = score(ranges, 'text/event-stream')
  const jsonOk = json !== undefined && json.quality > 0
  const sseOk = sse !== undefined && sse.quality > 0
  let prefersSse = false
  if (sseOk && !jsonOk) prefersSse = true
  else if (sseOk && jsonOk && json !== undefined && sse !== undefined) {
    prefersSse = sse.quality > json.quality || (sse.quality === json.quality && sse.order < json.order)
  }
  const result: Negotiation = Object.freeze({ json: jsonOk, sse: sseOk, prefersSse })
  if (cache.size >= maximumCached) cache.clear()
  cache.set(accept, result)
  return result
}
