// The URLs a Redis store is given, checked before connecting: one Redis (`redis://`, `rediss://`
// for TLS, with a database number) or one seed node of a Redis Cluster (`redis-cluster://`,
// `rediss-cluster://`; the other nodes are discovered), with an optional ACL user and password,
// and for a cluster how many replicas must acknowledge a write that must survive a failover.

/** What a cluster URL's query may set. */
export interface ClusterSettings {
  /** Replicas that must acknowledge a durable write (`?wait=N`, default 1; 0: none). */
  replicas: number
  /** How long a durable write waits for them (`?wait-timeout=MS`, default 500). */
  waitTimeoutMs: number
}

const schemes = ['redis:', 'rediss:', 'redis-cluster:', 'rediss-cluster:']
const expected =
  'expected redis://[user:password@]host:port[/database], rediss://…, or redis-cluster://[user:password@]host:port (a seed node), rediss-cluster://…'

/** True for `redis-cluster://` and `rediss-cluster://` URLs. */
export function isClusterUrl(url: string): boolean {
  return /^rediss?-cluster:/i.test(url)
}

/** True for the URLs that speak TLS (`rediss://`, `rediss-cluster://`). */
export function isTlsUrl(url: string): boolean {
  return /^rediss(-cluster)?:/i.test(url)
}

function clusterQueryProblem(parsed: URL): string | undefined {
  for (const [name, value] of parsed.searchParams) {
    if (name !== 'wait' && name !== 'wait-timeout')
      return `unknown setting ${JSON.stringify(name)} (a cluster URL takes wait=N and wait-timeout=MS)`
    if (!/^\d{1,6}$/.test(value)) return `${name} must be a whole number, not ${JSON.stringify(value)}`
  }
  return undefined
}

/**
 * What is wrong with a store URL, or undefined when it is one the client can use (host, port
 * 1–65535, no path or a database number; a cluster: no path, only its own settings).
 */
export function redisUrlProblem(url: string): string | undefined {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return `not a URL: ${expected}`
  }
  if (!schemes.includes(parsed.protocol)) return expected
  if (parsed.hostname === '') return 'no host'
  if (parsed.port === '0') return 'port 0: expected a port from 1 to 65535'
  if (isClusterUrl(url)) {
    if (parsed.pathname !== '' && parsed.pathname !== '/')
      return `a cluster has no databases: no path, not ${JSON.stringify(parsed.pathname)}`
    return clusterQueryProblem(parsed)
  }
  if (!/^(\/\d{0,9})?$/.test(parsed.pathname)) {
    return `the path must be a database number (/0, /1, …), not ${JSON.stringify(parsed.pathname)}`
  }
  return undefined
}

/** A cluster URL's seed node, credentials and settings (the URL checked by redisUrlProblem). */
export function clusterTarget(url: string): {
  seed: { host: string; port: number }
  username?: string
  password?: string
  tls: boolean
  settings: ClusterSettings
} {
  const parsed = new URL(url)
  const number = (name: string, fallback: number) => {
    const value = parsed.searchParams.get(name)
    return value === null ? fallback : Number(value)
  }
  return {
    seed: { host: parsed.hostname.replace(/^\[|\]$/g, ''), port: Number(parsed.port || 6379) },
    ...(parsed.username === '' ? {} : { username: decodeURIComponent(parsed.username) }),
    ...(parsed.password === '' ? {} : { password: decodeURIComponent(parsed.password) }),
    tls: isTlsUrl(url),
    settings: { replicas: number('wait', 1), waitTimeoutMs: number('wait-timeout', 500) },
  }
}

/** The URL for messages and logs: a password in it shown as `***`. */
export function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url)
    if (!parsed.password) return url
    parsed.password = '***'
    return parsed.href
  } catch {
    // Not parsable: hide everything between the scheme and the last `@` (a password may hold
    // any character, `/` and `@` included).
    return url.replace(/^([A-Za-z][A-Za-z0-9+.-]*:\/\/).*@/s, '$1***@')
  }
}
