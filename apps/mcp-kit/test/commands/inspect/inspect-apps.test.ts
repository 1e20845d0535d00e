// @module-tag integration
// `mcp-kit inspect` lists a server's MCP Apps (a registry module declaring them with
// @mcp-kit/server's defineApp, served by `mcp-kit serve --stdio`): each view read, its CSP domains
// and permissions, the policy `mcp-kit ui` applies, and warnings for what is risky.

import { fileURLToPath } from 'node:url'
import { npmServers } from '@mcp-kit/fixtures'
import { describe, expect, it } from 'vitest'
import { binPath, runCli } from '../../helpers/helpers.js'

const registry = fileURLToPath(new URL('../../fixtures/apps-registry.mjs', import.meta.url))
const server = ['--', process.execPath, binPath, 'serve', '--stdio', registry]

describe('inspect: MCP Apps', () => {
  it('prints each app with its CSP domains, permissions and the audit, escaping what the server sent', async () => {
    const result = await runCli(['inspect', ...server])
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    const section = result.stdout.slice(result.stdout.indexOf('Apps (2)'))
    expect(section).toMatch(/^Apps \(2\)\n {2}weather {2}ui:\/\/weather\/view {2}no warnings\n/)
    expect(section).toMatch(
      / {6}text\/html;profile=mcp-app, \d+ B, prefers a border\n {6}connect {3}https:\/\/api\.weather\.example\n/,
    )
    expect(section).toContain("CSP in mcp-kit ui: default-src 'none'; script-src 'self' 'unsafe-inline'; ")
    expect(section).toContain("connect-src https://api.weather.example; frame-src 'none'")
    const risky = section.slice(section.indexOf('  risky'))
    expect(risky).toMatch(/^ {2}risky {2}ui:\/\/risky\/view {2}8 warnings\n/)
    expect(risky).toContain('      connect   * http://data.example.com\n')
    expect(risky).toContain('      allows    camera, clipboardWrite\n')
    for (const warning of [
      `warning: "'unsafe-eval'" asks for an unsafe CSP keyword (not an origin): ignored`,
      "warning: connectDomains has the wildcard '*': any origin at all",
      'warning: connectDomains has http://data.example.com: plain http, readable and changeable on the way',
      'warning: resourceDomains has https://*.cdn.example: any subdomain',
      'warning: scripts may load from https://*.cdn.example (resourceDomains → script-src)',
      'warning: nested frames from https://frames.example run outside this policy',
      'warning: asks for the camera',
    ])
      expect(risky).toContain(warning)
    // The escape sequence a server put in an origin is shown, never sent to the terminal.
    expect(risky).toContain('"https://evil.example\\u001b[31m" is not an origin')
    expect(result.stdout).not.toContain('\u001b')
  })

  it('--format json: an apps list with the same audit, and none for a server without apps', async () => {
    const result = await runCli(['inspect', '--format', 'json', ...server])
    expect(result.code).toBe(0)
    const document = JSON.parse(result.stdout)
    expect(document.apps.map((app: { tool: string }) => app.tool)).toEqual(['weather', 'risky'])
    const [weather, risky] = document.apps
    expect(weather).toMatchObject({
      resourceUri: 'ui://weather/view',
      mimeType: 'text/html;profile=mcp-app',
      csp: {
        connectDomains: ['https://api.weather.example'],
        resourceDomains: [],
        frameDomains: [],
        baseUriDomains: [],
      },
      permissions: [],
      prefersBorder: true,
      warnings: [],
    })
    expect(weather.appliedCsp).toMatch(/connect-src https:\/\/api\.weather\.example;/)
    expect(risky.csp.resourceDomains).toEqual(['https://*.cdn.example'])
    expect(risky.permissions).toEqual(['camera', 'clipboardWrite'])
    expect(risky.warnings).toHaveLength(8)
    const demo = JSON.parse((await runCli(['inspect', '@demo', '--format', 'json'])).stdout)
    expect(demo.apps).toBeUndefined()
  })

  it('the ext-apps example from npm (server-basic-vanillajs): one app, nothing declared, no warnings', async () => {
    const result = await runCli(['inspect', '--', process.execPath, npmServers.basicApp, '--stdio'])
    expect(result.code).toBe(0)
    expect(result.stdout).toMatch(
      /\nApps \(1\)\n {2}get-time {2}ui:\/\/get-time\/mcp-app\.html {2}no warnings\n/,
    )
    expect(result.stdout).toMatch(/ {6}connect {3}none\n/)
    expect(result.stdout).toContain("connect-src 'none'")
  })
})
