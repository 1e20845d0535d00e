// The secure defaults of docs/architecture.md "HTTP server defaults" that look at headers only: Host and
// Origin validation against DNS rebinding (403), and the optional bearer token (401), compared
// in constant time. Verdicts for Host and Origin values are memoized (bounded), since a client
// sends the same ones on every request.

import { createHash, timingSafeEqual } from 'node:crypto'

export interface GuardOptions {
  /**
   * Host header values allowed besides localhost, 127.0.0.1 and [::1] (any port): a hostname
   * (`api.example.com`, any port) or `host:port`. `'*'` turns the check off.
   */
  allowedHosts?: readonly string[] | '*' | undefined
  /**
   * Origins allowed besides http(s)://localhost, 127.0.0.1 and [::1] (any port), e.g.
   * `https://app.example.com`. Requests without an Origin header (non-browser clients) pass.
   * `'*'` turns the check off.
   */
  allowedOrigins?: readonly string[] | '*' | undefined
  /** Require `Authorization: Bearer <token>`. */
  token?: string | undefined
}

export type TokenVerdict = 'ok' | 'missing' | 'invalid'

export interface RequestGuard {
  hostAllowed(host: string | undefined): boolean
  originAllowed(origin: string | undefined): boolean
  checkToken(authorization: string | undefined): TokenVerdict
}

const loopbackNames = new Set(['localhost', '127.0.0.1', '::1'])
const maximumMemoized = 256

/** The hostname of a Host header value, lowercased, without port or IPv6 brackets. */
export function hostnameOf(host: string): string {
  const value = host.trim().toLowerCase()
  if (value.startsWith('[')) {
    const end = value.indexOf(']')
    return end === -1 ? value : value.slice(1, end)
  }
  const colon = value.indexOf(':')
  // More than one colon without brackets is not a valid Host value; keep it whole so it fails.
  if (colon !== -1 && value.indexOf(':', colon + 1) === -1) return value.slice(0, colon)
  return value
}

function memoize(check: (value: string) => boolean): (value: string) => boolean {
  const verdicts = new Map<string, boolean>()
  return (value) => {
    const known = verdicts.get(value)
    if (known !== undefined) return known
    const verdict = check(value)
    if (verdicts.size >= maximumMemoized) verdicts.clear()
    verdicts.set(value, verdict)
    return verdict
  }
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest()
}

export function createRequestGuard(options: GuardOptions = {}): RequestGuard {
  const hostList = options.allowedHosts ?? []
  const hosts = hostList === '*' ? undefined : new Set(hostList.map((host) => host.trim().toLowerCase()))
  const originList = options.allowedOrigins ?? []
  const origins = originList === '*' ? undefined : new Set(originList.map(normalizeOrigin))
  const tokenDigest = options.token === undefined ? undefined : digest(options.token)

  const hostAllowed = memoize((host) => {
    if (hosts === undefined) return true
    const hostname = hostnameOf(host)
    return loopbackNames.has(hostname) || hosts.has(hostname) || hosts.has(host.trim().toLowerCase())
  })
  const originAllowed = memoize((origin) => {
    if (origins === undefined) return true
    let url: URL
    try {
      url = new URL(origin)
    } catch {
      return false
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return false
    const hostname = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname
    return loopbackNames.has(hostname) || origins.has(url.origin)
  })

  return {
    hostAllowed: (host) => (hosts === undefined ? true : host !== undefined && hostAllowed(host)),
    originAllowed: (origin) => (origins === undefined || origin === undefined ? true : originAllowed(origin)),
    checkToken(authorization) {
      if (tokenDigest === undefined) return 'ok'
      if (authorization === undefined) return 'missing'
      const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization)
      if (match === null) return 'missing'
      // Comparing digests keeps the comparison constant-time whatever the lengths.
      return timingSafeEqual(digest(match[1] as string), tokenDigest) ? 'ok' : 'invalid'
    },
  }
}

function normalizeOrigin(origin: string): string {
  try {
    return new URL(origin).origin
  } catch {
    return origin.trim().toLowerCase()
  }
}
