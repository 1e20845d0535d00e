// The "Apps" section of `mcp-kit inspect`: each MCP App's view, CSP domains, permissions, the
// policy `mcp-kit ui` applies, and the audit's warnings. Every server string is sanitized.

import type { AppEntry } from '../../../apps/collect-apps.js'
import { sanitizeLine } from '../../../output/sanitize.js'
import type { Style } from '../../../output/style.js'

const cspRows: Array<[keyof AppEntry['csp'], string]> = [
  ['connectDomains', 'connect'],
  ['resourceDomains', 'resources'],
  ['frameDomains', 'frames'],
  ['baseUriDomains', 'base URI'],
]

/** Lines of the section, its heading first. */
export function renderApps(apps: readonly AppEntry[], style: Style): string[] {
  const lines = [style.bold(`Apps (${apps.length})`)]
  for (const app of apps) {
    const warningCount = app.warnings.length
    const verdict = app.error
      ? style.bold('unreadable')
      : warningCount === 0
        ? style.dim('no warnings')
        : style.bold(`${warningCount} warning${warningCount === 1 ? '' : 's'}`)
    lines.push(`  ${style.accent(sanitizeLine(app.tool))}  ${sanitizeLine(app.resourceUri)}  ${verdict}`)
    const facts = [
      app.mimeType ? sanitizeLine(app.mimeType) : undefined,
      app.bytes === undefined ? undefined : `${app.bytes} B`,
    ]
    if (app.visibility) facts.push(`visible to ${app.visibility.map(sanitizeLine).join(', ') || 'nobody'}`)
    if (app.domain) facts.push(`domain ${sanitizeLine(app.domain)}`)
    if (app.prefersBorder !== undefined) facts.push(app.prefersBorder ? 'prefers a border' : 'no border')
    const shown = facts.filter((fact) => fact !== undefined)
    if (shown.length > 0) lines.push(`      ${style.dim(shown.join(', '))}`)
    if (app.error) lines.push(`      could not read the view: ${sanitizeLine(app.error)}`)
    for (const [key, label] of cspRows) {
      const origins = app.csp[key]
      lines.push(
        `      ${label.padEnd(10)}${origins.length === 0 ? style.dim('none') : origins.map(sanitizeLine).join(' ')}`,
      )
    }
    lines.push(
      `      ${'allows'.padEnd(10)}${app.permissions.length === 0 ? style.dim('no permissions') : app.permissions.join(', ')}`,
    )
    lines.push(`      ${style.dim(`CSP in mcp-kit ui: ${sanitizeLine(app.appliedCsp)}`)}`)
    for (const warning of app.warnings) lines.push(`      ${style.bold('warning:')} ${sanitizeLine(warning)}`)
  }
  return lines
}
