// What `inspect` adds for a server from a registry: the entry it came from, what the registry says
// of it (`_meta`: status, dates, latest or not) and whether a cached copy was used offline.

import type { RegistryResolution } from '@mcp-kit/profiles'
import { sanitizeLine } from '../output/sanitize.js'
import type { Style } from '../output/style.js'

const officialKey = 'io.modelcontextprotocol.registry/official'

export interface RegistryView {
  registry: string
  name: string
  version: string
  /** `package npm @scope/pkg` or `remote streamable-http`. */
  launch: string
  /** The `--registry-choice` that names this launch exactly: `package:1`. */
  choice: string
  /** The registry's `_meta` of the entry, as it came. */
  meta: Record<string, unknown>
  offline?: boolean
}

export function registryView(resolution: RegistryResolution): RegistryView {
  const source = resolution.launch.source
  const view: RegistryView = {
    registry: resolution.registry,
    name: resolution.name,
    version: resolution.version,
    launch:
      source.kind === 'package'
        ? `package ${source.registryType} ${source.identifier}`
        : `remote ${source.type}`,
    choice: source.choice,
    meta: resolution.meta ?? {},
  }
  if (resolution.offline) view.offline = true
  return view
}

export function renderRegistryView(view: RegistryView, style: Style): string {
  const official = (view.meta[officialKey] ?? {}) as Record<string, unknown>
  const facts = [
    typeof official.status === 'string' ? official.status : '',
    official.isLatest === true ? 'latest' : official.isLatest === false ? 'not the latest' : '',
    typeof official.publishedAt === 'string' ? `published ${official.publishedAt}` : '',
    typeof official.updatedAt === 'string' ? `updated ${official.updatedAt}` : '',
    typeof official.statusMessage === 'string' ? official.statusMessage : '',
    view.offline ? 'cached copy, registry unreachable' : '',
  ].filter(Boolean)
  const lines = [
    '',
    style.bold('Registry entry'),
    `  ${sanitizeLine(view.name)}@${sanitizeLine(view.version)} from ${sanitizeLine(view.registry)} (${sanitizeLine(view.launch)})`,
  ]
  if (facts.length > 0) lines.push(`  ${facts.map(sanitizeLine).join('; ')}`)
  for (const [key, value] of Object.entries(view.meta)) {
    if (key === officialKey) continue
    lines.push(`  _meta ${sanitizeLine(key)}: ${sanitizeLine(JSON.stringify(value)).slice(0, 300)}`)
  }
  return `${lines.join('\n')}\n`
}
