// An MCP App's sandbox policy from its resource's `_meta.ui`: the Content-Security-Policy a host
// applies (the ext-apps spec's mapping, deny by default), the iframe `allow` list, and an audit
// of what is risky in what the server declared. Everything here is the server's data, checked.

/** The MIME type of an MCP App view. */
export const appMimeType = 'text/html;profile=mcp-app'

export interface AppCsp {
  connectDomains: string[]
  resourceDomains: string[]
  frameDomains: string[]
  baseUriDomains: string[]
}

export interface AppPolicy {
  csp: AppCsp
  /** Permission names asked for (camera, microphone, geolocation, clipboardWrite). */
  permissions: string[]
  /** Entries dropped from the CSP because they are not origins (keywords, `;`), for the audit. */
  dropped: string[]
}

const cspKeys = ['connectDomains', 'resourceDomains', 'frameDomains', 'baseUriDomains'] as const
const permissionFeatures: Record<string, string> = {
  camera: 'camera',
  microphone: 'microphone',
  geolocation: 'geolocation',
  clipboardWrite: 'clipboard-write',
}

/** A source expression we pass on: a scheme+host origin (`*.` subdomains, a port, a path), or `*`. */
const originPattern =
  /^(?:\*|(?:https?|wss?):\/\/(?:\*\.)?[A-Za-z0-9.-]+(?::(?:\d{1,5}|\*))?(?:\/[^\s;,'"]*)?)$/

/** Reads `_meta.ui` (csp, permissions) whatever shape the server sent; what is not a list of strings is none. */
export function appPolicy(ui: unknown): AppPolicy {
  const record = typeof ui === 'object' && ui !== null ? (ui as Record<string, unknown>) : {}
  const rawCsp =
    typeof record.csp === 'object' && record.csp !== null ? (record.csp as Record<string, unknown>) : {}
  const dropped: string[] = []
  const csp = {} as AppCsp
  for (const key of cspKeys) {
    const value = rawCsp[key]
    const list = Array.isArray(value)
      ? value.filter((entry): entry is string => typeof entry === 'string')
      : []
    csp[key] = list.filter((entry) => {
      const ok = originPattern.test(entry)
      if (!ok) dropped.push(entry)
      return ok
    })
  }
  const rawPermissions = record.permissions
  const permissions =
    typeof rawPermissions === 'object' && rawPermissions !== null
      ? Object.keys(rawPermissions).filter((name) => name in permissionFeatures)
      : []
  return { csp, permissions, dropped }
}

/** The CSP a host applies to the view: only the declared origins, nothing remote by default. */
export function contentSecurityPolicy(csp: AppCsp): string {
  const resources = csp.resourceDomains.join(' ')
  const list = (values: string[], fallback: string) => (values.length === 0 ? fallback : values.join(' '))
  return [
    "default-src 'none'",
    `script-src 'self' 'unsafe-inline' ${resources}`.trimEnd(),
    `style-src 'self' 'unsafe-inline' ${resources}`.trimEnd(),
    `img-src 'self' data: ${resources}`.trimEnd(),
    `font-src 'self' ${resources}`.trimEnd(),
    `media-src 'self' data: ${resources}`.trimEnd(),
    `connect-src ${list(csp.connectDomains, "'none'")}`,
    `frame-src ${list(csp.frameDomains, "'none'")}`,
    "object-src 'none'",
    `base-uri ${list(csp.baseUriDomains, "'self'")}`,
    "form-action 'none'",
  ].join('; ')
}

/** The iframe `allow` attribute for the permissions asked for ('' for none). */
export function allowAttribute(permissions: readonly string[]): string {
  return permissions
    .map((name) => permissionFeatures[name])
    .filter((feature): feature is string => feature !== undefined)
    .join('; ')
}

/** What is risky in a policy, one sentence each (the audit `inspect` prints). */
export function policyWarnings(policy: AppPolicy, declared: unknown): string[] {
  const warnings: string[] = []
  const rawCsp = (declared as { csp?: Record<string, unknown> } | undefined)?.csp
  for (const key of cspKeys) {
    const value = rawCsp?.[key]
    if (value !== undefined && !Array.isArray(value)) warnings.push(`${key} is not a list: ignored`)
  }
  for (const entry of policy.dropped) {
    if (/'unsafe-|unsafe-eval|unsafe-inline|unsafe-hashes/i.test(entry)) {
      warnings.push(`${JSON.stringify(entry)} asks for an unsafe CSP keyword (not an origin): ignored`)
    } else warnings.push(`${JSON.stringify(entry)} is not an origin (scheme://host[:port]): ignored`)
  }
  for (const key of cspKeys) {
    for (const origin of policy.csp[key]) {
      if (origin === '*') warnings.push(`${key} has the wildcard '*': any origin at all`)
      else if (origin.includes('://*.')) warnings.push(`${key} has ${origin}: any subdomain`)
      else if (/:\*$/.test(origin)) warnings.push(`${key} has ${origin}: any port`)
      if (/^(?:http|ws):\/\//.test(origin)) {
        const loopback = /^(?:http|ws):\/\/(?:localhost|127\.0\.0\.1|\[::1\])(?::|\/|$)/.test(origin)
        warnings.push(
          loopback
            ? `${key} has ${origin}: plain http on loopback, works only on the developer's machine`
            : `${key} has ${origin}: plain http, readable and changeable on the way`,
        )
      }
    }
  }
  if (policy.csp.resourceDomains.length > 0) {
    warnings.push(
      `scripts may load from ${policy.csp.resourceDomains.join(', ')} (resourceDomains → script-src)`,
    )
  }
  if (policy.csp.frameDomains.length > 0) {
    warnings.push(`nested frames from ${policy.csp.frameDomains.join(', ')} run outside this policy`)
  }
  for (const name of policy.permissions) {
    if (name !== 'clipboardWrite') warnings.push(`asks for the ${name}`)
  }
  return warnings
}
