// The sandbox policy of an MCP App from its `_meta.ui`: deny by default, only declared origins,
// keywords and malformed entries dropped (never spliced into the CSP), permissions to `allow`.

import { describe, expect, test } from 'vitest'
import {
  allowAttribute,
  appPolicy,
  contentSecurityPolicy,
  policyWarnings,
} from '../../src/apps/app-policy.js'

describe('app policy', () => {
  test('nothing declared: no remote connects, frames or resources', () => {
    const csp = contentSecurityPolicy(appPolicy(undefined).csp)
    expect(csp).toContain("default-src 'none'")
    expect(csp).toContain("connect-src 'none'")
    expect(csp).toContain("frame-src 'none'")
    expect(csp).toContain("script-src 'self' 'unsafe-inline';")
    expect(csp).toContain("object-src 'none'")
  })

  test('declared origins go to their directives; a keyword or a ";" never reaches the CSP', () => {
    const policy = appPolicy({
      csp: {
        connectDomains: ['https://api.example.com', "https://a.example; script-src 'unsafe-eval'"],
        resourceDomains: ['https://cdn.example.com', "'unsafe-eval'", 42],
        frameDomains: 'https://not-a-list.example',
      },
      permissions: { camera: {}, usb: {}, clipboardWrite: {} },
    })
    const csp = contentSecurityPolicy(policy.csp)
    expect(csp).toContain('connect-src https://api.example.com;')
    expect(csp).toContain("script-src 'self' 'unsafe-inline' https://cdn.example.com;")
    expect(csp).not.toContain('unsafe-eval')
    expect(csp.split(';').filter((part) => part.trim().startsWith('script-src'))).toHaveLength(1)
    expect(policy.permissions).toEqual(['camera', 'clipboardWrite'])
    expect(allowAttribute(policy.permissions)).toBe('camera; clipboard-write')
    const warnings = policyWarnings(policy, {
      csp: { frameDomains: 'https://not-a-list.example' },
    })
    expect(warnings).toContain('frameDomains is not a list: ignored')
    expect(warnings.some((warning) => warning.includes("'unsafe-eval'"))).toBe(true)
  })
})
