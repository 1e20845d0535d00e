// What an audit record keeps of a call's arguments and result when asked to: secrets replaced by
// "[redacted]" — values under names that say they are secret (password, token, api_key,
// authorization, cookie, secret…) and values that look like credentials whatever their name
// (bearer tokens, JWTs, private keys) — and long strings cut.

const secretName =
  /pass(word|phrase)?|secret|token|api[-_]?key|authorization|cookie|credential|private[-_]?key|session[-_]?id/i
const secretValue =
  /^(bearer|basic)\s+\S|^eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.|-----BEGIN [A-Z ]*PRIVATE KEY-----/i
const maximumString = 4096
const maximumDepth = 16

export function redact(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') {
    if (secretValue.test(value)) return '[redacted]'
    return value.length > maximumString
      ? `${value.slice(0, maximumString)}…[${value.length} characters]`
      : value
  }
  if (value === null || typeof value !== 'object') return value
  if (depth >= maximumDepth) return '[too deep]'
  if (Array.isArray(value)) return value.map((item) => redact(item, depth + 1))
  const kept: Record<string, unknown> = {}
  for (const [key, item] of Object.entries(value)) {
    kept[key] = secretName.test(key) ? '[redacted]' : redact(item, depth + 1)
  }
  return kept
}
